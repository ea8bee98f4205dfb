package org.fabricscope.model.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;

import org.fabricscope.model.FabricModel;
import org.junit.jupiter.api.Test;

/** The per-row views of a layout that the map's labels use to look at a stretch of a row instead of every glyph. */
class MapLayoutRowsTest {
    private final FabricModel model = FabricGroupsTest.seleneLike(new LinkedHashMap<>());
    private final MapLayout layout = TieredLayout.compute(model, Set.of(), false);

    @Test
    void eachRowsItemsAreInOrderOfXAndTogetherAreEveryItem() {
        int total = 0;
        for (MapLayout.Row row : MapLayout.Row.values()) {
            List<MapLayout.Item> items = layout.rowItems(row);
            total += items.size();
            for (int i = 0; i < items.size(); i++) {
                assertEquals(row, items.get(i).row());
                if (i > 0) {
                    assertTrue(items.get(i - 1).x() <= items.get(i).x(), row + " out of order at " + i);
                }
            }
        }
        assertEquals(layout.items().size(), total);
        assertEquals(16, layout.rowItems(MapLayout.Row.HOST).size());
        assertEquals(List.of(), layout.rowItems(MapLayout.Row.OTHER));
    }

    @Test
    void firstAtOrAfterFindsTheStretchOfARow() {
        List<MapLayout.Item> leaves = layout.rowItems(MapLayout.Row.LEAF);
        assertEquals(0, layout.firstAtOrAfter(MapLayout.Row.LEAF, Double.NEGATIVE_INFINITY));
        assertEquals(leaves.size(), layout.firstAtOrAfter(MapLayout.Row.LEAF, Double.POSITIVE_INFINITY));
        for (int i = 0; i < leaves.size(); i++) {
            double x = leaves.get(i).x();
            assertEquals(i, layout.firstAtOrAfter(MapLayout.Row.LEAF, x), "at the item's own x");
            assertEquals(i + 1, layout.firstAtOrAfter(MapLayout.Row.LEAF, Math.nextUp(x)), "just past it");
        }
        assertEquals(0, layout.firstAtOrAfter(MapLayout.Row.OTHER, 0));
    }

    @Test
    void theSwitchesAreTheItemsOffTheHostRowInIndexOrderWithTheirMostRoom() {
        List<MapLayout.Item> off = layout.itemsOffHosts();
        assertEquals(layout.items().size() - 16, off.size());
        double most = 0;
        for (int i = 0; i < off.size(); i++) {
            assertTrue(off.get(i).row() != MapLayout.Row.HOST);
            if (i > 0) {
                assertTrue(off.get(i - 1).index() < off.get(i).index());
            }
            most = Math.max(most, layout.room(off.get(i).index()));
        }
        assertEquals(most, layout.maxRoomOffHosts());
        assertTrue(layout.maxRoomOffHosts() > 0);
        assertEquals(TieredLayout.SWITCH_W, layout.maxItemWidth());
    }
}
