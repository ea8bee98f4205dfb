package org.fabricscope.app.render;

import static org.fabricscope.app.nav.Samples.RAIL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;

import org.fabricscope.app.nav.Samples;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.layout.MapLayout;
import org.fabricscope.model.layout.TieredLayout;
import org.junit.jupiter.api.Test;

/** Picking a cable off the drawn map: nearest line within the tolerance, the worst cable of a bundle. */
class CablePickerTest {
    private final FabricModel model = Samples.analysis(RAIL).model();


    @Test
    void aPointOnALinePicksItsCableAndAPointFarFromAllPicksNothing() {
        MapLayout layout = TieredLayout.compute(model, Set.of(), false);
        Cable errors = model.node(0x0c42a10300010103L).port(23).cable();
        MapLayout.Link link = layout.links().stream().filter(k -> k.cables().contains(errors)).findFirst().orElseThrow();
        double[] e = MapRasterizer.ends(link);
        CablePicker picker = new CablePicker(layout);
        int found = 0;
        for (double t = 0.1; t < 0.95; t += 0.1) { // leaf-spine lines cross; most points of the line are its own
            CablePicker.Hit hit = picker.pick(e[0] + t * (e[2] - e[0]), e[1] + t * (e[3] - e[1]), 2);
            assertNotNull(hit, "a point on the line is within the tolerance");
            assertTrue(hit.distance() <= 2);
            if (hit.cable() == errors) {
                found++;
                assertEquals(link, hit.link());
                assertEquals(layout.links().indexOf(link), hit.linkIndex());
            }
        }
        assertTrue(found >= 5, "most points of the line pick it: " + found);
        assertNull(picker.pick(layout.minX() - 500, layout.minY() - 500, 5), "far from every line");
        // beside the line: picked within the tolerance, not beyond it
        double mx = (e[0] + e[2]) / 2;
        double my = (e[1] + e[3]) / 2;
        double nx = -(e[3] - e[1]);
        double ny = e[2] - e[0];
        double len = Math.hypot(nx, ny);
        CablePicker.Hit near = picker.pick(mx + nx / len * 1.5, my + ny / len * 1.5, 2);
        assertNotNull(near);
        assertTrue(near.distance() <= 2);
    }

    @Test
    void aCollapsedHostsLineShowsItsWorstCable() {
        // leaf-su2-r5 port 7 counts link error recoveries; its host collapsed draws eight cables to eight leaves
        Cable bad = model.node(0x0c42a10300010205L).port(7).cable();
        FabricNode hca = bad.a().node().isSwitch() ? bad.b().node() : bad.a().node();
        MapLayout layout = TieredLayout.compute(model, Set.of(hca.host().name()), false);
        MapLayout.Link link = layout.links().stream().filter(k -> k.cables().contains(bad)).findFirst().orElseThrow();
        assertEquals(hca.host(), link.b().vertex() instanceof org.fabricscope.model.fabric.Host ? link.b().vertex() : link.a().vertex());
        assertEquals(bad, CablePicker.worst(link.cables()));
        assertEquals(bad, CablePicker.worst(java.util.List.of(bad)));
    }

    @Test
    void distanceToASegmentIsToItsNearestPoint() {
        assertEquals(0, CablePicker.distance(5, 0, 0, 0, 10, 0), 1e-9);
        assertEquals(3, CablePicker.distance(5, 3, 0, 0, 10, 0), 1e-9);
        assertEquals(5, CablePicker.distance(13, 4, 0, 0, 10, 0), 1e-9, "past the end: to the end point");
        assertEquals(5, CablePicker.distance(3, 4, 0, 0, 0, 0), 1e-9, "a zero-length segment is a point");
    }
}
