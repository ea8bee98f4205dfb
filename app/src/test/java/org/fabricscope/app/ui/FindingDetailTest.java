package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.fabricscope.app.nav.Navigation;
import org.fabricscope.app.nav.Samples;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Port;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.skin.TableColumnHeader;
import javafx.scene.input.Clipboard;
import javafx.scene.layout.HBox;
import javafx.stage.Stage;

/**
 * Selecting a finding keeps its detail in view, on Monocle at 1280x800: the Findings tab stays in front
 * with the heading, evidence, subjects and remedies (wrapped, each with its own Copy); going to its port
 * brings the inspector with that port's row selected and its counter columns in view.
 */
@ExtendWith(ApplicationExtension.class)
class FindingDetailTest {
    private MainView view;

    @Start
    void start(Stage stage) {
        view = new MainView();
        Scene scene = new Scene(view, 1280, 800);
        scene.getStylesheets().add(FabricScopeApp.class.getResource("app.css").toExternalForm());
        stage.setScene(scene);
        stage.show();
    }

    private static boolean inside(Node n, Node viewport) {
        Bounds b = n.localToScene(n.getBoundsInLocal());
        Bounds v = viewport.localToScene(viewport.getBoundsInLocal());
        return b.getMinX() >= v.getMinX() - 1 && b.getMaxX() <= v.getMaxX() + 1 && b.getMinY() >= v.getMinY() - 1
                && b.getMaxY() <= v.getMaxY() + 1;
    }

    private String selectedTab() {
        return ((TabPane) view.lookup("#side")).getSelectionModel().getSelectedItem().getText();
    }

    @Test
    void aFindingsDetailStaysInViewAndItsPortRowShowsItsCounters(FxRobot robot) throws Exception {
        robot.interact(() -> view.open(Samples.paths(Samples.RAIL), false));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> view.snapshot() != null);
        WaitForAsyncUtils.waitForFxEvents();
        ListView<Finding> list = view.findings().list();
        Finding f = list.getItems().stream().filter(x -> x.id().equals("link-errors") && x.title().endsWith("port 23"))
                .findFirst().orElseThrow();
        robot.clickOn("Findings (" + list.getItems().size() + ")");
        robot.clickOn(robot.from(list).lookup(".list-cell").match(c -> ((ListCell<?>) c).getItem() == f).<Node>query());
        WaitForAsyncUtils.waitForFxEvents();

        assertEquals("Findings (6)", selectedTab(), "the finding's detail stays in front");
        ScrollPane detail = robot.lookup("#detailsScroll").queryAs(ScrollPane.class);
        assertTrue(detail.isVisible());
        Label heading = robot.from(view.findings()).lookup("#heading").queryAs(Label.class);
        assertTrue(heading.getText().contains("link-errors"), heading.getText());
        assertTrue(inside(heading, detail), "the heading is in view");
        ListView<?> evidence = robot.lookup("#findingEvidence").queryListView();
        assertFalse(evidence.getItems().isEmpty());
        assertTrue(inside(evidence, view), "the evidence is in the window");
        List<HBox> remedies = view.findings().remedyRows();
        assertEquals(f.remedies().size(), remedies.size());
        for (HBox row : remedies) {
            Label text = (Label) row.getChildren().get(0);
            assertTrue(text.isWrapText());
            Bounds b = row.localToScene(row.getBoundsInLocal());
            assertTrue(b.getMaxX() <= detail.localToScene(detail.getBoundsInLocal()).getMaxX() + 1,
                    "a remedy wraps within the pane: " + text.getText());
        }
        Label longest = remedies.stream().map(r -> (Label) r.getChildren().get(0))
                .max(java.util.Comparator.comparingInt(l -> l.getText().length())).orElseThrow();
        assertTrue(longest.getHeight() > 2 * longest.getFont().getSize(), "the longest remedy takes more than one line: "
                + longest.getHeight());
        Button copy = (Button) remedies.get(0).getChildren().get(1);
        robot.interact(copy::fire);
        String[] copied = new String[1];
        robot.interact(() -> copied[0] = Clipboard.getSystemClipboard().getString());
        assertEquals(f.remedies().get(0), copied[0], "Copy takes that one remedy");
        Shots.save(view, "finding-detail.png");

        // its port: the inspector comes to front with the port's row selected and the counters beside it in view
        ListView<FindingsViewModel.SubjectRow> subjects = robot.lookup("#findingSubjects").queryListView();
        FindingsViewModel.SubjectRow port = subjects.getItems().stream()
                .filter(r -> r.navigation().place() == Navigation.Place.MAP).findFirst().orElseThrow();
        robot.clickOn(robot.from(subjects).lookup(".list-cell").match(c -> ((ListCell<?>) c).getItem() == port).<Node>query());
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals("Inspector", selectedTab());
        FabricNode leaf = view.snapshot().model().node(0x0c42a10300010103L);
        Port p23 = leaf.port(23);
        TableView<Port> table = view.inspector().portTable();
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> table.getSelectionModel().getSelectedItem() == p23);
        WaitForAsyncUtils.waitForFxEvents();
        TableRow<?> row = robot.from(table).lookup(".table-row-cell").match(r -> ((TableRow<?>) r).getItem() == p23)
                .<TableRow<?>>query();
        Bounds r = row.localToScene(row.getBoundsInLocal());
        Bounds t = table.localToScene(table.getBoundsInLocal());
        assertTrue(r.getMinY() >= t.getMinY() && r.getMaxY() <= t.getMaxY(), "the selected row is in view, not under the "
                + "table's edge: " + r + " in " + t);
        Shots.save(view, "inspector-counters.png");
        for (String header : List.of("Counters", "Peer counters")) {
            Node h = robot.from(table).lookup(".column-header").match(n -> n instanceof TableColumnHeader c
                    && c.getTableColumn() != null && header.equals(c.getTableColumn().getText())).query();
            assertTrue(inside(h, table), header + " is in view");
        }
        assertTrue(view.inspector().portTable().getColumns().get(1).getCellData(p23).toString().contains("SymbolError=1873"),
                "its counters: " + view.inspector().portTable().getColumns().get(1).getCellData(p23));
    }
}
