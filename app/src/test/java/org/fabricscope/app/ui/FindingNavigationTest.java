package org.fabricscope.app.ui;

import static org.fabricscope.app.nav.Samples.K8S;
import static org.fabricscope.app.nav.Samples.RAIL;
import static org.fabricscope.app.nav.Samples.TRAINING;
import static org.fabricscope.app.nav.Samples.paths;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.imageio.ImageIO;

import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.host.GpuFabricPath;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.layout.MapLayout;
import org.fabricscope.model.ranks.RankSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import javafx.embed.swing.SwingFXUtils;
import javafx.scene.Scene;
import javafx.scene.control.ListView;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableView;
import javafx.stage.Stage;

/**
 * One finding of each layer, selected in the findings list as a user does: the map marks every
 * subject it has a place for and the Findings tab stays in front with the finding's detail; its subject
 * row brings the tab that holds the subjects to front with their rows selected (fabric and host: the
 * inspector; training: the rank rows; Kubernetes: the node and pod rows).
 */
@ExtendWith(ApplicationExtension.class)
class FindingNavigationTest {
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

    /** Brings the findings tab up and clicks the finding's row. */
    private Finding select(FxRobot robot, String id) {
        ListView<Finding> list = view.findings().list();
        Finding f = list.getItems().stream().filter(x -> x.id().equals(id)).findFirst().orElseThrow();
        robot.clickOn("Findings (" + list.getItems().size() + ")");
        robot.interact(() -> list.scrollTo(f));
        WaitForAsyncUtils.waitForFxEvents();
        robot.clickOn(robot.from(list).lookup(".list-cell").match(c -> ((javafx.scene.control.ListCell<?>) c).getItem() == f)
                .<javafx.scene.Node>query());
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(f, list.getSelectionModel().getSelectedItem());
        return f;
    }

    /** Clicks the selected finding's first subject row that is shown in this place: its tab comes to front. */
    private void goToSubject(FxRobot robot, org.fabricscope.app.nav.Navigation.Place place) {
        ListView<FindingsViewModel.SubjectRow> subjects = robot.lookup("#findingSubjects").queryListView();
        FindingsViewModel.SubjectRow row = subjects.getItems().stream().filter(r -> r.navigation().place() == place)
                .findFirst().orElseThrow();
        robot.interact(() -> subjects.scrollTo(row));
        robot.clickOn(robot.from(subjects).lookup(".list-cell").match(c -> ((javafx.scene.control.ListCell<?>) c).getItem() == row)
                .<javafx.scene.Node>query());
        WaitForAsyncUtils.waitForFxEvents();
    }

    private String selectedTab() {
        return ((TabPane) view.lookup("#side")).getSelectionModel().getSelectedItem().getText();
    }

    /** Every map item marked, as the vertices they draw. */
    private List<Vertex> marked() {
        return view.highlights().markedItems().stream().map(MapLayout.Item::vertex).toList();
    }

    @Test
    void fabricAndHostFindingsMarkTheirSubjectsOnTheMap(FxRobot robot) throws Exception {
        load(robot, RAIL);
        var model = view.snapshot().model();
        // fabric: a degraded link names the cable and both ports; both nodes and the cable are marked, the cable is selected
        select(robot, "link-degraded");
        FabricNode hca = model.node(0xb8cef603010c001aL);
        FabricNode leaf = model.node(0x0c42a10300010106L);
        assertEquals(List.of(hca, leaf), marked());
        assertEquals(List.of(hca.port(1).cable()), view.highlights().highlightedCables());
        // the subjects are named on the map at every zoom, the HCA with its host
        assertEquals(List.of(org.fabricscope.app.render.SubjectNames.name(hca), org.fabricscope.app.render.SubjectNames.name(leaf)),
                view.highlights().markNames());
        assertTrue(view.highlights().markNames().get(0).contains(" mlx5_"), view.highlights().markNames().toString());
        assertEquals(5, view.highlights().getChildrenUnmodifiable().size(), "two frames, their two names and a cable band on the map");
        assertEquals(hca.port(1).cable(), view.map().selectedCable(), "a finding on a cable selects the cable");
        assertEquals("Findings (6)", selectedTab(), "the finding's detail stays in view");
        assertTrue(view.inspector().titleText().startsWith("Cable 1xHDR: "), view.inspector().titleText());
        // host: a GPU's degraded PCIe link is its host on the map (drawn as its eight HCAs) and its GPU in the drill-down
        select(robot, "pcie-degraded");
        Host h03 = model.host("dgx-su2-h03");
        assertEquals(h03.adapters(), marked());
        assertEquals(h03, ((FabricNode) view.map().selection()).host());
        goToSubject(robot, org.fabricscope.app.nav.Navigation.Place.MAP);
        assertEquals("Inspector", selectedTab());
        robot.clickOn("#openHost");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> robot.lookup("#gpuPaths").tryQuery().isPresent());
        TableView<?> gpuPaths = robot.lookup("#gpuPaths").queryAs(TableView.class);
        var picked = (GpuFabricPath) gpuPaths.getSelectionModel().getSelectedItem();
        assertNotNull(picked, "the finding's GPU is picked out in the drill-down");
        assertEquals("0000:a0:00.0", picked.gpu().busId());
        robot.interact(() -> ((Stage) gpuPaths.getScene().getWindow()).close());
        // a click elsewhere on the map is the user's own selection: the marks go
        robot.interact(() -> view.map().reveal(model.switches().get(0)));
        assertTrue(marked().isEmpty(), "the map selection is the user's own: " + marked());
        // going to the finding's subject again (from its subjects list) marks it again, however often
        for (int i = 0; i < 2; i++) {
            robot.interact(() -> view.viewModel().findings().showSubject(view.viewModel().findings().subjects().get(0)));
            assertEquals(h03.adapters(), marked());
            robot.interact(() -> view.map().reveal(model.switches().get(0)));
            assertTrue(marked().isEmpty());
        }
    }

    @Test
    void aTrainingFindingSelectsItsRankRowsAndMarksTheirHcas(FxRobot robot) throws Exception {
        load(robot, RAIL, TRAINING);
        select(robot, "nccl-timeout");
        assertEquals("Findings (12)", selectedTab(), "the finding's detail stays in view");
        robot.clickOn("Training (16)"); // its rows were selected meanwhile
        assertEquals("Training (16)", selectedTab());
        TableView<?> ranks = robot.lookup("#ranks").queryAs(TableView.class);
        List<?> rows = ranks.getSelectionModel().getSelectedItems();
        assertEquals(16, rows.size(), "every rank the finding names");
        RankSite laggard = (RankSite) ranks.getSelectionModel().getSelectedItem();
        assertEquals(12, laggard.rank().rank(), "the laggard is the selected row");
        assertTrue(marked().contains(laggard.hca()), "its HCA is marked: " + marked());
        assertEquals(16, marked().size(), "each rank's HCA");
        assertEquals(laggard.hca(), view.map().selection());
        saveScreenshot("nccl-timeout-selected.png");
    }

    @Test
    void aKubernetesFindingSelectsItsNodeAndPodRowsAndMarksTheHost(FxRobot robot) throws Exception {
        load(robot, RAIL, K8S);
        select(robot, "rdma-resource-missing");
        assertEquals("Findings (14)", selectedTab(), "the finding's detail stays in view");
        robot.clickOn("Kubernetes (4)"); // its rows were selected meanwhile
        assertEquals("Kubernetes (4)", selectedTab());
        TableView<?> nodes = robot.lookup("#k8sNodes").queryAs(TableView.class);
        assertEquals("dgx-su1-h04", ((K8sNode) nodes.getSelectionModel().getSelectedItem()).name());
        TableView<?> pods = robot.lookup("#k8sPods").queryAs(TableView.class);
        assertTrue(pods.getSelectionModel().getSelectedItems().stream().map(p -> ((K8sPod) p).name()).toList()
                .contains("bert-ft-worker-0"), "the pod row");
        Host h04 = view.snapshot().model().host("dgx-su1-h04");
        assertTrue(marked().containsAll(h04.adapters()), "the node's host is marked");
    }

    private void saveScreenshot(String name) {
        try {
            var img = WaitForAsyncUtils.asyncFx(() -> view.getScene().snapshot(null)).get(10, TimeUnit.SECONDS);
            Path out = Path.of("target", "screenshots");
            Files.createDirectories(out);
            ImageIO.write(SwingFXUtils.fromFXImage(img, null), "png", out.resolve(name).toFile());
        } catch (Exception e) {
            System.err.println("screenshot not saved: " + e); // a by-product for the docs; the assertions are the test
        }
    }
}
