package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.imageio.ImageIO;

import org.fabricscope.app.render.ColourMode;
import org.fabricscope.app.live.kube.KubeFixtures;
import org.fabricscope.app.live.kube.KubeTarget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import javafx.embed.swing.SwingFXUtils;
import javafx.scene.Scene;
import javafx.stage.Stage;

/** The window connected to fabric8's mock API server: the Kubernetes tab and map follow the cluster; the console filters. */
@ExtendWith(ApplicationExtension.class)
@EnableKubernetesMockClient(crud = true, https = false)
class MainViewLiveTest {
    static KubernetesMockServer server;
    static KubernetesClient client;

    @TempDir
    Path dir;
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
    void connectingShowsTheClusterAndItsChangesThenDisconnectKeepsTheModel(FxRobot robot) throws Exception {
        client.nodes().resource(KubeFixtures.node("gpu-01", "rdma/rdma", "4")).create();
        client.nodes().resource(KubeFixtures.node("gpu-02", "rdma/rdma", "4")).create();
        client.pods().inNamespace(KubeFixtures.NS).resource(KubeFixtures.jobPod("bert", "master", 0, "gpu-01", "8")).create();
        Path kubeconfig = KubeFixtures.kubeconfig(dir, server.url("/").replaceAll("/$", ""), "mock");
        Path fabric = dir.resolve("two-tier.ibnetdiscover.txt");
        try (var in = getClass().getResourceAsStream("/fabrics/two-tier.ibnetdiscover.txt")) {
            Files.copy(in, fabric);
        }
        robot.interact(() -> view.open(List.of(fabric), false));
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> view.snapshot() != null);
        KubeTarget target = KubeTarget.current().withKubeconfig(kubeconfig).withJob("bert").withLogs(false);
        robot.interact(() -> view.connect(new ConnectDialogViewModel.Choice(target, false)));
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> view.snapshot().model().k8sNodes().size() == 2);
        assertTrue(view.snapshot().model().host("gpu-01") != null, "the opened fabric stays under the live layer");
        // a worker appears in the cluster: the next rebuild shows it
        client.pods().inNamespace(KubeFixtures.NS).resource(KubeFixtures.jobPod("bert", "worker", 0, "gpu-02", "8")).create();
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> view.snapshot().model().pods().size() == 2);
        javafx.scene.control.TableView<?> nodes = robot.lookup("#k8sNodes").queryAs(javafx.scene.control.TableView.class);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(2, nodes.getItems().size());
        robot.interact(() -> robot.lookup("#colourMode").<javafx.scene.control.ChoiceBox<ColourMode>>query().setValue(ColourMode.KUBERNETES));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> view.snapshot().mode() == ColourMode.KUBERNETES);
        saveScreenshot("live-kubernetes.png");
        robot.interact(view::disconnect);
        assertNull(view.liveJob());
        assertEquals(2, view.snapshot().model().pods().size(), "what the live job loaded stays after disconnecting");
    }

    @Test
    void aConnectionRefusedShowsABannerWithTheReasonThatCanBeDismissed(FxRobot robot) throws Exception {
        Path fabric = dir.resolve("two-tier.ibnetdiscover.txt");
        try (var in = getClass().getResourceAsStream("/fabrics/two-tier.ibnetdiscover.txt")) {
            Files.copy(in, fabric);
        }
        robot.interact(() -> view.open(List.of(fabric), false));
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> view.snapshot() != null);
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        Path kubeconfig = KubeFixtures.kubeconfig(dir, "http://127.0.0.1:" + port, "lab");
        KubeTarget target = KubeTarget.current().withKubeconfig(kubeconfig).withJob("bert").withLogs(false);
        robot.interact(() -> view.connect(new ConnectDialogViewModel.Choice(target, false)));
        javafx.scene.layout.HBox banner = robot.lookup("#liveBanner").queryAs(javafx.scene.layout.HBox.class);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, banner::isVisible);
        javafx.scene.control.Label text = robot.lookup("#liveBannerText").queryAs(javafx.scene.control.Label.class);
        assertTrue(text.getText().contains("cannot connect to the API server http://127.0.0.1:" + port)
                && text.getText().contains("connection refused"), text.getText());
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> view.viewModel().statusProperty().get().contains("not connected"));
        String status = view.viewModel().statusProperty().get();
        assertTrue(status.startsWith("Live: lab/") && !status.contains("0 nodes"), status);
        assertTrue(view.snapshot().model().host("gpu-01") != null, "the opened fabric stays");
        saveScreenshot("live-failure-banner.png");
        robot.clickOn("#dismissLiveBanner");
        assertTrue(!banner.isVisible() && !banner.isManaged(), "dismissed");
        assertTrue(view.viewModel().statusProperty().get().contains("not connected"), "the status bar keeps saying it");
        robot.interact(view::disconnect);
    }

    @Test
    void theLogConsoleFiltersByPodRankAndLevel(FxRobot robot) throws Exception {
        LogConsole console = view.logConsole();
        robot.interact(() -> console.append(List.of(
                LogConsole.Line.of("w-0", "w-0:1:1 [0] NCCL INFO comm 0x1 rank 8 nranks 16 cudaDev 0 busId 1b000 - Init COMPLETE"),
                LogConsole.Line.of("w-0", "step 10 loss 2.0"),
                LogConsole.Line.of("w-1", "w-1:2:2 [4] net_ib.cc:1 NCCL WARN NET/IB : Got completion from peer x with status=12"),
                LogConsole.Line.of("w-1", "[rank12]:[E1121 ProcessGroupNCCL.cpp:1785] [PG ID 0 Rank 12] Exception"))));
        assertEquals(4, console.shownLines().size());
        robot.interact(() -> robot.lookup("#logLevel").<javafx.scene.control.ChoiceBox<String>>query().setValue("errors"));
        assertEquals(2, console.shownLines().size());
        robot.interact(() -> robot.lookup("#logRank").queryAs(javafx.scene.control.TextField.class).setText("12"));
        assertEquals(1, console.shownLines().size());
        assertEquals("w-1", console.shownLines().get(0).pod());
        robot.interact(() -> robot.lookup("#logPod").<javafx.scene.control.ComboBox<String>>query().setValue("w-0"));
        assertEquals(0, console.shownLines().size());
    }

    @Test
    void aStreamedIncidentShowsItsErrorsUnderTheErrorsFilter(FxRobot robot) throws Exception {
        Path log = Path.of("..", "sample-fabrics", "training-incident", "logs", "gpt-train-worker-0.log");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(log), "run from the app module of the repository");
        List<LogConsole.Line> lines = Files.readAllLines(log).stream()
                .map(l -> LogConsole.Line.of("gpt-train-worker-0", l.substring(l.indexOf(' ') + 1))).toList();
        robot.interact(() -> view.logConsole().append(lines));
        robot.clickOn("Logs");
        assertEquals(lines.size(), view.logConsole().shownLines().size());
        robot.interact(() -> robot.lookup("#logLevel").<javafx.scene.control.ChoiceBox<String>>query().setValue("warnings and errors"));
        List<LogConsole.Line> errors = view.logConsole().shownLines();
        assertTrue(errors.stream().anyMatch(l -> l.text().contains("status=12")), "the IB completion error");
        assertTrue(errors.stream().anyMatch(l -> l.text().contains("Watchdog caught")), "the watchdog timeouts");
        assertTrue(errors.stream().noneMatch(l -> l.level() == LogConsole.Line.Level.NCCL), "no plain INFO lines");
        saveScreenshot("logs-errors.png");
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
