package org.fabricscope.model.compare;

import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;

/**
 * What changed between two captures of the same cluster ({@code before}, the older, and {@code after}), across
 * every layer the model has: the fabric's nodes and cables, the ports' counters, the hosts, training (NCCL,
 * transports, bus bandwidth), Kubernetes nodes, and the findings of the same diagnosis run on both. Pure: reads
 * two models and their findings, does no I/O. Changes are ordered by layer, then as each layer lists them.
 */
public record Comparison(List<Change> changes, List<CounterDelta> counters, FindingDelta findings) {
    /** The layers of {@link #changes}, in order. */
    public static final List<String> LAYERS = List.of(Change.FABRIC, Change.HOSTS, Change.TRAINING, Change.KUBERNETES);

    public Comparison {
        changes = List.copyOf(changes);
        counters = List.copyOf(counters);
    }

    /** Compares {@code after} with {@code before}; each model with the findings its diagnosis gave. */
    public static Comparison of(FabricModel before, List<Finding> beforeFindings, FabricModel after, List<Finding> afterFindings) {
        List<Change> changes = new ArrayList<>();
        FabricDiff.compare(before, after, changes);
        HostDiff.compare(before, after, changes);
        TrainingDiff.compare(before, after, changes);
        KubeDiff.compare(before, after, changes);
        return new Comparison(changes, CounterDiff.compare(before, after), FindingDelta.of(beforeFindings, afterFindings));
    }

    /** The changes of one layer ({@link Change#FABRIC}, ...). */
    public List<Change> changes(String layer) {
        return changes.stream().filter(c -> c.layer().equals(layer)).toList();
    }

    /** Whether the two captures differ in nothing this compares (findings included). */
    public boolean isEmpty() {
        return changes.isEmpty() && counters.isEmpty() && findings.added().isEmpty() && findings.resolved().isEmpty();
    }
}
