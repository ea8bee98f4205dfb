package org.fabricscope.app.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.fabricscope.importers.ImportResult;
import org.fabricscope.app.live.kube.KubeLiveSource;
import org.fabricscope.app.live.source.LiveSnapshot;
import org.fabricscope.app.live.kube.KubeConnector;
import org.fabricscope.app.live.kube.KubeException;
import org.fabricscope.app.live.kube.KubeFixtures;
import org.fabricscope.app.live.kube.KubeTarget;
import org.fabricscope.app.live.source.LogLine;
import org.fabricscope.model.FabricModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/** The app's live job against fabric8's mock API server: the model follows the cluster, together with the files. */
@EnableKubernetesMockClient(crud = true, https = false)
class LiveJobMockTest {
    KubernetesMockServer server;
    KubernetesClient client;

    @TempDir
    Path dir;

    static final class Recorder implements LiveJob.Listener {
        final BlockingQueue<FabricModel> models = new LinkedBlockingQueue<>();
        final BlockingQueue<String> errors = new LinkedBlockingQueue<>();

        @Override
        public void model(ImportResult result, LiveSnapshot snapshot) {
            models.add(result.model());
        }

        @Override
        public void lines(List<LogLine> lines) {
        }

        @Override
        public void status(String message) {
        }

        @Override
        public void error(String message) {
            errors.add(message);
        }

        FabricModel await(Predicate<FabricModel> test) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            while (System.nanoTime() < end) {
                FabricModel m = models.poll(200, TimeUnit.MILLISECONDS);
                if (m != null && test.test(m)) {
                    return m;
                }
            }
            throw new AssertionError("no matching model; errors " + errors);
        }
    }

    @Test
    void theModelFollowsTheJobsPodsAndKeepsTheFiles() throws Exception {
        client.nodes().resource(KubeFixtures.node("gpu-01", "rdma/rdma", "4")).create();
        client.pods().inNamespace(KubeFixtures.NS).resource(KubeFixtures.jobPod("bert", "master", 0, "gpu-01", "8")).create();
        Path kubeconfig = KubeFixtures.kubeconfig(dir, server.url("/").replaceAll("/$", ""), "mock");
        Path fabric = dir.resolve("two-tier.txt");
        try (var in = getClass().getResourceAsStream("/fabrics/two-tier.ibnetdiscover.txt")) {
            java.nio.file.Files.copy(in, fabric);
        }
        KubeTarget target = KubeTarget.current().withKubeconfig(kubeconfig).withJob("bert").withLogs(false);
        Recorder rec = new Recorder();
        try (LiveJob job = LiveJob.start(KubeLiveSource.open(new KubeConnector(), target,
                java.time.Duration.ofMillis(16)), List.of(fabric), false, java.time.Duration.ofMillis(100), rec)) {
            FabricModel first = rec.await(m -> m.pods().size() == 1);
            assertEquals(1, first.k8sNodes().size());
            assertTrue(first.host("gpu-01") != null, "the file's fabric is in the live model");
            assertTrue(first.k8sNodeOf(first.host("gpu-01")) != null, "the live node joins the file's host");
            client.pods().inNamespace(KubeFixtures.NS).resource(KubeFixtures.jobPod("bert", "worker", 0, "gpu-01", "8")).create();
            FabricModel second = rec.await(m -> m.pods().size() == 2);
            assertEquals(2, second.k8s().podsOn("gpu-01").size());
            assertTrue(job.statusLine().contains("1 nodes, 2 pods"), job.statusLine());
            assertTrue(job.rebuilds() >= 2);
        }
    }

    @Test
    void anUnknownContextFailsAtOnceWithTheList() throws Exception {
        Path kubeconfig = KubeFixtures.kubeconfig(dir, server.url("/").replaceAll("/$", ""), "mock", "other");
        KubeException e = assertThrows(KubeException.class, () -> LiveJob.start(KubeLiveSource.open(new KubeConnector(),
                KubeTarget.current().withKubeconfig(kubeconfig).withContext("prod"), KubeLiveSource.DEFAULT_BATCH_EVERY),
                List.of(), false, new Recorder()));
        assertTrue(e.getMessage().contains("mock") && e.getMessage().contains("other"), e.getMessage());
    }
}
