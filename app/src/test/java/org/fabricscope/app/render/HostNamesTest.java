package org.fabricscope.app.render;

import static org.fabricscope.app.nav.Samples.RAIL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.fabricscope.app.nav.Samples;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.layout.MapLayout;
import org.fabricscope.model.layout.TieredLayout;
import org.junit.jupiter.api.Test;

/** Zoomed in, an HCA's glyph reads {@code host mlx5_N} where that fits, its device alone where it does not. */
class HostNamesTest {
    private final FabricModel model = Samples.analysis(RAIL).model();

    private FabricNode hca() {
        return model.nodes().stream().filter(n -> !n.isSwitch() && n.host() != null).findFirst().orElseThrow();
    }

    @Test
    void anHcaReadsItsHostAndDeviceWhereThereIsRoom() {
        FabricNode n = hca();
        String device = MapLabels.shortName(n);
        assertEquals(n.host().name() + " " + device, MapLabels.roomyName(n, 400));
        assertEquals(device, MapLabels.roomyName(n, 30), "too narrow: the device alone");
        assertEquals(n.host().name() + " " + device, SubjectNames.name(n), "a subject always names its host");
    }

    @Test
    void zoomedInTheMapsHostNamesNameTheirHosts() {
        MapLayout layout = TieredLayout.compute(model, Set.of(), false);
        MapLayout.Item it = layout.item(hca());
        double s = 60;
        Viewport v = new Viewport(1280, 800, s, 640 - it.x() * s, 400 - it.y() * s);
        List<MapLabels.Name> names = MapLabels.names(layout, v);
        assertFalse(names.isEmpty());
        assertTrue(names.stream().anyMatch(x -> x.text().equals(hca().host().name() + " " + MapLabels.shortName(hca()))),
                names.toString());
    }
}
