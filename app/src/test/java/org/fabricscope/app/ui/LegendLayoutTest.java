package org.fabricscope.app.ui;

import static org.fabricscope.app.nav.Samples.RAIL;
import static org.fabricscope.app.nav.Samples.paths;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.fabricscope.app.render.ColourMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.layout.Region;
import javafx.scene.text.Text;
import javafx.stage.Stage;

/**
 * The toolbar's legend in a 1024 px wide window, with a sample loaded, in every colour mode: every
 * entry is shown whole (inside the toolbar and the window, its text not cut to an ellipsis), none is
 * moved to the toolbar's overflow menu, and the transport mode says when no NCCL logs are loaded.
 */
@ExtendWith(ApplicationExtension.class)
class LegendLayoutTest {
    private static final double WIDTH = 1024;
    private MainView view;
    private Scene scene;

    @Start
    void start(Stage stage) {
        view = new MainView();
        scene = new Scene(view, WIDTH, 700);
        scene.getStylesheets().add(FabricScopeApp.class.getResource("app.css").toExternalForm());
        stage.setScene(scene);
        stage.sizeToScene(); // the stage is shared between tests; one of them widens it
        stage.show();
    }

    private void show(FxRobot robot, ColourMode mode) throws Exception {
        robot.interact(() -> view.viewModel().loader().colourModeProperty().set(mode));
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> view.snapshot().mode() == mode && !view.viewModel().loader().isRunning());
        WaitForAsyncUtils.waitForFxEvents();
        robot.interact(view::layout);
    }

    @Test
    void everyEntryIsWholeInA1024PxWindowInEveryMode(FxRobot robot) throws Exception {
        List<Path> rail = paths(RAIL);
        robot.interact(() -> view.open(rail, false));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> view.snapshot() != null && !view.viewModel().loader().isRunning());
        assertTrue(view.snapshot().ranks().isEmpty(), "the rail sample alone has no NCCL logs");
        for (ColourMode mode : ColourMode.values()) {
            show(robot, mode);
            List<String> problems = WaitForAsyncUtils.asyncFx(() -> problems(mode, WIDTH)).get(10, TimeUnit.SECONDS);
            assertEquals(List.of(), problems, mode + " in a " + WIDTH + " px window");
        }
        show(robot, ColourMode.TRANSPORT);
        Label hint = WaitForAsyncUtils.asyncFx(() -> legend().getChildren().stream().filter(n -> n instanceof Label l
                && l.getText().equals("(no NCCL logs loaded)")).map(Label.class::cast).findFirst().orElse(null)).get(5, TimeUnit.SECONDS);
        assertTrue(hint != null && hint.isVisible(), "the transport legend says why nothing is coloured");
        Shots.save(view, "legend-1024.png");
    }

    @Test
    void withNothingLoadedEveryEntryIsWholeToo(FxRobot robot) throws Exception {
        for (ColourMode mode : ColourMode.values()) {
            robot.interact(() -> view.viewModel().loader().colourModeProperty().set(mode));
            WaitForAsyncUtils.waitForFxEvents();
            robot.interact(view::layout);
            assertEquals(List.of(), WaitForAsyncUtils.asyncFx(() -> problems(mode, WIDTH)).get(5, TimeUnit.SECONDS), mode.toString());
        }
    }

    /** 1270 px: as wide as the headless test screen (1280 x 800) allows. */
    @Test
    void aWideWindowKeepsTheLegendInTheToolbar(FxRobot robot) throws Exception {
        robot.interact(() -> view.getScene().getWindow().setWidth(1270));
        List<Path> rail = paths(RAIL);
        robot.interact(() -> view.open(rail, false));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> view.snapshot() != null && !view.viewModel().loader().isRunning());
        for (ColourMode mode : List.of(ColourMode.ERRORS, ColourMode.SPEED)) {
            show(robot, mode);
            assertTrue(WaitForAsyncUtils.asyncFx(() -> view.toolBar().getItems().contains(legend())).get(5, TimeUnit.SECONDS),
                    mode + ": room for it in the toolbar, no row of its own");
            assertEquals(List.of(), WaitForAsyncUtils.asyncFx(() -> problems(mode, 1270)).get(10, TimeUnit.SECONDS), mode.toString());
        }
    }

    private Legend legend() {
        return (Legend) view.lookup(".legend");
    }

    /** What is wrong with the legend's layout now, one line per problem (FX thread). */
    private List<String> problems(ColourMode mode, double windowWidth) {
        List<String> out = new ArrayList<>();
        MainToolBar bar = view.toolBar();
        Legend legend = legend();
        for (Node n : bar.lookupAll(".tool-bar-overflow-button")) {
            if (n.isVisible()) {
                out.add("the toolbar shows its overflow button: some item did not fit");
            }
        }
        boolean inBar = bar.getItems().contains(legend);
        Region holder = inBar ? bar : (Region) legend.getParent();
        if (legend.getScene() == null || !legend.isVisible() || holder == null || !holder.isVisible()) {
            out.add("the legend is not shown");
            return out;
        }
        Bounds held = holder.localToScene(holder.getLayoutBounds());
        long lines = legend.getChildren().stream().mapToDouble(n -> Math.round(n.getBoundsInParent().getCenterY())).distinct().count();
        if (lines > (inBar ? 2 : 1)) {
            out.add("the legend takes " + lines + " lines " + (inBar ? "in the toolbar (two at most, or the toolbar eats the map)"
                    : "in its row (one in a 1024 px window)"));
        }
        if (!inBar) {
            Bounds tools = bar.localToScene(bar.getLayoutBounds());
            Bounds map = view.map().localToScene(view.map().getLayoutBounds());
            if (held.getMinY() < tools.getMaxY() - 0.5 || held.getMaxY() > map.getMinY() + 0.5) {
                out.add("the legend's row is not between the toolbar and the map: " + held);
            }
        }
        assertFalse(legend.getChildren().isEmpty(), mode + ": an empty legend");
        for (Node n : legend.getChildren()) {
            Label l = (Label) n;
            Bounds b = l.localToScene(l.getLayoutBounds());
            String name = "'" + l.getText() + "'";
            if (b.getMinX() < 0 || b.getMaxX() > windowWidth + 0.5) {
                out.add(name + " leaves the window: x " + b.getMinX() + " to " + b.getMaxX());
            }
            if (b.getMinY() < held.getMinY() - 0.5 || b.getMaxY() > held.getMaxY() + 0.5) {
                out.add(name + " leaves the " + (inBar ? "toolbar" : "legend's row") + ": y " + b.getMinY() + " to " + b.getMaxY()
                        + ", holder " + held.getMinY() + " to " + held.getMaxY());
            }
            Text shown = (Text) l.lookup(".text");
            if (shown == null || !shown.getText().equals(l.getText())) {
                out.add(name + " is cut to '" + (shown == null ? "" : shown.getText()) + "'");
            }
            if (l.getWidth() + 0.5 < l.prefWidth(-1)) {
                out.add(name + " is narrower than it needs: " + l.getWidth() + " < " + l.prefWidth(-1));
            }
        }
        return out;
    }
}
