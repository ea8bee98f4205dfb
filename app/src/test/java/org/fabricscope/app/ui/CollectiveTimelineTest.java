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

        robot.interact(() -> t.table().scrollTo(twelve));
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

    @Test
    void theTableIsSortedByLagMostBehindFirstAndSortsByAnotherColumnOnClick(FxRobot robot) throws Exception {
        Analysis a = Samples.analysis(RAIL, TRAINING);
        robot.interact(() -> view.show(a.model(), a.ranks()));
        CollectiveTimeline t = view.timeline();
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> t.shownGroup() != null);
        WaitForAsyncUtils.waitForFxEvents();
        javafx.scene.control.TableView<CollectiveTimeline.Row> table = t.table();
        assertEquals("Lag", table.getSortOrder().get(0).getText());
        assertEquals(javafx.scene.control.TableColumn.SortType.DESCENDING, table.getSortOrder().get(0).getSortType());
        List<Integer> order = table.getItems().stream().map(CollectiveTimeline.Row::rank).toList();
        assertEquals(12, order.get(0), "the rank most behind first: " + order);
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15), order.subList(1, order.size()), "ties in rank order");

        robot.clickOn(robot.lookup("#timeline .column-header").match(n -> n instanceof javafx.scene.control.skin.TableColumnHeader h
                && h.getTableColumn() != null && "Enqueued".equals(h.getTableColumn().getText())).<javafx.scene.Node>query());
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals("Enqueued", table.getSortOrder().get(0).getText());
        assertEquals(javafx.scene.control.TableColumn.SortType.ASCENDING, table.getSortOrder().get(0).getSortType());
        assertEquals(12, table.getItems().get(0).rank(), "ascending by enqueued: rank 12 (4811) before the others (4812)");
        assertEquals(4812, table.getItems().get(15).enqueued());
    }

    @Test
    void numbersSortByValueAndMissingOnesLowest() {
        assertTrue(CollectiveTimeline.compareNumbers("10", "9") > 0, "10 after 9, not before as text");
        assertTrue(CollectiveTimeline.compareNumbers("", "0") < 0);
        assertEquals(0, CollectiveTimeline.compareNumbers("4812", "4812"));
    }
}
