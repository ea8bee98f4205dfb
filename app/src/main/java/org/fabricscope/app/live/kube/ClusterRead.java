package org.fabricscope.app.live.kube;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.fabricscope.app.live.source.LiveSnapshot;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;

/**
 * What one read of a cluster produced: the objects of each kind read (contributed to the model
 * builder as objects), the pods' logs as text for the log readers (named
 * {@code kube://<context>/<ns>/pods/<pod>/<container>}), and warnings for what could not be read.
 */
public record ClusterRead(List<KubeObjectList> objects, List<ImportSource> logs, List<Diagnostic> diagnostics,
                          Instant taken) implements LiveSnapshot {
    public ClusterRead {
        objects = List.copyOf(objects);
        logs = List.copyOf(logs);
        diagnostics = List.copyOf(diagnostics);
    }

    @Override
    public void contribute(FabricModelBuilder builder) {
        KubeObjectList.contribute(objects, builder);
    }

    @Override
    public List<ImportSource> texts() {
        return logs;
    }

    /** A read fails as a whole when nothing could be listed, so a read that came back is never disconnected. */
    @Override
    public Map<String, String> failures() {
        return Map.of();
    }

    @Override
    public boolean disconnected() {
        return false;
    }

    @Override
    public String counts() {
        return objects.stream().map(l -> l.items().size() + " " + l.source().substring(l.source().lastIndexOf('/') + 1))
                .reduce((a, b) -> a + ", " + b).orElse("nothing");
    }

    /** The list cited as {@code source}, or null. */
    public KubeObjectList list(String source) {
        return objects.stream().filter(l -> l.source().equals(source)).findFirst().orElse(null);
    }

    /** Imports this read with {@code more} (files expanded by a BundleReader, say) into one model. */
    public ImportResult importWith(List<ImportSource> more, List<Diagnostic> moreDiagnostics, ImportProgress progress,
                                   Cancellation cancel) {
        List<ImportSource> all = new ArrayList<>(more);
        all.addAll(logs);
        List<Diagnostic> early = new ArrayList<>(moreDiagnostics);
        early.addAll(diagnostics);
        return new FabricImporter().importSources(all, early, progress, cancel, this::contribute);
    }
}
