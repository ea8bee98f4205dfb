package org.fabricscope.app.ui;

import static org.fabricscope.app.nav.Samples.RAIL;
import static org.fabricscope.app.nav.Samples.TRAINING;
import static org.fabricscope.app.nav.Samples.paths;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.fabricscope.app.render.CablePicker;
import org.fabricscope.app.render.MapRasterizer;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.layout.MapLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import javafx.geometry.Point2D;
import javafx.scene.Scene;
import javafx.scene.control.TabPane;
import javafx.stage.Stage;

/**
 * Cables are objects on the map: hovering one shows both ends with their rates and error counters,
 * clicking it shows the inspector's cable view (both ports, findings, ranks), clicking empty space
 * lets it go.
 */
@ExtendWith(ApplicationExtension.class)
class CableSelectionTest {
    private static final long LEAF_SU1_R3 = 0x0c42a10300010103L;
    private MainView view;

    @Start
    void start(Stage stage) {
        view = new MainView();
        Scene scene = new Scene(view, 1200, 800);
        scene.getStylesheets().add(FabricScopeApp.class.getResource("app.css").toExternalForm());
        stage.setScene(scene);
        stage.show();
    }

    private void load(FxRobot robot, Path... folders) throws Exception {
        List<Path> paths = paths(folders);
        robot.interact(() -> view.open(paths, false));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> view.snapshot() != null);
        WaitForAsyncUtils.waitForFxEvents();
    }

    /**
     * A screen point on the cable's line that picks it, and picks it a pixel away each way too (the
     * robot's pointer lands on whole pixels); leaf-spine lines cross, so not every point is its own.
     */
    private Point2D pointOn(Cable c) throws Exception {
        return WaitForAsyncUtils.asyncFx(() -> {
            FabricMapView map = view.map();
            MapLayout.Link link = map.mapLayout().links().stream().filter(k -> k.cables().contains(c)).findFirst().orElseThrow();
            double[] e = MapRasterizer.ends(link);
            double[] a = map.cableScreenPosition(c);
            double[] s0 = {e[0] * map.scale(), e[1] * map.scale()};
            double[] s1 = {e[2] * map.scale(), e[3] * map.scale()};
            double ox = a[0] - (s0[0] + s1[0]) / 2;
            double oy = a[1] - (s0[1] + s1[1]) / 2;
            for (double t = 0.2; t <= 0.8; t += 0.02) {
                double x = ox + s0[0] + t * (s1[0] - s0[0]);
                double y = oy + s0[1] + t * (s1[1] - s0[1]);
                if (x < 10 || y < 10 || x > map.getWidth() - 10 || y > map.getHeight() - 10) {
                    continue;
                }
                boolean own = true;
                for (int dx = -1; dx <= 1; dx++) {
                    for (int dy = -1; dy <= 1; dy++) {
                        CablePicker.Hit h = map.pickCable(x + dx, y + dy);
                        own &= h != null && h.cable() == c && map.pick(x + dx, y + dy) == null;
                    }
                }
                if (own) {
                    return map.localToScreen(x, y);
                }
            }
            return null;
        }).get(10, TimeUnit.SECONDS);
    }

    @Test
    void hoveringACableShowsBothEndsAndClickingItShowsTheCableView(FxRobot robot) throws Exception {
        load(robot, RAIL, TRAINING);
        Port leafPort = view.snapshot().model().node(LEAF_SU1_R3).port(23); // 1873 symbol errors
        Cable uplink = leafPort.cable();
        robot.interact(() -> {
            view.map().revealCable(uplink); // centred at a zoom where lines are apart
            view.map().clearSelection();
        });
        WaitForAsyncUtils.waitForFxEvents();
        Point2D at = pointOn(uplink);
        assertNotNull(at, "a point of the line is the cable's own");
        robot.moveTo(at);
        WaitForAsyncUtils.waitForFxEvents();
        String tip = view.map().tooltipText();
        assertTrue(tip.startsWith("Cable 4xHDR"), tip);
        assertTrue(tip.contains(leafPort.node().displayName() + " port 23 · leaf switch"), tip);
        assertTrue(tip.contains(leafPort.peer().node().displayName() + " port " + leafPort.peer().number() + " · spine switch"), tip);
        assertTrue(tip.contains("4xHDR"), tip);
        assertTrue(tip.contains("SymbolErrorCounter=1873 (error: over 10)"), tip);
        assertTrue(tip.contains("ERROR link-errors"), tip);
        assertTrue(tip.matches("(?s).*\\d+ rank pairs? may send InfiniBand traffic over it.*"), tip);
        assertEquals(uplink, view.map().hoveredCable());
        robot.moveTo("#status"); // off the map: the cable is no longer drawn as hovered
        WaitForAsyncUtils.waitForFxEvents();
        assertNull(view.map().hoveredCable(), "the hover goes when the pointer leaves the map");

        robot.clickOn(at);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(uplink, view.map().selectedCable());
        assertNull(view.map().selection(), "a cable, not a glyph");
        assertEquals("Inspector", ((TabPane) view.lookup("#side")).getSelectionModel().getSelectedItem().getText());
        assertTrue(view.inspector().titleText().startsWith("Cable 4xHDR: "), view.inspector().titleText());
        assertEquals(List.of(uplink.a(), uplink.b()), view.inspector().shownPorts());
        String d = view.inspector().detailsText();
        assertTrue(d.contains("Findings on this cable") && d.contains("rank-path-errors"), d);
        assertTrue(d.contains("Ranks whose InfiniBand traffic may cross it"), d);
        Shots.save(view, "cable-selected.png");

        // empty space: nothing selected
        Point2D empty = WaitForAsyncUtils.asyncFx(() -> view.map().localToScreen(5, view.map().getHeight() - 5)).get(5, TimeUnit.SECONDS);
        robot.clickOn(empty);
        WaitForAsyncUtils.waitForFxEvents();
        assertNull(view.map().selectedCable());
    }
}
