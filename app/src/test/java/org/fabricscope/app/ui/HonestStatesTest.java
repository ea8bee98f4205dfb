package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.fabricscope.app.nav.Samples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.stage.Stage;

/**
 * No answer passes for healthy, on Monocle: a fabric whose error counters were not read says so on the
 * map, in the status bar and above the findings (not "0 ports with errors"); Problems only with
 * nothing to show says why; once clean counters are read, the notices go and Problems only says the
 * fabric has no problem.
 */
@ExtendWith(ApplicationExtension.class)
class HonestStatesTest {
    private static final String NO_COUNTERS = "no error counters were read: load perfquery/ibqueryerrors output";
    private MainView view;
    @TempDir
    Path dir;

    @Start
    void start(Stage stage) {
        view = new MainView();
        Scene scene = new Scene(view, 1280, 800);
        scene.getStylesheets().add(FabricScopeApp.class.getResource("app.css").toExternalForm());
        stage.setScene(scene);
        stage.show();
    }

    private void load(FxRobot robot, List<Path> paths) throws Exception {
        Object before = view.snapshot();
        robot.interact(() -> view.open(paths, false));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> view.snapshot() != null && view.snapshot() != before
                && !view.viewModel().loader().busyProperty().get());
        WaitForAsyncUtils.waitForFxEvents();
    }

    private String status(FxRobot robot) {
        return robot.lookup("#status").queryAs(Label.class).getText();
    }

    private Label notice(FxRobot robot) {
        return robot.lookup("#mapNotice").queryAs(Label.class);
    }

    @Test
    void withoutCountersTheMapTheStatusBarAndTheFindingsSaySo(FxRobot robot) throws Exception {
        Path topology = Samples.RAIL.resolve("ibnetdiscover.txt");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(topology), "run from the app module");
        load(robot, List.of(topology));
        assertTrue(status(robot).endsWith(" · " + NO_COUNTERS), status(robot));
        assertFalse(status(robot).contains("ports with errors"), "no '0 ports with errors' when none was judged: " + status(robot));
        assertTrue(status(robot).contains("1 finding (1 error)"), "in the right number: " + status(robot));
        Label notice = notice(robot);
        assertTrue(notice.isVisible());
        assertTrue(notice.getText().startsWith("No error counters were read: load perfquery/ibqueryerrors output."),
                notice.getText());
        robot.clickOn("Findings (1)");
        Label note = robot.lookup("#findingsNote").queryAs(Label.class);
        assertTrue(note.isVisible());
        assertTrue(note.getText().startsWith("No error counters were read"), note.getText());
        Shots.save(view, "no-counters.png");
    }

    @Test
    void problemsOnlyWithNothingToShowSaysWhy(FxRobot robot) throws Exception {
        // a fabric with no problem: the two-tier fixture with its one 1x link trained to 4x
        Path healthy = dir.resolve("healthy.ibnetdiscover.txt");
        try (InputStream in = getClass().getResourceAsStream("/fabrics/two-tier.ibnetdiscover.txt")) {
            Files.writeString(healthy, new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("1xHDR", "4xHDR"));
        }
        load(robot, List.of(healthy));
        assertTrue(view.snapshot().findings().isEmpty(), view.snapshot().findings().toString());
        robot.interact(() -> view.map().problemsOnlyProperty().set(true));
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(notice(robot).getText().startsWith("Problems only: nothing to show. No error counters were read, so no cable "
                + "was judged for errors"), notice(robot).getText());
        Shots.save(view, "problems-only-nothing.png");

        // clean counters of every port of leaf-01: judged now, and still nothing to show
        Path counters = dir.resolve("leaf-01.perfquery.txt");
        StringBuilder b = new StringBuilder();
        for (int port = 1; port <= 8; port++) {
            b.append("# Port counters: Lid 3 port ").append(port).append(" (CapMask: 0x5300)\n")
                    .append("PortSelect:......................").append(port).append('\n')
                    .append("SymbolErrorCounter:..............0\nLinkErrorRecoveryCounter:........0\n")
                    .append("LinkDownedCounter:...............0\nPortRcvErrors:...................0\n");
        }
        Files.writeString(counters, b.toString());
        load(robot, List.of(healthy, counters));
        assertTrue(status(robot).contains("0 ports with errors"), status(robot));
        assertFalse(status(robot).contains(NO_COUNTERS));
        assertEquals("Problems only: nothing to show. No cable has errors over thresholds or a degraded rate, and no port "
                + "lost its link. Ctrl+P shows the whole fabric.", notice(robot).getText());
        robot.interact(() -> view.map().problemsOnlyProperty().set(false));
        WaitForAsyncUtils.waitForFxEvents();
        assertFalse(notice(robot).isVisible(), "counters read, the whole fabric shown: nothing to say");
    }
}
