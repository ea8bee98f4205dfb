package org.fabricscope.importers.kube;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.model.core.Diagnostic;

/**
 * What a {@link ClusterWatch} holds at one moment: the current nodes, pods and events (and the
 * Kubeflow jobs read at start) as kubectl-style JSON sources, warnings for the kinds that cannot be
 * watched right now (and {@link #failures() why}, by kind: {@code nodes}, {@code pods}, {@code events}), how many objects of each kind, and when it was taken. Immutable; import it
 * with {@code FabricImporter.importSources(sources(), diagnostics(), ...)} off the UI thread.
 */
public record ClusterSnapshot(List<ImportSource> sources, List<Diagnostic> diagnostics, int nodes, int pods, int events,
                              long sequence, Instant taken, Map<String, String> failures) {
    public ClusterSnapshot {
        sources = List.copyOf(sources);
        diagnostics = List.copyOf(diagnostics);
        failures = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(failures));
    }

    /** A snapshot with no kind failing. */
    public ClusterSnapshot(List<ImportSource> sources, List<Diagnostic> diagnostics, int nodes, int pods, int events,
                           long sequence, Instant taken) {
        this(sources, diagnostics, nodes, pods, events, sequence, taken, Map.of());
    }

    /**
     * Whether no kind could be listed: every one of nodes, pods and events failed (the server is
     * unreachable, refuses the credentials or TLS, or answers 404), so the counts say nothing.
     */
    public boolean disconnected() {
        return failures.keySet().containsAll(List.of("nodes", "pods", "events"));
    }
}
