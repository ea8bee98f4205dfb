package org.fabricscope.importers.kube;

import java.util.ArrayList;
import java.util.List;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.model.core.Diagnostic;

/**
 * What one read of a cluster produced: the objects as kubectl-style JSON sources named
 * {@code kube://<context>/...} (and pod logs), plus warnings for what could not be read. Feed the
 * sources, alone or with files, to {@link FabricImporter#importSources}.
 */
public record ClusterRead(List<ImportSource> sources, List<Diagnostic> diagnostics) {
    public ClusterRead {
        sources = List.copyOf(sources);
        diagnostics = List.copyOf(diagnostics);
    }

    /** Imports these sources (and {@code more}, e.g. files expanded by a BundleReader) into one model. */
    public ImportResult importWith(List<ImportSource> more, List<Diagnostic> moreDiagnostics, ImportProgress progress,
                                   Cancellation cancel) {
        List<ImportSource> all = new ArrayList<>(more);
        all.addAll(sources);
        List<Diagnostic> early = new ArrayList<>(moreDiagnostics);
        early.addAll(diagnostics);
        return new FabricImporter().importSources(all, early, progress, cancel);
    }
}
