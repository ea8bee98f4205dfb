package org.fabricscope.app.render;

/**
 * The colour of a pairwise cell by its value as a fraction of the best pair's, from the palette's own
 * colours (no colour of its own): the palette's ok at the best, its warning at three quarters (where a
 * pair starts to count as slow), its danger at half, darker down to a quarter of it at nothing; a pair
 * whose every run failed is the darkest. ARGB ints, for the window's canvas and the report's HTML.
 */
public final class PairHeat {
    private PairHeat() {
    }

    /** The cell colour for {@code fraction} of the best (0 to 1; clamped), or for a failed pair. */
    public static int argb(MapPalette p, double fraction, boolean failed) {
        if (failed || Double.isNaN(fraction)) {
            return darker(p.danger(), 0.35);
        }
        double f = Math.max(0, Math.min(1, fraction));
        if (f >= 0.75) {
            return mix(p.warning(), p.ok(), (f - 0.75) / 0.25);
        }
        if (f >= 0.5) {
            return mix(p.danger(), p.warning(), (f - 0.5) / 0.25);
        }
        return mix(darker(p.danger(), 0.5), p.danger(), f / 0.5);
    }

    /** The palette's label colour or its badge (the page's background), whichever reads on {@code argb}. */
    public static int text(MapPalette p, int argb) {
        double lum = (0.299 * (argb >> 16 & 0xff) + 0.587 * (argb >> 8 & 0xff) + 0.114 * (argb & 0xff)) / 255;
        return lum > 0.55 ? p.label() : p.badge();
    }

    /** {@code #rrggbb} of an ARGB int. */
    public static String hex(int argb) {
        return String.format("#%06x", argb & 0xffffff);
    }

    private static int mix(int a, int b, double t) {
        int out = 0xff000000;
        for (int shift = 0; shift <= 16; shift += 8) {
            int x = a >> shift & 0xff;
            int y = b >> shift & 0xff;
            out |= (int) Math.round(x + (y - x) * t) << shift;
        }
        return out;
    }

    private static int darker(int argb, double keep) {
        return mix(0xff000000, argb, keep);
    }
}
