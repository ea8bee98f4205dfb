package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.fabricscope.app.render.MapLabels;
import org.fabricscope.app.render.MapOverviewTest;
import org.fabricscope.app.render.MapPalette;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import javafx.geometry.Point2D;
import javafx.scene.Scene;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.ToggleButton;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javafx.stage.Stage;

/**
 * The map's overview in the real window, on a generated three-tier fabric with one faulty cable
 * (pod 3): at fit the pod is labelled in the error colour, Problems only hides the healthy cables,
 * and the minimap shows the viewport and moves it.
 */
@ExtendWith(ApplicationExtension.class)
class MapOverviewUiTest {
    private static final MapPalette P = UiPalette.current();

    @TempDir
    static Path dir;
    private MainView view;

    @Start
    void start(Stage stage) {
        view = new MainView();
        Scene scene = new Scene(view, 1000, 700);
        scene.getStylesheets().add(FabricScopeApp.class.getResource("app.css").toExternalForm());
        stage.setScene(scene);
        stage.show();
    }

    private void load(FxRobot robot) throws Exception {
        Path fabric = copy("superpod-4x4.ibnetdiscover.txt");
        Path errors = copy("superpod-4x4.ibqueryerrors.txt");
        robot.interact(() -> view.open(List.of(fabric, errors), false));
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> view.snapshot() != null);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> view.map().lastRenderMillis() >= 0 && frame() != null);
        WaitForAsyncUtils.waitForFxEvents();
    }

    private static Path copy(String name) throws Exception {
        return MapOverviewTest.copy(dir, name);
    }

    private WritableImage frame() {
        return view.map().frameImage();
    }

    /** Pixels of the map's last rendered frame in this colour. */
    private int count(int argb) throws Exception {
        return WaitForAsyncUtils.asyncFx(() -> {
            WritableImage img = frame();
            PixelReader px = img.getPixelReader();
            int n = 0;
            for (int y = 0; y < img.getHeight(); y++) {
                for (int x = 0; x < img.getWidth(); x++) {
                    if (px.getArgb(x, y) == argb) {
                        n++;
                    }
                }
            }
            return n;
        }).get(10, TimeUnit.SECONDS);
    }

    private void waitForNewFrame(Runnable action, FxRobot robot) throws Exception {
        WritableImage before = frame();
        robot.interact(action);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> frame() != before);
        WaitForAsyncUtils.waitForFxEvents();
    }

    @Test
    void atFitThePodHoldingTheFaultyCableIsLabelledInTheErrorColour(FxRobot robot) throws Exception {
        load(robot);
        List<MapLabels.Label> labels = view.map().groupLabels();
        List<String> red = labels.stream().filter(l -> l.argb() == P.danger()).map(MapLabels.Label::text).toList();
        assertEquals(List.of("pod 3 (LG009-LG012)"), red, "labels at fit: " + labels);
        assertTrue(labels.size() >= 4, "every pod labelled: " + labels);
        assertTrue(count(P.danger()) > 40, "the faulty cable, its bundle and pod drawn in the error colour");
    }

    @Test
    void problemsOnlyHidesTheHealthyCables(FxRobot robot) throws Exception {
        load(robot);
        int healthy = count(P.unknown());
        assertTrue(healthy > 300, "healthy bundles drawn (no counters read: grey): " + healthy);
        ToggleButton toggle = robot.lookup("#problemsOnly").queryAs(ToggleButton.class);
        waitForNewFrame(toggle::fire, robot);
        assertTrue(view.map().problemsOnlyProperty().get());
        CheckMenuItem menu = (CheckMenuItem) view.lookupAll(".menu-bar").stream().findFirst()
                .map(m -> ((javafx.scene.control.MenuBar) m).getMenus().get(1).getItems().stream()
                        .filter(i -> i instanceof CheckMenuItem).findFirst().orElseThrow()).orElseThrow();
        assertTrue(menu.isSelected(), "the View menu's Problems only (Ctrl+P) follows the toolbar");
        assertEquals(0, count(P.unknown()), "problems only: no healthy cable left");
        assertTrue(count(P.danger()) > 40, "the faulty cable stays");
        waitForNewFrame(() -> menu.setSelected(false), robot);
        assertTrue(count(P.unknown()) > 300, "and back");
    }

    @Test
    void theMinimapShowsTheViewportAndMovesIt(FxRobot robot) throws Exception {
        load(robot);
        double[] fit = WaitForAsyncUtils.asyncFx(() -> view.map().minimapViewport()).get(10, TimeUnit.SECONDS);
        assertNull(fit, "at fit the whole fabric is in view: no minimap over a corner of it");
        robot.interact(() -> view.map().zoom(2));
        double[] half = view.map().minimapViewport();
        assertNotNull(half, "zoomed in, the minimap is shown");
        robot.interact(() -> view.map().zoom(2));
        double[] zoomed = view.map().minimapViewport();
        assertEquals(half[2] / 2, zoomed[2], 0.5, "zoomed in twice as far: half as wide");
        // a click in the minimap's left part centres the view there
        Point2D at = WaitForAsyncUtils.asyncFx(() -> view.map().minimap().localToScreen(30, 55)).get(10, TimeUnit.SECONDS);
        robot.clickOn(at);
        WaitForAsyncUtils.waitForFxEvents();
        double[] moved = view.map().minimapViewport();
        assertEquals(30, moved[0] + moved[2] / 2, 1.0, "the viewport is centred where the minimap was clicked");
        assertEquals(55, moved[1] + moved[3] / 2, 1.0);
    }

    @Test
    void aMapAtFitFollowsTheWindowsSizeAndAZoomedOneKeepsItsView(FxRobot robot) throws Exception {
        load(robot);
        javafx.stage.Window w = view.getScene().getWindow();
        robot.interact(() -> w.setWidth(w.getWidth() + 300));
        WaitForAsyncUtils.waitForFxEvents();
        org.fabricscope.app.render.Viewport now = view.map().viewport();
        org.fabricscope.app.render.Viewport fit = org.fabricscope.app.render.Viewport.fit(view.map().mapLayout(),
                view.map().getWidth(), view.map().getHeight());
        assertEquals(fit.scale(), now.scale(), 1e-9, "still at fit after the window grew");
        assertEquals(fit.tx(), now.tx(), 1e-9);
        robot.interact(() -> view.map().zoom(2));
        double zoomed = view.map().scale();
        robot.interact(() -> w.setWidth(w.getWidth() - 300));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(zoomed, view.map().scale(), 1e-12, "zoomed in by the user: a new size keeps the zoom");
    }
}
