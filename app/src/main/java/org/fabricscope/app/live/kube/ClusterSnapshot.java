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
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;

/**
 * What a {@link ClusterWatch} holds at one moment: the current nodes, pods and events (and the
 * Kubeflow jobs read at start) as object lists, warnings for the kinds that cannot be watched right
 * now (and {@link #failures() why}, by kind: {@code nodes}, {@code pods}, {@code events}), how many
 * objects of each kind, and when it was taken. Immutable; {@link #contribute} adds it to a model
 * being built, off the UI thread.
 */
public record ClusterSnapshot(List<KubeObjectList> objects, List<Diagnostic> diagnostics, int nodes, int pods, int events,
                              long sequence, Instant taken, Map<String, String> failures) implements LiveSnapshot {
    public ClusterSnapshot {
        objects = List.copyOf(objects);
        diagnostics = List.copyOf(diagnostics);
        failures = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(failures));
    }

    /** A snapshot with no kind failing. */
    public ClusterSnapshot(List<KubeObjectList> objects, List<Diagnostic> diagnostics, int nodes, int pods, int events,
                           long sequence, Instant taken) {
        this(objects, diagnostics, nodes, pods, events, sequence, taken, Map.of());
    }

    @Override
    public void contribute(FabricModelBuilder builder) {
        KubeObjectList.contribute(objects, builder);
    }

    /**
     * Whether no kind could be listed: every one of nodes, pods and events failed (the server is
     * unreachable, refuses the credentials or TLS, or answers 404), so the counts say nothing.
     */
    @Override
    public boolean disconnected() {
        return failures.keySet().containsAll(List.of("nodes", "pods", "events"));
    }

    @Override
    public String counts() {
        return nodes + " nodes, " + pods + " pods, " + events + " events";
    }

    /** The list cited as a name ending in {@code suffix} ({@code /pods}), or null. */
    public KubeObjectList list(String suffix) {
        return objects.stream().filter(l -> l.source().endsWith(suffix)).findFirst().orElse(null);
    }

    /** This snapshot alone as a model (tests, the bench). */
    public ImportResult importAlone() {
        return new FabricImporter().importSources(List.of(), new ArrayList<>(diagnostics), ImportProgress.NONE,
                Cancellation.NEVER, this::contribute);
    }
}
