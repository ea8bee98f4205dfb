package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import javafx.geometry.Point2D;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.TabPane;
import javafx.scene.control.Tooltip;
import javafx.scene.input.Clipboard;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The Pairs tab on Monocle, as a user works it: Ctrl+Shift+P brings it up on the pairwise sample; the
 * header says what the matrix is, the heat map draws a cell per pair and names the slow node in the verdict;
 * hovering a pair shows its lines, clicking selects it, the arrows move, Enter opens its result line in the
 * Logs tab, Ctrl+C copies the matrix as TSV, and the other test's matrix can be chosen.
 */
@ExtendWith(ApplicationExtension.class)
class PairsTabTest {
    private MainView view;

    @Start
    void start(Stage stage) {
        view = new MainView();
        Scene scene = new Scene(view, 1280, 800);
        scene.getStylesheets().add(FabricScopeApp.class.getResource("app.css").toExternalForm());
        stage.setScene(scene);
        stage.show();
    }

    private PairMatrixViewModel vm() {
        return view.viewModel().pairs();
    }

    private String selectedTab() {
        return ((TabPane) view.lookup("#side")).getSelectionModel().getSelectedItem().getText();
    }

    private Point2D onScreen(int row, int col) {
        PairMatrixChart chart = view.pairs().chart();
        return chart.localToScreen(chart.centre(new PairMatrixViewModel.At(row, col)));
    }

    @Test
    void heatMapHoverClickKeysAndCopy(FxRobot robot) throws Exception {
        List<java.nio.file.Path> in = PairSamples.paths();
        robot.interact(() -> view.open(in, false));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> view.snapshot() != null);
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> !vm().busyProperty().get() && !vm().matrices().isEmpty());
        WaitForAsyncUtils.waitForFxEvents();

        robot.clickOn(view.map());
        robot.press(KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.P).release(KeyCode.P, KeyCode.SHIFT, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals("Pairs (16)", selectedTab(), "Ctrl+Shift+P brings up the pairs");
        Label header = robot.lookup("#" + Styles.Id.PAIR_HEADER).queryAs(Label.class);
        assertTrue(header.getText().startsWith("ib_write_bw (perftest-bw, Gb/s): 5 nodes, 10 pairs"), header.getText());
        Label verdict = robot.lookup(".pair-verdict").queryAs(Label.class);
        assertTrue(verdict.getText().startsWith("gpu-node-03 is slow in all 4 of its pairs"), verdict.getText());
        assertTrue(verdict.getStyleClass().contains(Styles.PAIR_SLOW));
        assertEquals(5, view.pairs().chart().drawnLayout().size());

        // hover gpu-node-01 - gpu-node-03: its lines in the tooltip
        robot.moveTo(onScreen(0, 2));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> Window.getWindows().stream().anyMatch(w -> w instanceof Tooltip t
                && t.isShowing() && t.getText().startsWith("gpu-node-01 - gpu-node-03: 196.3 Gb/s")
                && t.getText().contains("ib_write_bw_gpu-node-01_gpu-node-03.txt:")));

        // click selects, the arrows move, the tab stays in front
        robot.clickOn(onScreen(1, 2));
        assertEquals("gpu-node-02 - gpu-node-03", vm().selectedProperty().get().label());
        robot.type(KeyCode.DOWN);
        assertEquals(new PairMatrixViewModel.At(2, 2), vm().focusProperty().get());
        robot.type(KeyCode.LEFT);
        assertEquals("gpu-node-02 - gpu-node-03", vm().selectedProperty().get().label());
        assertEquals("Pairs (16)", selectedTab());

        // Ctrl+C: the matrix as TSV
        robot.press(KeyCode.CONTROL, KeyCode.C).release(KeyCode.C, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        String copied = WaitForAsyncUtils.asyncFx(() -> Clipboard.getSystemClipboard().getString()).get(5, TimeUnit.SECONDS);
        assertEquals(vm().tsv(), copied);
        assertTrue(copied.startsWith("ib_write_bw (Gb/s)\tgpu-node-01"), copied);

        // Enter opens the pair's result line in the Logs tab
        robot.type(KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> selectedTab().equals("Logs") && view.logConsole().selectedLine() != null);
        assertTrue(view.viewModel().logs().sourceProperty().get().endsWith("ib_write_bw_gpu-node-02_gpu-node-03.txt"),
                view.viewModel().logs().sourceProperty().get());
        assertTrue(view.logConsole().selectedLine().number() > 20);

        // the other test
        robot.interact(() -> vm().choose(vm().matrices().get(1)));
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(header.getText().startsWith("all_reduce_perf (nccl-tests-busbw, GB/s): 4 nodes, 6 pairs"), header.getText());
        assertEquals(4, view.pairs().chart().drawnLayout().size());
    }
}
