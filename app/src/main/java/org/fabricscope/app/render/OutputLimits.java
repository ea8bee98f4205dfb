package org.fabricscope.app.render;

import java.util.Locale;

/**
 * How large an export may be, so that an absurd request or fabric is refused with the limit's name
 * instead of running the machine out of memory or disk. The ten-times-Selene fabric of BENCHMARKS.md
 * (46,080 nodes, 122,880 cables: 38 MB of GraphML, 41 MB of JSON) is well within each.
 */
public final class OutputLimits {
    /** A picture's pixels at most: 400 MB of frame (as the rasteriser's int[]) and as much again for the image. */
    public static final long MAX_PIXELS = 100_000_000L;
    /** A picture's side at least, in pixels. */
    public static final int MIN_SIDE = 16;
    /**
     * Vertices and edges (nodes, cables, and for JSON ranks and rank pairs) a graph export writes at
     * most, and glyphs and cables an SVG drawn in detail holds: about 230 bytes each in GraphML or JSON,
     * so at most about 230 MB of text (built in memory before it is written).
     */
    public static final int MAX_ELEMENTS = 1_000_000;

    private OutputLimits() {
    }

    /** Why a {@code width} x {@code height} picture is refused, or null when it is within the limits. */
    public static String pictureProblem(long width, long height) {
        if (width < MIN_SIDE || height < MIN_SIDE) {
            return String.format(Locale.ROOT, "a picture of %d x %d pixels is smaller than %d pixels a side (OutputLimits.MIN_SIDE)",
                    width, height, MIN_SIDE);
        }
        if (width * height > MAX_PIXELS) {
            return String.format(Locale.ROOT, "a picture of %,d x %,d = %,d pixels is past the limit of %,d pixels "
                    + "(OutputLimits.MAX_PIXELS)", width, height, width * height, MAX_PIXELS);
        }
        return null;
    }

    /** Why a graph export of {@code elements} vertices and edges is refused, or null when it is within the limit. */
    public static String graphProblem(String what, long elements) {
        return graphProblem(what, elements, MAX_ELEMENTS);
    }

    static String graphProblem(String what, long elements, long limit) {
        return elements <= limit ? null : String.format(Locale.ROOT, "%s would hold %,d elements, past the limit of %,d "
                + "(OutputLimits.MAX_ELEMENTS): the file would run to gigabytes", what, elements, limit);
    }
}
