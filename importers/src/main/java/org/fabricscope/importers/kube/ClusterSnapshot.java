package org.fabricscope.importers.kube;

import java.time.Instant;
import java.util.List;

import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.model.core.Diagnostic;

/**
 * What a {@link ClusterWatch} holds at one moment: the current nodes, pods and events (and the
 * Kubeflow jobs read at start) as kubectl-style JSON sources, warnings for the kinds that cannot be
 * watched right now, how many objects of each kind, and when it was taken. Immutable; import it
 * with {@code FabricImporter.importSources(sources(), diagnostics(), ...)} off the UI thread.
 */
public record ClusterSnapshot(List<ImportSource> sources, List<Diagnostic> diagnostics, int nodes, int pods, int events,
                              long sequence, Instant taken) {
    public ClusterSnapshot {
        sources = List.copyOf(sources);
        diagnostics = List.copyOf(diagnostics);
    }
}
