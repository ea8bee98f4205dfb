package org.fabricscope.app.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.fabricscope.app.nav.Samples;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.layout.MapLayout;
import org.fabricscope.model.layout.TieredLayout;
import org.junit.jupiter.api.Test;

/** At fit, switches are named where their names fit between their neighbours, clear of every other label. */
class FitNamesTest {
    private static final Path SAMPLE = Path.of("..", "sample-fabrics", "fat-tree-3tier-small");
    private final FabricModel model = Samples.analysis(SAMPLE).model();
    private final MapLayout layout = TieredLayout.compute(model, Set.of(), false);

    @Test
    void atFitTheSwitchesWithRoomAreNamedAndNoNameOverlapsAnother() {
        Viewport v = Viewport.fit(layout, 1280, 800);
        List<MapLabels.Name> names = FitNames.place(layout, v, List.of(), List.of());
        assertFalse(names.isEmpty(), "the sample's core switches have room for their names at 1280x800");
        List<double[]> boxes = new ArrayList<>();
        for (MapLabels.Name n : names) {
            double[] b = {n.x() - n.maxWidth() / 2, n.y() - MapLabels.LINE / 2, n.x() + n.maxWidth() / 2, n.y() + MapLabels.LINE / 2};
            assertTrue(b[0] >= 0 && b[2] <= v.width() && b[1] >= 0 && b[3] <= v.height(), n + " inside the view");
            for (double[] o : boxes) {
                assertFalse(o[0] < b[2] && b[0] < o[2] && o[1] < b[3] && b[1] < o[3], n + " overlaps another name");
            }
            boxes.add(b);
        }
        // every name fits the room its glyph has on the row, and none names a host glyph
        for (MapLabels.Name n : names) {
            MapLayout.Item it = layout.items().stream()
                    .filter(i -> Math.abs(i.x() * v.scale() + v.tx() - n.x()) < 0.5 && MapLabels.shortName(i.vertex()).equals(n.text()))
                    .findFirst().orElseThrow();
            assertTrue(it.row() != MapLayout.Row.HOST);
            assertTrue(n.maxWidth() + FitNames.GAP <= layout.room(it.index()) * v.scale() + 1e-9, n + " has room");
        }
    }

    @Test
    void aNameTooWideForItsRoomIsLeftOutAndZoomingInNamesMore() {
        Viewport fit = Viewport.fit(layout, 1280, 800);
        Viewport narrow = Viewport.fit(layout, 500, 400);
        int atFit = FitNames.place(layout, fit, List.of(), List.of()).size();
        int atNarrow = FitNames.place(layout, narrow, List.of(), List.of()).size();
        assertTrue(atNarrow < atFit, "a smaller view has room for fewer names: " + atNarrow + " vs " + atFit);
        Viewport zoomed = new Viewport(1280, 800, MapLabels.NAMES_FROM_SCALE, fit.tx(), fit.ty());
        assertEquals(0, FitNames.place(layout, zoomed, List.of(), List.of()).size(),
                "from the scale where every switch is named, MapLabels.names does it");
    }

    @Test
    void aNameGivesWayToALabelAlreadyPlacedAndIsNotRepeated() {
        Viewport v = Viewport.fit(layout, 1280, 800);
        List<MapLabels.Name> names = FitNames.place(layout, v, List.of(), List.of());
        MapLabels.Name first = names.get(0);
        MapLabels.Label blocker = new MapLabels.Label("group", first.x(), first.y(), first.maxWidth() + 20, 0xff000000, true);
        List<MapLabels.Name> again = FitNames.place(layout, v, List.of(blocker), List.of());
        assertTrue(again.stream().noneMatch(n -> n.text().equals(first.text())), "a group label in the way wins");
        MapLabels.Name subject = new MapLabels.Name(first.text(), first.x(), first.y(), first.maxWidth());
        List<MapLabels.Name> withSubject = FitNames.place(layout, v, List.of(), List.of(subject));
        assertTrue(withSubject.stream().noneMatch(n -> n.text().equals(first.text())), "a subject already named is not named twice");
    }
}
