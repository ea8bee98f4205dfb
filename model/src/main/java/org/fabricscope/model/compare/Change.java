package org.fabricscope.model.compare;

import java.util.Objects;

/**
 * One difference between two captures outside the counters: a {@code layer} ({@code fabric}, {@code hosts},
 * {@code training}, {@code kubernetes}), what happened ({@code added}, {@code removed}, {@code moved},
 * {@code changed}), the {@code subject} it happened to (a cable, a port, a host, a node, a rank pair, a run), the
 * {@code field} of it that differs ({@code cable}, {@code rate}, {@code gid 3}, {@code NCCL_IB_HCA}, ...), and the
 * values before and after as text (null on the side that does not have it).
 */
public record Change(String layer, String kind, String subject, String field, String before, String after) {
    public static final String FABRIC = "fabric";
    public static final String HOSTS = "hosts";
    public static final String TRAINING = "training";
    public static final String KUBERNETES = "kubernetes";

    public static final String ADDED = "added";
    public static final String REMOVED = "removed";
    public static final String MOVED = "moved";
    public static final String CHANGED = "changed";

    /** A layer's name as the compare view and the CLI's compare output head it ("Fabric"); another layer as it is. */
    public static String layerTitle(String layer) {
        return switch (layer) {
            case FABRIC -> "Fabric";
            case HOSTS -> "Hosts";
            case TRAINING -> "Training";
            case KUBERNETES -> "Kubernetes";
            default -> layer;
        };
    }

    public Change {
        Objects.requireNonNull(layer, "layer");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(field, "field");
    }

    /** A value that one capture has and the other has not, or that differs: added, removed or changed. */
    static Change of(String layer, String subject, String field, String before, String after) {
        String kind = before == null ? ADDED : after == null ? REMOVED : CHANGED;
        return new Change(layer, kind, subject, field, before, after);
    }

    /** One line in words: {@code subject: field before -> after}, or {@code subject: field added (value)}. */
    public String text() {
        return switch (kind) {
            case ADDED -> subject + ": " + field + " added" + (after == null || after.isEmpty() ? "" : " (" + after + ")");
            case REMOVED -> subject + ": " + field + " removed" + (before == null || before.isEmpty() ? "" : " (was " + before + ")");
            default -> subject + ": " + field + " " + show(before) + " -> " + show(after);
        };
    }

    private static String show(String v) {
        return v == null ? "(none)" : v.isEmpty() ? "(empty)" : v;
    }
}
