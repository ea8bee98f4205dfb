package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The heat map's geometry without a toolkit: cells as wide as the longest name within limits, picking, shortening. */
class PairMatrixLayoutTest {
    @Test
    void cellsAndPicking() {
        PairMatrixLayout l = new PairMatrixLayout(List.of("gpu-node-01", "gpu-node-02", "gpu-node-03"));
        assertEquals(11 * PairMatrixLayout.CHAR_WIDTH + 16, l.cellWidth(), 1e-9);
        assertEquals(l.labelWidth() + 3 * l.cellWidth() + 1, l.width(), 1e-9);
        assertEquals(PairMatrixLayout.HEADER_HEIGHT + 3 * PairMatrixLayout.CELL_HEIGHT + 1, l.height(), 1e-9);
        assertEquals(new PairMatrixViewModel.At(2, 1), l.pick(l.x(1) + 3, l.y(2) + 3));
        assertNull(l.pick(l.x(0) - 1, l.y(0) + 3), "on a row label");
        assertNull(l.pick(l.x(0) + 1, l.y(3) + 1), "below the grid");
    }

    @Test
    void shortNamesKeepAMinimumAndLongOnesAreShortened() {
        assertEquals(64, new PairMatrixLayout(List.of("a", "b")).cellWidth(), 1e-9);
        String fqdn = "gpu-node-0001.rack-17.example.internal";
        PairMatrixLayout l = new PairMatrixLayout(List.of(fqdn, "b"));
        assertEquals(150, l.cellWidth(), 1e-9);
        String fit = PairMatrixLayout.fit(fqdn, l.cellWidth());
        assertEquals(20, fit.length());
        assertEquals('…', fit.charAt(19));
        assertEquals("gpu", PairMatrixLayout.fit("gpu", 64));
    }
}
