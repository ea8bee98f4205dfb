package org.fabricscope.app.live.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.k8s.K8sPod;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/** ClusterWatch against fabric8's mock API server: informers, debounced snapshots, changes after start. */
@EnableKubernetesMockClient(crud = true, https = false)
class ClusterWatchMockTest {
    KubernetesMockServer server;
    KubernetesClient client;

    @TempDir
    Path dir;
    Path kubeconfig;

    @BeforeEach
    void cluster() throws IOException {
        client.nodes().resource(KubeFixtures.node("gpu-node-1", "aliyun/erdma", "200")).create();
        client.pods().inNamespace(KubeFixtures.NS).resource(KubeFixtures.jobPod("bert", "master", 0, "gpu-node-1", "8")).create();
        client.pods().inNamespace(KubeFixtures.NS).resource(KubeFixtures.pod("web-1", Map.of("app", "web"), "gpu-node-1", "0"))
                .create();
        kubeconfig = KubeFixtures.kubeconfig(dir, server.url("/").replaceAll("/$", ""), "mock");
    }

    /** Collects what the listener is told. */
    static final class Recorder implements ClusterWatch.Listener {
        final BlockingQueue<ClusterSnapshot> snapshots = new LinkedBlockingQueue<>();
        final BlockingQueue<String> errors = new LinkedBlockingQueue<>();

        @Override
        public void snapshot(ClusterSnapshot s) {
            snapshots.add(s);
        }

        @Override
        public void error(String message) {
            errors.add(message);
        }

        /** The first snapshot (within 10 s) whose model passes the test. */
        FabricModel await(Predicate<FabricModel> test) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            FabricModel last = null;
            while (System.nanoTime() < end) {
                ClusterSnapshot s = snapshots.poll(200, TimeUnit.MILLISECONDS);
                if (s != null) {
                    last = model(s);
                    if (test.test(last)) {
                        return last;
                    }
                }
            }
            throw new AssertionError("no matching snapshot; last pods: " + (last == null ? "none" : podNames(last))
                    + "; errors " + errors);
        }
    }

    static FabricModel model(ClusterSnapshot s) {
        return s.importAlone().model();
    }

    static List<String> podNames(FabricModel m) {
        return m.pods().stream().map(K8sPod::name).sorted().toList();
    }

    @Test
    void snapshotsFollowTheJobsPods() throws Exception {
        Recorder rec = new Recorder();
        KubeTarget target = KubeTarget.current().withKubeconfig(kubeconfig).withJob("bert");
        try (ClusterWatch w = ClusterWatch.open(new KubeConnector(), target, Duration.ofMillis(100), rec)) {
            FabricModel first = rec.await(m -> podNames(m).equals(List.of("bert-master-0")));
            assertEquals(List.of("gpu-node-1"), List.copyOf(first.k8sNodes().keySet()));

            // a pod created after start arrives; a pod of another job does not
            client.pods().inNamespace(KubeFixtures.NS).resource(KubeFixtures.jobPod("bert", "worker", 0, null, "8")).create();
            client.pods().inNamespace(KubeFixtures.NS).resource(KubeFixtures.jobPod("gpt", "worker", 0, null, "8")).create();
            FabricModel second = rec.await(m -> podNames(m).equals(List.of("bert-master-0", "bert-worker-0")));
            assertTrue(second.pods().stream().filter(p -> p.name().equals("bert-worker-0")).allMatch(K8sPod::pending));

            // a modified pod: scheduled and running
            Pod p = client.pods().inNamespace(KubeFixtures.NS).withName("bert-worker-0").get();
            p.getSpec().setNodeName("gpu-node-1");
            p.getStatus().setPhase("Running");
            client.pods().inNamespace(KubeFixtures.NS).resource(p).update();
            FabricModel third = rec.await(m -> m.pods().stream().anyMatch(x -> x.name().equals("bert-worker-0")
                    && "gpu-node-1".equals(x.node())));
            assertEquals(2, third.pods().size());

            // a new node and an event
            client.nodes().resource(KubeFixtures.node("gpu-node-2", "rdma/rdma", "1k")).create();
            client.v1().events().inNamespace(KubeFixtures.NS).resource(KubeFixtures.event("e1", "bert-worker-0", "Warning",
                    "FailedScheduling", KubeFixtures.FAILED_SCHEDULING)).create();
            FabricModel fourth = rec.await(m -> m.k8sNodes().size() == 2 && m.k8s().events().size() == 1);
            assertEquals("bert-worker-0", fourth.k8s().events().get(0).objectName());
            assertEquals(2, w.current().nodes());
            assertTrue(rec.errors.isEmpty(), rec.errors.toString());
        }
    }

    @Test
    void snapshotsAreDebounced() throws Exception {
        Recorder rec = new Recorder();
        KubeTarget target = KubeTarget.current().withKubeconfig(kubeconfig);
        try (ClusterWatch w = ClusterWatch.open(new KubeConnector(), target, Duration.ofMillis(400), rec)) {
            rec.await(m -> m.pods().size() == 2);
            rec.snapshots.clear();
            long t0 = System.nanoTime();
            for (int i = 0; i < 20; i++) {
                client.pods().inNamespace(KubeFixtures.NS).resource(KubeFixtures.pod("burst-" + i, Map.of(), "gpu-node-1", "0"))
                        .create();
            }
            rec.await(m -> m.pods().size() == 22);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            // 20 changes, one snapshot per 400 ms at most
            int sent = rec.snapshots.size() + 1;
            assertTrue(sent <= ms / 400 + 2, sent + " snapshots in " + ms + " ms");
            assertEquals(22, w.current().pods());
        }
        List<Long> seq = rec.snapshots.stream().map(ClusterSnapshot::sequence).toList();
        assertEquals(seq.stream().sorted().distinct().toList(), seq, "snapshots come one at a time, in order");
    }

    @Test
    void forbiddenWatchesReachTheListenerAsOneLine() throws Exception {
        try (StubApiServer stub = new StubApiServer(ex -> {
            String path = ex.getRequestURI().getPath();
            String res = path.substring(path.lastIndexOf('/') + 1);
            StubApiServer.status(403, "Forbidden", res + " is forbidden: User \"carol\" cannot list resource \"" + res
                    + "\" in API group \"\"").send(ex);
        })) {
            Path kc = KubeFixtures.kubeconfig(dir, stub.url(), "stub");
            Recorder rec = new Recorder();
            try (ClusterWatch w = ClusterWatch.open(new KubeConnector(), KubeTarget.current().withKubeconfig(kc).withJob("bert"),
                    Duration.ofMillis(50), rec)) {
                assertTrue(w != null, "the watch opens although every list is forbidden");
                java.util.Set<String> seen = new java.util.TreeSet<>();
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (seen.size() < 3 && System.nanoTime() < end) {
                    String e = rec.errors.poll(200, TimeUnit.MILLISECONDS);
                    if (e != null) {
                        seen.add(e);
                    }
                }
                assertEquals(java.util.Set.of(
                        "forbidden: cannot list nodes (cluster-wide) (user \"carol\"); grant get/list/watch on nodes "
                                + KubeErrors.RBAC_HINT,
                        "forbidden: cannot list pods in namespace team-a (user \"carol\"); grant get/list/watch on pods "
                                + KubeErrors.RBAC_HINT,
                        "forbidden: cannot list events in namespace team-a (user \"carol\"); grant get/list/watch on events "
                                + KubeErrors.RBAC_HINT), seen);
                ClusterSnapshot s = null;
                while (System.nanoTime() < end && (s == null || s.diagnostics().size() < 3)) {
                    ClusterSnapshot next = rec.snapshots.poll(200, TimeUnit.MILLISECONDS);
                    s = next != null ? next : s;
                }
                assertTrue(s != null && s.objects().isEmpty(), String.valueOf(s));
                assertTrue(s.diagnostics().stream().filter(d -> d.message().startsWith("forbidden:")).count() >= 3,
                        s.diagnostics().toString());
            }
            assertTrue(stub.requests.stream().allMatch(q -> q.startsWith("GET ")), stub.requests.toString());
        }
    }
}
