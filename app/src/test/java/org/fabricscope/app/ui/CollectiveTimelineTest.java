package org.fabricscope.app.ui;

import static org.fabricscope.app.nav.Samples.RAIL;
import static org.fabricscope.app.nav.Samples.TRAINING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.fabricscope.app.nav.Samples;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.core.Vertex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import javafx.scene.Scene;
import javafx.scene.control.TableRow;
import javafx.stage.Stage;

/**
 * training-incident with its flight recorder dumps (training-incident/forensics): the Training tab's
 * collective timeline shows the default process group with rank 12 behind (enqueued 4811, the
 * others 4812), highlighted; clicking it selects its rank row and shows its HCA on the map.
 */
@ExtendWith(ApplicationExtension.class)
class CollectiveTimelineTest {
    private TrainingView view;
    private final AtomicReference<Vertex> revealed = new AtomicReference<>();

    @Start
    void start(Stage stage) {
        view = new TrainingView();
        view.setOnReveal(revealed::set);
        Scene scene = new Scene(view, 1000, 900);
        scene.getStylesheets().add(FabricScopeApp.class.getResource("app.css").toExternalForm());
        stage.setScene(scene);
        stage.show();
    }

    @Test
    void rankTwelveIsBehindAndClickShowsItOnTheMap(FxRobot robot) throws Exception {
        Analysis a = Samples.analysis(RAIL, TRAINING);
        robot.interact(() -> view.show(a.model(), a.ranks()));
        CollectiveTimeline t = view.timeline();
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> t.shownGroup() != null);
        WaitForAsyncUtils.waitForFxEvents();
        CollectiveTimeline.Group g = t.shownGroup();
        assertEquals("flight recorder", g.from());
        assertEquals(16, g.rows().size());
        List<Integer> behind = g.rows().stream().filter(r -> r.behind() > 0).map(CollectiveTimeline.Row::rank).toList();
        assertEquals(List.of(12), behind);
        CollectiveTimeline.Row twelve = g.rows().get(12);
        assertEquals(4811, twelve.enqueued());
        assertEquals(4810, twelve.completed());
        assertEquals(4812, g.rows().get(0).enqueued());

        robot.interact(() -> t.table().scrollTo(12));
        WaitForAsyncUtils.waitForFxEvents();
        TableRow<?> row = robot.lookup("#timeline .table-row-cell")
                .match(n -> n instanceof TableRow<?> r && r.getItem() == twelve).query();
        assertTrue(row.getStyleClass().contains(Styles.ROW_DANGER), row.getStyleClass().toString());
        assertTrue(robot.from(row).lookup("." + Styles.TIMELINE_BAR).query().getStyleClass().contains(Styles.BEHIND));
        for (javafx.scene.Node n : robot.lookup("#timeline .table-row-cell").queryAll()) {
            TableRow<?> r = (TableRow<?>) n;
            assertEquals(r.getItem() == twelve, r.getStyleClass().contains(Styles.ROW_DANGER), String.valueOf(r.getItem()));
        }

        robot.clickOn(row);
        WaitForAsyncUtils.waitForFxEvents();
        assertNotNull(revealed.get(), "rank 12's HCA or host shown on the map");
        assertEquals(12, view.selectedRanks().get(0).rank().rank());
    }
}
