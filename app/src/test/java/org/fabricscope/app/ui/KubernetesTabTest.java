package org.fabricscope.app.ui;

import static org.fabricscope.app.nav.Samples.K8S;
import static org.fabricscope.app.nav.Samples.RAIL;
import static org.fabricscope.app.nav.Samples.paths;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.fabricscope.model.k8s.K8sEvent;
import org.fabricscope.model.k8s.K8sPod;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import javafx.scene.Scene;
import javafx.scene.control.TableView;
import javafx.stage.Stage;

/** The Kubernetes tab: pods with restarts and exit codes, the events list beside the nodes. */
@ExtendWith(ApplicationExtension.class)
class KubernetesTabTest {
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
    void podsShowRestartsAndExitCodesAndTheEventsListShowsFailedScheduling(FxRobot robot) throws Exception {
        List<Path> in = paths(RAIL, K8S, ClusterViewModelTest.STATUS);
        robot.interact(() -> view.open(in, false));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> view.snapshot() != null);
        WaitForAsyncUtils.waitForFxEvents();
        robot.interact(() -> view.viewModel().tabs().selectedProperty().set(SideTabs.Tab.KUBERNETES));
        WaitForAsyncUtils.waitForFxEvents();

        TableView<?> events = robot.lookup("#k8sEvents").queryAs(TableView.class);
        assertTrue(events.isVisible());
        List<String> reasons = events.getItems().stream().map(e -> ((K8sEvent) e).reason()).toList();
        assertTrue(reasons.contains("FailedScheduling"), reasons.toString());
        assertTrue(robot.lookup(".table-row-cell").match(n -> n.lookupAll(".table-cell").stream()
                .anyMatch(c -> "FailedScheduling".equals(((javafx.scene.control.TableCell<?, ?>) c).getText())))
                .tryQuery().isPresent(), "a FailedScheduling row is drawn");

        @SuppressWarnings("unchecked")
        TableView<K8sPod> pods = robot.lookup("#k8sPods").queryAs(TableView.class);
        K8sPod w1 = pods.getItems().stream().filter(p -> p.name().equals("train-worker-1")).findFirst().orElseThrow();
        robot.interact(() -> {
            pods.scrollTo(w1);
            pods.getSelectionModel().clearSelection();
            pods.getSelectionModel().select(w1);
        });
        WaitForAsyncUtils.waitForFxEvents();
        List<String> cells = robot.lookup("#k8sPods .table-row-cell").queryAll().stream()
                .filter(r -> ((javafx.scene.control.TableRow<?>) r).getItem() == w1).findFirst().orElseThrow()
                .lookupAll(".table-cell").stream().map(c -> ((javafx.scene.control.TableCell<?, ?>) c).getText()).toList();
        assertTrue(cells.contains("4"), "restarts: " + cells);
        assertTrue(cells.contains("setup: 0 Completed; trainer: running, last 137 OOMKilled; sidecar: waiting, last 1 Error"),
                "exit codes: " + cells);
        assertEquals("OOMKilled", ((K8sEvent) events.getItems().get(0)).reason(), "the selected pod's events come first");
        Shots.save(view, "kubernetes-pods-events.png");
    }
}
