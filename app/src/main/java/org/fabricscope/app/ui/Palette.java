package org.fabricscope.app.ui;

/**
 * Map colours as ARGB ints for the off-thread rasteriser, which cannot read CSS. They mirror the
 * semantic variables in {@code app.css} (-fs-ok, -fs-warning, -fs-danger, ...); change both
 * together. Chosen to stay apart for the common colour-vision deficiencies (blue/orange/red-purple).
 */
public final class Palette {
    private Palette() {
    }

    public static final int BACKGROUND = 0xFFF7F8FA;
    public static final int OK = 0xFF2E9E44;
    public static final int WARNING = 0xFFE69F00;
    public static final int DANGER = 0xFFD1283A;
    public static final int UNKNOWN = 0xFFB8BEC7;
    public static final int DEGRADED = 0xFFCC2FB0;
    public static final int CORE = 0xFF1F3A68;
    public static final int SPINE = 0xFF2F6DB5;
    public static final int LEAF = 0xFF2A9D8F;
    public static final int OTHER = 0xFF8A6D3B;
    public static final int HCA = 0xFF6B7280;
    public static final int HOST = 0xFF4B5563;
    public static final int SELECTION = 0xFF0969DA;

    /** Speed colours, slowest to fastest (LinkSpeed order). */
    public static final int[] SPEED = {
        0xFF9E9E9E, 0xFF8D6E63, 0xFF795548, 0xFF26A69A, 0xFF00897B, 0xFF1E88E5, 0xFF3949AB, 0xFF8E24AA, 0xFF6A1B9A,
    };

    /** Links no rank uses, in the transport and Kubernetes modes: drawn faint so the used ones stand out. */
    public static final int FAINT = 0xFFDDE1E6;
    /** A host running pods of a training job (Kubernetes mode). */
    public static final int JOB = 0xFF0969DA;
    /** A host running pods of another training job than the one picked (Kubernetes mode). */
    public static final int OTHER_JOB = 0xFF9CC3F5;

    /** Transport colours, in {@link org.fabricscope.model.training.Transport} order: P2P (NVLink), SHM, IB+GDRDMA, IB, other NET, Socket. */
    public static final int[] TRANSPORT = {
        0xFF7B3FE4, 0xFF17A2B8, 0xFF2E9E44, 0xFFE69F00, 0xFF8A6D3B, 0xFFD1283A,
    };

    public static String css(int argb) {
        return String.format("#%06X", argb & 0xFFFFFF);
    }
}
