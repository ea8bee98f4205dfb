package org.fabricscope.app.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The pairwise heat colours come from the palette: ok at the best, warning at three quarters, danger at half, darker below. */
class PairHeatTest {
    private static final MapPalette P = MapPalette.defaults();

    @Test
    void stopsAreThePalettesColours() {
        assertEquals(P.ok() | 0xff000000, PairHeat.argb(P, 1, false));
        assertEquals(P.warning() | 0xff000000, PairHeat.argb(P, 0.75, false));
        assertEquals(P.danger() | 0xff000000, PairHeat.argb(P, 0.5, false));
        assertEquals(P.ok() | 0xff000000, PairHeat.argb(P, 1.3, false), "clamped");
    }

    @Test
    void belowHalfAndFailedAreDarker() {
        assertTrue(lum(PairHeat.argb(P, 0.1, false)) < lum(P.danger()));
        assertTrue(lum(PairHeat.argb(P, 0, true)) < lum(PairHeat.argb(P, 0, false)), "failed is the darkest");
        assertNotEquals(PairHeat.argb(P, 0.9, false), PairHeat.argb(P, 0.8, false));
    }

    @Test
    void textReadsOnItsCell() {
        assertEquals(P.badge(), PairHeat.text(P, PairHeat.argb(P, 0, true)), "light text on the darkest");
        assertEquals("#2e9e44", PairHeat.hex(P.ok()));
    }

    private static double lum(int argb) {
        return 0.299 * (argb >> 16 & 0xff) + 0.587 * (argb >> 8 & 0xff) + 0.114 * (argb & 0xff);
    }
}
