package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.fabric.FabricNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import javafx.scene.Scene;
import javafx.scene.control.TreeItem;
import javafx.scene.input.KeyCode;
import javafx.scene.shape.Line;
import javafx.stage.Stage;

/**
 * File › Compare with capture… in the real window: the simulator's fat tree loaded as the new capture, Ctrl+D picks
 * the capture made before a cable was unplugged; the Compare tab lists the changes by layer and the map marks them:
 * the unplugged cable drawn dashed between its two switches although the loaded capture has no cable there, the
 * ports whose counters rose ringed; selecting the cable's row selects its ends on the map.
 */
@ExtendWith(ApplicationExtension.class)
class CompareViewTest {
    private static final Path NEW = Path.of("..", "sample-fabrics", "fat-tree-3tier-small");
    private static final Path OLD = Path.of("..", "sample-fabrics", "compare", "fat-tree-before");
    private MainView view;

    @Start
    void start(Stage stage) {
        view = new MainView();
        Scene scene = new Scene(view, 1200, 800);
        scene.getStylesheets().add(FabricScopeApp.class.getResource("app.css").toExternalForm());
        stage.setScene(scene);
        stage.show();
    }

    @Test
    void theUnpluggedCableAndTheRisenCountersAreMarked(FxRobot robot) throws Exception {
        assumeTrue(Files.isDirectory(NEW) && Files.isDirectory(OLD), "run from the app module of the repository");
        robot.interact(() -> view.open(List.of(NEW), false));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> view.snapshot() != null);
        WaitForAsyncUtils.waitForFxEvents();
        var loaded = view.snapshot();
        MainMenu menu = (MainMenu) view.lookup("#menuBar");
        robot.interact(() -> menu.setCaptureChooser(w -> List.of(OLD)));
        robot.clickOn(view.map()).press(KeyCode.CONTROL, KeyCode.D).release(KeyCode.D, KeyCode.CONTROL);
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> view.viewModel().compare().rowsProperty().get() != null);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(loaded, view.snapshot(), "comparing loads nothing in place of what is loaded");
        assertEquals(SideTabs.Tab.COMPARE, view.viewModel().tabs().selectedProperty().get());

        CompareRows rows = view.viewModel().compare().rowsProperty().get();
        List<String> titles = rows.groups().stream().map(g -> g.rows().isEmpty() ? g.title() + ": " + g.empty() : g.title()).toList();
        assertEquals(List.of("Fabric (1)", "Counters (11)", "Hosts: not in either capture", "Training: not in either capture",
                "Kubernetes: not in either capture", "Findings new (1)", "Findings resolved: no differences", "Findings unchanged (3)"),
                titles);
        assertTrue(view.viewModel().compare().headingProperty().get().startsWith("Old: "), view.viewModel().compare().headingProperty().get());

        // the map: the removed cable drawn dashed between core-01 and agg-p1-01, and rings where counters rose
        List<CompareRows.Mark> drawn = WaitForAsyncUtils.asyncFx(() -> view.compareMarks().drawn()).get(5, TimeUnit.SECONDS);
        CompareRows.Mark removed = drawn.stream().filter(m -> m.kind() == CompareRows.MarkKind.CABLE_REMOVED).findFirst().orElseThrow();
        List<String> ends = List.of(name(removed.guidA()), name(removed.guidB())).stream().sorted().toList();
        assertEquals(List.of("agg-p1-01", "core-01"), ends);
        assertEquals(3, drawn.stream().filter(m -> m.kind() == CompareRows.MarkKind.COUNTER_ROSE).count(),
                "leaf-p3-04 port 7 (symbol errors), core-01 port 1 and agg-p1-01 port 5 (link downed): " + drawn);
        assertTrue(drawn.stream().anyMatch(m -> m.kind() == CompareRows.MarkKind.COUNTER_ROSE && m.label().contains("+1424 SymbolErrorCounter")));
        assertEquals(0, view.compareMarks().unplaced());
        Line dashed = WaitForAsyncUtils.asyncFx(() -> view.compareMarks().getChildrenUnmodifiable().stream()
                .filter(n -> n instanceof Line && n.getStyleClass().contains("compare-removed")).map(n -> (Line) n)
                .findFirst().orElseThrow()).get(5, TimeUnit.SECONDS);
        assertFalse(dashed.getStrokeDashArray().isEmpty(), "a removed cable is drawn dashed");
        assertTrue(Math.hypot(dashed.getEndX() - dashed.getStartX(), dashed.getEndY() - dashed.getStartY()) > 5, "between its two ends");

        // selecting the cable's row selects its ends on the map
        robot.interact(() -> {
            TreeItem<Object> fabric = view.compareView().tree().getRoot().getChildren().get(0);
            view.compareView().tree().getSelectionModel().select(fabric.getChildren().get(0));
        });
        WaitForAsyncUtils.waitForFxEvents();
        Vertex selected = view.map().selection();
        assertNotNull(selected, "the row selected its subject on the map");
        assertTrue(List.of("core-01", "agg-p1-01").contains(((FabricNode) selected).displayName()), selected.toString());
        assertEquals(2, view.highlights().highlighted().size(), "both ends marked");
        assertEquals(SideTabs.Tab.COMPARE, view.viewModel().tabs().selectedProperty().get(), "the Compare tab stays in front");

        // Clear takes the marks off the map
        robot.interact(() -> view.viewModel().compare().clear());
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(view.compareMarks().drawn().isEmpty());
    }

    private String name(long guid) {
        return view.snapshot().model().node(guid).displayName();
    }
}
