package org.fabricscope.app.ui;

import static org.fabricscope.app.nav.Samples.K8S;
import static org.fabricscope.app.nav.Samples.TRAINING;
import static org.fabricscope.app.nav.Samples.paths;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.flows.FlowResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The Troubleshoot panel on Monocle, as a user walks it: Ctrl+Shift+T, pick a flow, paste output that
 * is not the manual step's command's (refused, in the danger colour), then the number it prints (shown
 * as read) and answer no; the flow concludes and nothing was imported as another command's output. And a finding's
 * link to the flow that explains it, and its evidence line opening the file.
 */
@ExtendWith(ApplicationExtension.class)
class TroubleshootPanelTest {
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

    private String selectedTab() {
        return ((TabPane) view.lookup("#side")).getSelectionModel().getSelectedItem().getText();
    }

    private TroubleshootViewModel vm() {
        return view.viewModel().troubleshoot();
    }

    @Test
    void aManualStepAnsweredWithPastedOutputConcludes(FxRobot robot) throws Exception {
        load(robot, K8S);
        int before = view.snapshot().paths().size();
        robot.clickOn(view.map());
        robot.press(KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.T).release(KeyCode.T, KeyCode.SHIFT, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals("Troubleshoot", selectedTab());
        assertNotNull(vm().flowIdProperty().get(), "Ctrl+Shift+T opens What's wrong?");

        ListView<FlowResult> flows = robot.lookup("#flows").queryListView();
        FlowResult roce = flows.getItems().stream().filter(r -> r.flow().id().equals("roce-gid-index")).findFirst().orElseThrow();
        robot.interact(() -> flows.scrollTo(roce));
        WaitForAsyncUtils.waitForFxEvents();
        robot.clickOn(robot.from(flows).lookup(".list-cell").match(c -> ((ListCell<?>) c).getItem() == roce).<Node>query());
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals("roce-gid-index", vm().flowIdProperty().get());

        Node waiting = robot.lookup("#waiting").query();
        assertTrue(waiting.isVisible(), "the manual step waits for the user");
        TextField command = robot.lookup("#command").queryAs(TextField.class);
        assertTrue(command.getText().contains("RoCE v2"), command.getText());
        assertTrue(robot.lookup("#expect").queryAs(Label.class).getText().startsWith("Yes when: "));
        robot.clickOn("#copyCommand");

        // a GID table is not what this step's command prints (one number): refused, in the danger colour
        robot.clickOn("#pasted").write("/sys/class/infiniband/mlx5_0/ports/1/gids/3:0000:0000:0000:0000:0000:ffff:0a00:0105");
        Label reading = robot.lookup("#pasteReading").queryAs(Label.class);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> reading.getText().startsWith("Not read: "));
        assertTrue(reading.isVisible());
        assertTrue(reading.getPseudoClassStates().contains(Styles.INVALID), "a refused paste shows in the danger colour");
        robot.clickOn("#answerNo");
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(FlowResult.Status.NEEDS_INPUT, vm().currentProperty().get().status(), "the answer with that paste is refused");
        assertTrue(waiting.isVisible());
        Shots.save(view, "troubleshoot-paste-refused.png");

        // the number it prints fits: shown as read before the answer, kept as its evidence, never imported
        robot.interact(() -> vm().pastedProperty().set(""));
        robot.clickOn("#pasted").write("3");
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> reading.getText().startsWith("Read from the paste: 3"));
        assertFalse(reading.getPseudoClassStates().contains(Styles.INVALID));
        assertEquals("3", vm().pastedProperty().get());
        Shots.save(view, "troubleshoot-paste-read.png");
        robot.clickOn("#answerNo");
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> vm().currentProperty().get().status() == FlowResult.Status.CONCLUDED
                && !view.viewModel().loader().busyProperty().get());
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(before, view.snapshot().paths().size(), "a GID index is no input to import");
        assertTrue(view.snapshot().findings().stream().noneMatch(f -> f.id().equals("memlock-limit")));

        FlowResult r = vm().currentProperty().get();
        assertEquals("roce-gid-index", r.flow().id(), "the flow stays open after the re-import");
        assertEquals(FlowResult.Status.CONCLUDED, r.status(), r.reason());
        assertEquals("set-gid-index", r.conclusion().id());
        assertTrue(robot.lookup("#outcome").queryAs(Label.class).getText().startsWith("Conclusion: set-gid-index"));
        assertFalse(waiting.isVisible());
        VBox steps = robot.lookup("#steps").queryAs(VBox.class);
        assertEquals(r.steps().size(), steps.getChildren().size());
        assertTrue(robot.from(steps).lookup((Node n) -> n instanceof Label l && l.getText().contains("(your answer)"))
                .tryQuery().isPresent());
        assertFalse(robot.lookup("#remedies").queryListView().getItems().isEmpty());

        byte[][] png = new byte[1][];
        robot.interact(() -> png[0] = MapPicture.png(view.map()));
        assertNotNull(png[0], "the map as a PNG for the report");
        assertEquals((byte) 0x89, png[0][0]);
        assertEquals('P', png[0][1]);
    }

    @Test
    void aFindingOpensTheFlowThatExplainsItAndItsEvidence(FxRobot robot) throws Exception {
        load(robot, TRAINING);
        ListView<Finding> list = view.findings().list();
        Finding f = list.getItems().stream().filter(x -> x.id().equals("nccl-timeout")).findFirst().orElseThrow();
        robot.clickOn("Findings (" + list.getItems().size() + ")");
        robot.interact(() -> {
            list.scrollTo(f);
            list.getSelectionModel().select(f);
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertFalse(view.findings().remedyRows().isEmpty());

        Hyperlink link = robot.lookup("#explainingFlow").queryAs(Hyperlink.class);
        assertTrue(link.isVisible(), "nccl-timeout is explained by a flow");
        robot.interact(link::fire);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals("Troubleshoot", selectedTab());
        assertEquals("nccl-timeout", vm().flowIdProperty().get());
        assertEquals(FlowResult.Status.CONCLUDED, vm().currentProperty().get().status());

        robot.interact(() -> view.viewModel().tabs().selectedProperty().set(SideTabs.Tab.FINDINGS)); // its header may be scrolled away
        WaitForAsyncUtils.waitForFxEvents();
        ListView<Evidence> evidence = robot.lookup("#findingEvidence").queryListView();
        Evidence first = evidence.getItems().get(0);
        robot.interact(() -> evidence.scrollTo(0));
        WaitForAsyncUtils.waitForFxEvents();
        robot.clickOn(robot.from(evidence).lookup(".list-cell").match(c -> ((ListCell<?>) c).getItem() == first).<Node>query());
        // a log's evidence opens in the Logs tab, at its line, selected
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> view.logConsole().selectedLine() != null);
        assertEquals("Logs", selectedTab());
        LogConsole.Line at = view.logConsole().selectedLine();
        assertEquals(first.line(), at.number());
        assertTrue(at.text().contains(first.text().strip()), at.text() + " vs " + first.text());
        Shots.save(view, "logs-file.png");
        // any other file opens in the viewer window (the same window, Esc closes it)
        robot.interact(() -> TextViewer.open(view.getScene().getWindow(), view.viewModel().executor(), first.source(), first.line()));
        try {
            WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> viewer(first) != null
                    && !((ListView<?>) viewer(first).getScene().getRoot()).getItems().isEmpty());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("no viewer of " + first.source() + ":" + first.line() + " among "
                    + Window.getWindows().stream().map(w -> w instanceof Stage s ? s.getTitle() : w.toString()).toList(), e);
        }
        WaitForAsyncUtils.waitForFxEvents();
        Stage viewer = viewer(first);
        ListView<?> lines = (ListView<?>) viewer.getScene().getRoot();
        assertEquals(first.line() - 1, lines.getSelectionModel().getSelectedIndex());
        assertTrue(((String) lines.getSelectionModel().getSelectedItem()).contains(first.text().strip()),
                lines.getSelectionModel().getSelectedItem() + " vs " + first.text());
        robot.interact(() -> {
            viewer.requestFocus();
            lines.requestFocus();
        });
        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        WaitForAsyncUtils.waitForFxEvents();
        assertFalse(viewer.isShowing(), "Esc closes the viewer");
    }

    private static Stage viewer(Evidence e) {
        return Window.getWindows().stream().filter(w -> w instanceof Stage s && (e.source() + ":" + e.line()).equals(s.getTitle()))
                .map(w -> (Stage) w).findFirst().orElse(null);
    }
}
