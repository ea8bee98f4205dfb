package org.fabricscope.app.ui;

import static org.fabricscope.app.nav.Samples.TRAINING;
import static org.fabricscope.app.nav.Samples.paths;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import javafx.scene.Scene;
import javafx.scene.control.ComboBox;
import javafx.scene.control.ListCell;
import javafx.scene.control.TextField;
import javafx.stage.Stage;

/** The Logs tab lists a loaded log file's lines, numbered, and filters them. */
@ExtendWith(ApplicationExtension.class)
class LogsTabTest {
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
    void theLogsTabListsAFilesLines(FxRobot robot) throws Exception {
        List<Path> in = paths(TRAINING);
        robot.interact(() -> view.open(in, false));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> view.snapshot() != null);
        robot.interact(() -> view.viewModel().tabs().selectedProperty().set(SideTabs.Tab.LOGS));
        WaitForAsyncUtils.waitForFxEvents();
        @SuppressWarnings("unchecked")
        ComboBox<String> source = robot.lookup("#logSource").queryAs(ComboBox.class);
        String log = source.getItems().stream().filter(s -> s.endsWith("gpt-train-worker-0.log")).findFirst()
                .orElseThrow(() -> new AssertionError("the log is a source: " + source.getItems()));
        robot.clickOn(source);
        robot.clickOn(robot.lookup(".list-cell").match(c -> log.equals(((ListCell<?>) c).getItem())).<javafx.scene.Node>query());
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> !view.logConsole().listedLines().isEmpty());
        List<String> file = Files.readAllLines(Path.of(log));
        assertEquals(file.size(), view.logConsole().listedLines().size());
        assertEquals(file.get(0), view.logConsole().listedLines().get(0).text());
        assertTrue(robot.lookup("#logConsole .list-cell").match(c -> String.format("%6d │ %s", 1, file.get(0))
                .equals(((ListCell<?>) c).getText())).tryQuery().isPresent(), "the first line is drawn with its number");

        robot.clickOn(robot.lookup("#logText").queryAs(TextField.class)).write("NCCL WARN");
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> view.logConsole().listedLines().size()
                == file.stream().filter(l -> l.contains("NCCL WARN")).count());
        assertTrue(view.logConsole().listedLines().stream().allMatch(l -> l.text().contains("NCCL WARN")));
    }
}
