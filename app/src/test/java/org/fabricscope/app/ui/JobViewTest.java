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

import org.fabricscope.model.core.Finding;
import org.fabricscope.model.layout.JobLayout;
import org.fabricscope.model.training.Transport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.Tooltip;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The Job tab on Monocle with a log-only capture (two pods' NCCL logs and flight-recorder dumps of a
 * collective timeout, no fabric): the window opens on the job, not an empty map; it draws both nodes and
 * ranks with their GPUs, the pair by its socket transport; hovering a rank shows its details; selecting the
 * root-cause finding marks its rank and host there.
 */
@ExtendWith(ApplicationExtension.class)
class JobViewTest {
    private static final Path DIR = Path.of("..", "sample-fabrics", "gpu-captures", "incidents-h100x2-nccl-2.28.9",
            "collective-timeout");
    private MainView view;

    @Start
    void start(Stage stage) {
        view = new MainView();
        Scene scene = new Scene(view, 1280, 800);
        scene.getStylesheets().add(FabricScopeApp.class.getResource("app.css").toExternalForm());
        stage.setScene(scene);
        stage.show();
    }

    @Test
    void logOnlyCaptureOpensOnTheJobAndMarksTheRootCause(FxRobot robot) throws Exception {
        assumeTrue(Files.isDirectory(DIR), "run from the app module of the repository");
        List<Path> in = List.of(DIR.resolve("trainer-worker-0.log"), DIR.resolve("trainer-worker-1.log"), DIR.resolve("fr"));
        robot.interact(() -> view.open(in, false));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> view.snapshot() != null);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> !view.job().drawnLayout().isEmpty());
        WaitForAsyncUtils.waitForFxEvents();

        assertTrue(view.jobInFront(), "no fabric: the job is in front, not the empty map");
        JobLayout l = view.job().drawnLayout();
        assertEquals(List.of("trainer-worker-0", "trainer-worker-1"),
                l.boxes(JobLayout.Kind.NODE).stream().map(JobLayout.Box::label).toList());
        assertEquals(List.of("rank 0", "rank 1"), l.boxes(JobLayout.Kind.RANK).stream().map(JobLayout.Box::label).toList());
        assertTrue(l.box("rank:1").line().startsWith("GPU "), l.box("rank:1").line());
        assertEquals(List.of(new JobLayout.Edge(0, 1, Transport.NET_SOCKET, l.edges().get(0).channels())), l.edges());
        assertNotNull(view.job().drawn("rank:0"));
        assertTrue(view.job().drawn("rank:0").isVisible() && view.job().drawn("rank:0").getScene() != null);
        Label header = robot.lookup("#jobHeader").queryAs(Label.class);
        assertTrue(header.getText().startsWith("2 nodes · 2 ranks · 1 rank pair: 1 socket"), header.getText());

        robot.moveTo(view.job().centreOnScreen("rank:1"));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> Window.getWindows().stream().anyMatch(w -> w instanceof Tooltip t
                && t.isShowing() && t.getText().startsWith("rank 1 of 2")));

        ListView<Finding> list = view.findings().list();
        Finding root = list.getItems().stream().filter(f -> f.id().equals("incident-root-cause")).findFirst().orElseThrow();
        robot.interact(() -> list.getSelectionModel().select(root));
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(view.job().markedKeys().contains("rank:1"), view.job().markedKeys().toString());
        assertTrue(view.job().markedKeys().contains("node:trainer-worker-1"), view.job().markedKeys().toString());
        assertFalse(view.job().markedKeys().contains("rank:0"), view.job().markedKeys().toString());
        assertEquals(view.job().markedKeys().size(), view.job().markCount());
        assertTrue(view.jobInFront(), "selecting a finding keeps the job in front");

        robot.interact(() -> list.getSelectionModel().clearSelection());
        WaitForAsyncUtils.waitForFxEvents();

        // a click on a rank's box selects its row in the Training tab; View › Fabric map (Ctrl+Shift+M) and Job (Ctrl+Shift+J)
        robot.clickOn(view.job().centreOnScreen("rank:1"));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(SideTabs.Tab.TRAINING, view.viewModel().tabs().selectedProperty().get());
        assertEquals(List.of(1), view.training().selectedRanks().stream().map(s -> s.rank().rank()).toList());
        robot.press(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.SHIFT, javafx.scene.input.KeyCode.M)
                .release(javafx.scene.input.KeyCode.M, javafx.scene.input.KeyCode.SHIFT, javafx.scene.input.KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertFalse(view.jobInFront(), "Ctrl+Shift+M: the fabric map in front");
        robot.press(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.SHIFT, javafx.scene.input.KeyCode.J)
                .release(javafx.scene.input.KeyCode.J, javafx.scene.input.KeyCode.SHIFT, javafx.scene.input.KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(view.jobInFront(), "Ctrl+Shift+J: the job in front");
    }
}
