package org.fabricscope.app.live.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Severity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EventListBuilder;
import io.fabric8.kubernetes.api.model.NodeListBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodListBuilder;

/** Faults of a live read against a stub API server: each gives one clear line and nothing throws past the reader. */
class KubeFaultsTest {
    static final String NODES = "/api/v1/nodes";
    static final String PODS = "/api/v1/namespaces/team-a/pods";
    static final String EVENTS = "/api/v1/namespaces/team-a/events";

    @TempDir
    Path dir;
    StubApiServer stub;

    @AfterEach
    void stop() {
        if (stub != null) {
            stub.close();
        }
    }

    /** Short timeouts and no retries so that faults show at once. */
    private ClusterRead read(String server, KubeTarget target) throws Exception {
        Path kc = KubeFixtures.kubeconfig(dir, server, "stub");
        return ClusterReader.readOnce(new KubeConnector(Duration.ofSeconds(2), Duration.ofMillis(800), 0),
                target.withKubeconfig(kc), Cancellation.NEVER);
    }

    private StubApiServer healthy() throws IOException {
        return new StubApiServer()
                .route(NODES, StubApiServer.ok(new NodeListBuilder().withItems(KubeFixtures.node("gpu-node-1", "rdma/rdma", "1k"))
                        .build()))
                .route(PODS, StubApiServer.ok(new PodListBuilder().withItems(KubeFixtures.jobPod("bert", "worker", 0,
                        "gpu-node-1", "8")).build()))
                .route(EVENTS, StubApiServer.ok(new EventListBuilder().build()));
    }

    @Test
    void unauthorizedNamesTheContextAndStopsAtOnce() throws Exception {
        stub = new StubApiServer(StubApiServer.status(401, "Unauthorized", "Unauthorized"));
        KubeException e = assertThrows(KubeException.class, () -> read(stub.url(), KubeTarget.current().withJob("bert")));
        assertEquals("credentials refused (401 Unauthorized) by " + stub.url() + " for context stub to list nodes (cluster-wide): the token has expired "
                + "or the auth plugin (exec, OIDC) failed; log in again and retry", e.getMessage());
        // fabric8 retries a 401 once after refreshing the token; no other resource is tried
        assertTrue(stub.requests.stream().allMatch(q -> q.equals("GET " + NODES)), stub.requests.toString());
    }

    @Test
    void forbiddenEverywhereFailsNamingVerbResourceAndNamespace() throws Exception {
        stub = new StubApiServer(ex -> {
            String path = ex.getRequestURI().getPath();
            String res = path.substring(path.lastIndexOf('/') + 1);
            String scope = path.contains("/namespaces/") ? "in the namespace \"team-a\"" : "at the cluster scope";
            StubApiServer.status(403, "Forbidden", res + " is forbidden: User \"alice\" cannot list resource \"" + res
                    + "\" in API group \"\" " + scope).send(ex);
        });
        KubeException e = assertThrows(KubeException.class, () -> read(stub.url(), KubeTarget.current()));
        assertTrue(e.getMessage().startsWith("forbidden: cannot list nodes (cluster-wide) (user \"alice\"); grant "
                + "get/list/watch on nodes (README 'Live clusters' has a ClusterRole)"), e.getMessage());
        assertTrue(e.getMessage().endsWith("(and 2 more failures)"), e.getMessage());
    }

    @Test
    void forbiddenEventsKeepTheRest() throws Exception {
        stub = healthy().route(EVENTS, StubApiServer.status(403, "Forbidden", "events is forbidden: User \"bob\" cannot "
                + "list resource \"events\" in API group \"\" in the namespace \"team-a\""));
        ClusterRead r = read(stub.url(), KubeTarget.current().withJob("bert").withLogs(false));
        assertEquals(List.of("kube://stub/nodes", "kube://stub/team-a/pods"), r.objects().stream().map(s -> s.source()).toList());
        Diagnostic d = r.diagnostics().stream().filter(x -> x.severity() == Severity.WARNING).findFirst().orElseThrow();
        assertEquals("kube://stub/team-a/events", d.source());
        assertEquals("forbidden: cannot list events in namespace team-a (user \"bob\"); grant get/list/watch on events "
                + "(README 'Live clusters' has a ClusterRole)", d.message());
        // the Kubeflow CRDs are absent (404): a quiet note each, not a warning
        assertEquals(3, r.diagnostics().stream().filter(x -> x.severity() == Severity.INFO
                && x.message().contains("is not served by this cluster")).count(), r.diagnostics().toString());
        FabricModel m = r.importWith(List.of(), List.of(), ImportProgress.NONE, Cancellation.NEVER).model();
        assertEquals(1, m.pods().size());
        assertTrue(m.diagnostics().contains(d), "the warning reaches the model's diagnostics");
    }

    @Test
    void serverErrorOnPods() throws Exception {
        stub = healthy().route(PODS, StubApiServer.status(500, "InternalError", "etcdserver: request timed out"));
        ClusterRead r = read(stub.url(), KubeTarget.current().withJob("bert"));
        assertTrue(r.diagnostics().stream().anyMatch(d -> d.severity() == Severity.WARNING && d.message().equals(
                "API server error 500 on list pods in namespace team-a at " + stub.url()
                        + " (etcdserver: request timed out); try again later")), r.diagnostics().toString());
        assertFalse(r.objects().stream().anyMatch(l -> l.source().endsWith("/pods")));
    }

    @Test
    void serverThatNeverAnswersTimesOut() throws Exception {
        stub = new StubApiServer();
        stub.route(NODES, stub.hang());
        long t0 = System.nanoTime();
        KubeException e = assertThrows(KubeException.class, () -> read(stub.url(), KubeTarget.current()));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals("the API server " + stub.url() + " did not answer list nodes (cluster-wide) within 800 ms; the server "
                + "or the network is slow or overloaded", e.getMessage());
        assertTrue(ms < 10_000, "gave up after " + ms + " ms");
    }

    @Test
    void connectionRefused() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String url = "http://127.0.0.1:" + port;
        KubeException e = assertThrows(KubeException.class, () -> read(url, KubeTarget.current()));
        assertEquals("cannot connect to the API server " + url + " (context stub): connection refused; is the cluster up "
                + "and the kubeconfig's server address right?", e.getMessage());
    }

    @Test
    void unknownHost() throws Exception {
        String url = "https://api.no-such-cluster.invalid:6443";
        KubeException e = assertThrows(KubeException.class, () -> read(url, KubeTarget.current()));
        assertTrue(e.getMessage().startsWith("cannot resolve the API server's host api.no-such-cluster.invalid ("
                + url + ", context stub)"), e.getMessage());
    }

    @Test
    void disconnectMidBodyIsAWarningForThatKind() throws Exception {
        stub = healthy().route(NODES, StubApiServer.cutOff(new NodeListBuilder().withItems(
                KubeFixtures.node("gpu-node-1", "rdma/rdma", "1k"), KubeFixtures.node("gpu-node-2", "rdma/rdma", "1k")).build()));
        ClusterRead r = read(stub.url(), KubeTarget.current().withJob("bert").withLogs(false));
        Diagnostic d = r.diagnostics().stream().filter(x -> x.source().equals("kube://stub/nodes")).findFirst().orElseThrow();
        assertEquals(Severity.WARNING, d.severity());
        assertTrue(d.message().contains("list nodes (cluster-wide)") && d.message().contains(stub.url()), d.message());
        assertFalse(d.message().contains("\n"));
        assertTrue(r.objects().stream().anyMatch(s -> s.source().equals("kube://stub/team-a/pods")));
    }

    @Test
    void logsOfTheJobPodsAreReadAndAContainerNotStartedIsAWarning() throws Exception {
        Pod running = KubeFixtures.jobPod("bert", "worker", 0, "gpu-node-1", "8");
        Pod creating = KubeFixtures.jobPod("bert", "worker", 1, "gpu-node-1", "8");
        Pod waiting = KubeFixtures.jobPod("bert", "worker", 2, "gpu-node-1", "8");
        waiting.getStatus().setContainerStatuses(List.of(new ContainerStatusBuilder().withName("pytorch").withRestartCount(0)
                .withState(new ContainerStateBuilder().withNewWaiting().withReason("ImagePullBackOff").endWaiting().build())
                .build()));
        Pod pending = KubeFixtures.jobPod("bert", "worker", 3, null, "8");
        String log = "2025-06-01T10:00:00.000000001Z bert-worker-0:704:704 [0] NCCL INFO NCCL version 2.28.9+cuda13.0\n"
                + "2025-06-01T10:00:00.100000000Z bert-worker-0:704:704 [0] NCCL INFO NET/Socket : Using [0]eth0:192.0.2.2<0>\n"
                + "2025-06-01T10:00:00.200000000Z bert-worker-0:704:704 [0] NCCL INFO ncclCommInitRankConfig comm 0x13fa83f0 "
                + "rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 60 commId 0x19b51b6cccfa5131 - Init START\n";
        stub = healthy()
                .route(PODS, StubApiServer.ok(new PodListBuilder().withItems(running, creating, waiting, pending).build()))
                .route(PODS + "/bert-worker-0/log", StubApiServer.text(200, log))
                .route(PODS + "/bert-worker-1/log", StubApiServer.status(400, "BadRequest",
                        "container \"pytorch\" in pod \"bert-worker-1\" is waiting to start: ContainerCreating"));
        ClusterRead r = read(stub.url(), KubeTarget.current().withJob("bert").withLogLimits(500, 1 << 20));
        assertTrue(stub.requests.contains("GET " + PODS + "/bert-worker-0/log?container=pytorch&timestamps=true&tailLines=500"
                + "&limitBytes=1048576"), stub.requests.toString());
        assertTrue(stub.requests.stream().noneMatch(q -> q.contains("bert-worker-2/log") || q.contains("bert-worker-3/log")),
                "no call for a container that has not started or a pod on no node");
        assertTrue(r.diagnostics().stream().anyMatch(d -> d.severity() == Severity.WARNING
                && d.source().equals("kube://stub/team-a/pods/bert-worker-1/pytorch")
                && d.message().equals("log of bert-worker-1/pytorch not available: container \"pytorch\" in pod "
                + "\"bert-worker-1\" is waiting to start: ContainerCreating")), r.diagnostics().toString());
        assertTrue(r.diagnostics().stream().anyMatch(d -> d.severity() == Severity.WARNING
                && d.message().contains("has not started (ImagePullBackOff)")), r.diagnostics().toString());
        ImportResult result = r.importWith(List.of(), List.of(), ImportProgress.NONE, Cancellation.NEVER);
        assertEquals("nccl-log", result.formats().get("kube://stub/team-a/pods/bert-worker-0/pytorch"));
        assertEquals(List.of("2.28.9"), List.copyOf(result.model().trainingLog().ncclVersions()));
        assertEquals(4, result.model().pods().size());
    }

    @Test
    void unknownContextListsTheAvailableOnes() throws Exception {
        Path kc = KubeFixtures.kubeconfig(dir, "http://127.0.0.1:1", "dev", "prod");
        KubeException e = assertThrows(KubeException.class, () -> new KubeConnector().connect(
                KubeTarget.current().withKubeconfig(kc).withContext("staging")));
        assertEquals("context 'staging' is not in " + kc + "; available: dev (current), prod", e.getMessage());
        KubeException missing = assertThrows(KubeException.class, () -> new KubeConnector().contexts(dir.resolve("nope")));
        assertEquals("cannot read kubeconfig " + dir.resolve("nope"), missing.getMessage());
        assertEquals(Map.of("dev", true, "prod", false), Map.of("dev", new KubeConnector().contexts(kc).get(0).current(),
                "prod", new KubeConnector().contexts(kc).get(1).current()));
    }
}
