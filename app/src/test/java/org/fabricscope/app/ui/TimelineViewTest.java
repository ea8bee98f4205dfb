package org.fabricscope.app.ui;

import static org.fabricscope.app.nav.Samples.RAIL;
import static org.fabricscope.app.nav.Samples.TRAINING;
import static org.fabricscope.app.nav.Samples.paths;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.incident.reasoning.IncidentEvent;
import org.fabricscope.model.incident.SignatureCatalogue;
import org.fabricscope.model.layout.MapLayout;
import org.fabricscope.model.ranks.RankSite;
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
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The Timeline tab on Monocle, as a user works it: Ctrl+Shift+I brings it up; the header names the
 * root cause, the chart draws a lane per node with its ranks and rings the root cause; hovering a mark
 * shows its line, clicking it marks its rank on the map and opens its line in the Logs tab; the arrows
 * move between events and Enter opens one. With the bundled signature catalogue, the sample's own
 * reasoning is checked the same way.
 */
@ExtendWith(ApplicationExtension.class)
class TimelineViewTest {
    private MainView view;

    @Start
    void start(Stage stage) {
        view = new MainView();
        Scene scene = new Scene(view, 1280, 800);
        scene.getStylesheets().add(FabricScopeApp.class.getResource("app.css").toExternalForm());
        stage.setScene(scene);
        stage.show();
    }

    private TimelineViewModel vm() {
        return view.viewModel().timeline();
    }

    private void load(FxRobot robot, Path... folders) throws Exception {
        List<Path> in = paths(folders);
        robot.interact(() -> view.open(in, false));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> view.snapshot() != null);
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> !vm().busyProperty().get());
        WaitForAsyncUtils.waitForFxEvents();
    }

    private String selectedTab() {
        return ((TabPane) view.lookup("#side")).getSelectionModel().getSelectedItem().getText();
    }

    private void showTimelineTab(FxRobot robot) {
        robot.clickOn(view.map());
        robot.press(KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.I).release(KeyCode.I, KeyCode.SHIFT, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(selectedTab().startsWith("Timeline"), "Ctrl+Shift+I brings up the timeline: " + selectedTab());
    }

    /** Where an event's mark is on the screen. */
    private Point2D onScreen(IncidentEvent e) {
        TimelineChart chart = view.timeline().chart();
        Point2D local = chart.markPosition(e);
        assertNotNull(local, "the mark of " + e.line() + " is in view");
        return chart.localToScreen(local);
    }

    /** The map's marked vertices. */
    private List<Vertex> marked() {
        return view.highlights().markedItems().stream().map(MapLayout.Item::vertex).toList();
    }

    /** Waits until the Logs tab is in front with this line of this file selected. */
    private void assertLineOpened(Evidence ev) throws Exception {
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> selectedTab().equals("Logs") && view.logConsole().selectedLine() != null
                && view.logConsole().selectedLine().number() == ev.line());
        assertEquals(ev.source(), view.viewModel().logs().sourceProperty().get(), "the Logs tab shows the line's file");
        assertTrue(view.logConsole().selectedLine().fromFile());
    }

    @Test
    void lanesRootCauseHoverClickAndKeys(FxRobot robot) throws Exception {
        load(robot, RAIL, TRAINING);
        // the sample's story as the reasoning concludes it with a catalogue that knows its lines (TimelineSamples)
        robot.interact(() -> vm().show(view.snapshot().analysis(), TimelineSamples::incident));
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> !vm().busyProperty().get() && vm().events().size() == 4);
        showTimelineTab(robot);
        assertEquals("Timeline (4)", selectedTab());
        Label header = robot.lookup("#" + Styles.Id.TIMELINE_HEADER).queryAs(Label.class);
        assertTrue(header.getText().startsWith("Root cause: rank 12 (gpt-train-worker-0 on dgx-su2-h07, GPU 4): IB completion error"),
                header.getText());
        assertTrue(header.getStyleClass().contains(Styles.TIMELINE_HEADER_FAILURE));

        TimelineLayout drawn = view.timeline().chart().drawnLayout();
        assertEquals(List.of("dgx-su2-h07 (rank 12)", "dgx-su1-h05 (rank 0)"),
                drawn.data().lanes().stream().map(TimelineData.Lane::label).toList());
        assertEquals(2, drawn.bands().size());
        IncidentEvent root = vm().data().incident().rootCause();
        TimelineLayout.Mark rootMark = drawn.markOf(root);
        assertTrue(rootMark.inView(), "the root cause is drawn");
        assertEquals(0, rootMark.lane());
        assertTrue(drawn.hasNoTimeColumn(), "the pod phase has no time");
        assertTrue(drawn.markOf(vm().events().get(3)).x() >= drawn.noTimeLeft(), "it is in the no-time column");
        assertTrue(drawn.markOf(vm().events().get(2)).x() > rootMark.x(), "the timeout ten minutes after the root cause");

        // hover: the tooltip tells the line
        IncidentEvent timeout = vm().events().get(2);
        robot.moveTo(onScreen(timeout));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> Window.getWindows().stream()
                .anyMatch(w -> w instanceof Tooltip t && t.isShowing() && t.getText().contains(timeout.evidence().text())));

        // click the root cause: its rank's HCA is marked on the map, its line opens in the Logs tab
        robot.clickOn(onScreen(root));
        assertSame(root, vm().selectedProperty().get());
        RankSite rank12 = view.snapshot().ranks().sites().stream().filter(s -> s.rank().rank() == 12).findFirst().orElseThrow();
        assertTrue(marked().contains(rank12.hca()), "rank 12's HCA is marked: " + marked());
        assertLineOpened(root.evidence());
        assertSame(root, view.timeline().table().getSelectionModel().getSelectedItem(), "the table follows");

        // keys: right (the next event in time), down (the next lane), Enter (open)
        showTimelineTab(robot);
        robot.interact(view.timeline().chart()::requestFocus);
        robot.type(KeyCode.RIGHT);
        assertSame(vm().events().get(1), vm().selectedProperty().get());
        assertEquals("Timeline (4)", selectedTab(), "moving leaves the timeline in front");
        robot.type(KeyCode.DOWN);
        assertSame(timeout, vm().selectedProperty().get());
        assertSame(timeout, view.timeline().table().getSelectionModel().getSelectedItem());
        robot.type(KeyCode.ENTER);
        assertLineOpened(timeout.evidence());
    }

    @Test
    void theSamplesOwnIncident(FxRobot robot) throws Exception {
        load(robot, RAIL, TRAINING);
        showTimelineTab(robot);
        Label header = robot.lookup("#" + Styles.Id.TIMELINE_HEADER).queryAs(Label.class);
        if (SignatureCatalogue.active().signatures().isEmpty()) {
            assertTrue(header.getText().startsWith("No failure found"), header.getText());
            assertTrue(robot.lookup(".timeline-notes").queryAs(Label.class).getText().contains("no failure signatures are loaded"));
            return;
        }
        IncidentEvent root = vm().data().incident().rootCause();
        assertNotNull(root, header.getText());
        assertTrue(header.getText().startsWith("Root cause: " + root.who().label() + ": "), header.getText());
        // the sample's story (its README): the failure starts at 23:14:05, ten minutes before the ranks' collective timeouts
        assertTrue(root.stamp().known() && root.stamp().millis() < java.time.Instant.parse("2026-11-21T23:24:06Z").toEpochMilli(),
                root.line());
        TimelineLayout drawn = view.timeline().chart().drawnLayout();
        List<String> lanes = drawn.data().lanes().stream().map(TimelineData.Lane::label).toList();
        assertTrue(lanes.contains("dgx-su1-h05 (ranks 0-7)"), lanes.toString());
        assertTrue(lanes.contains("dgx-su2-h07 (ranks 8-15)"), lanes.toString());
        assertTrue(drawn.markOf(root).inView(), "the root cause is drawn");
        assertFalse(vm().data().incident().causeOf().isEmpty(), "consequences follow it");
        // its first consequence on a rank: clicking it opens its line
        IncidentEvent consequence = vm().events().stream().filter(e -> e.who().rank() >= 0
                && vm().data().incident().causeOf().containsKey(e.seq()) && drawn.markOf(e).inView()
                && drawn.pick(drawn.markOf(e).x(), drawn.markOf(e).y()).event() == e).findFirst().orElseThrow();
        robot.clickOn(onScreen(consequence));
        assertSame(consequence, vm().selectedProperty().get());
        assertLineOpened(consequence.evidence());
    }
}
