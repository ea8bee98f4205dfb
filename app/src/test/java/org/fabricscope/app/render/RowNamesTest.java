package org.fabricscope.app.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.fabricscope.app.nav.Samples;
import org.fabricscope.model.layout.MapLayout;
import org.fabricscope.model.layout.TieredLayout;
import org.junit.jupiter.api.Test;

/** A row's name never sits on the row's glyphs: at fit it is at the left edge, panned it moves into the first gap. */
class RowNamesTest {
    private final MapLayout layout = TieredLayout.compute(
            Samples.analysis(Path.of("..", "sample-fabrics", "fat-tree-3tier-small")).model(), Set.of(), false);

    private static boolean onAGlyph(MapLayout layout, Viewport v, MapLabels.RowName r, MapLayout.Row row) {
        double w = MapLabels.width(r.text(), true);
        return layout.items().stream().filter(it -> it.row() == row).anyMatch(it -> {
            double cx = it.x() * v.scale() + v.tx();
            double hw = it.width() * v.scale() / 2;
            double cy = it.y() * v.scale() + v.ty();
            double hh = it.height() * v.scale() / 2;
            return cx + hw > r.x() && cx - hw < r.x() + w && cy + hh > r.y() - MapLabels.LINE / 2 && cy - hh < r.y() + MapLabels.LINE / 2;
        });
    }

    @Test
    void atFitTheNamesSitAtTheLeftEdgeClearOfGlyphs() {
        Viewport v = Viewport.fit(layout, 1280, 800);
        List<MapLabels.RowName> rows = MapLabels.rows(layout, v);
        assertEquals(layout.rowY().size(), rows.size());
        for (MapLabels.RowName r : rows) {
            assertEquals(6, r.x(), 1e-9, r.toString());
            assertFalse(r.onGlyphs());
        }
    }

    @Test
    void pannedSoGlyphsReachTheLeftEdgeTheNameMovesIntoAGap() {
        List<MapLayout.Item> leaves = layout.items().stream().filter(it -> it.row() == MapLayout.Row.LEAF)
                .sorted(java.util.Comparator.comparingDouble(MapLayout.Item::x)).toList();
        MapLayout.Item leaf = leaves.get(0);
        MapLayout.Item next = leaves.get(1);
        double gap = (next.x() - next.width() / 2) - (leaf.x() + leaf.width() / 2);
        double s = 3 * MapLabels.width("leaf", true) / gap; // zoomed in until the gap between two leaves holds the name
        // the first leaf glyph's left end at x = 2: under where the name used to be drawn
        Viewport v = new Viewport(1280, 800, s, 2 - (leaf.x() - leaf.width() / 2) * s, 400 - leaf.y() * s);
        MapLabels.RowName r = MapLabels.rows(layout, v).stream().filter(x -> x.text().equals(MapLayout.Row.LEAF.label()))
                .findFirst().orElseThrow();
        assertTrue(r.x() > 6, "moved right: " + r);
        assertFalse(r.onGlyphs());
        assertFalse(onAGlyph(layout, v, r, MapLayout.Row.LEAF), r + " is clear of every leaf glyph");
    }

    @Test
    void withNoGapNearTheEdgeTheNameIsMarkedToBeDrawnOnABand() {
        Viewport fit = Viewport.fit(layout, 1280, 800);
        double s = 40; // one glyph far wider than the search: no gap within reach
        MapLayout.Item leaf = layout.items().stream().filter(it -> it.row() == MapLayout.Row.LEAF).findFirst().orElseThrow();
        Viewport v = new Viewport(1280, 800, s, 640 - leaf.x() * s, 400 - leaf.y() * s);
        MapLabels.RowName r = MapLabels.rows(layout, v).stream().filter(x -> x.text().equals(MapLayout.Row.LEAF.label()))
                .findFirst().orElseThrow();
        assertTrue(leaf.width() * s > MapLabels.ROW_NAME_SEARCH + 100, "the glyph spans the search " + leaf.width() * s + " " + fit);
        assertTrue(r.onGlyphs(), r.toString());
        assertEquals(6, r.x(), 1e-9);
    }
}
