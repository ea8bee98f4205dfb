package org.fabricscope.model.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.k8s.JobIdentity;
import org.fabricscope.model.k8s.K8sEvent;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.k8s.PodSpecSummary;
import org.fabricscope.model.k8s.Quantity;
import org.fabricscope.model.k8s.ShmVolume;
import org.junit.jupiter.api.Test;

/** Each Kubernetes check on small hand-built models: when it fires, when it stays quiet. */
class K8sChecksTest {
    private static Map<String, Quantity> q(String... kv) {
        Map<String, Quantity> m = new TreeMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], Quantity.parse(kv[i + 1]));
        }
        return m;
    }

    private static void node(FabricModelBuilder b, String name, Map<String, Quantity> alloc) {
        Evidence e = Evidence.at("nodes.json", 1, name);
        b.k8s().node(new K8sNode(name, Map.of(), List.of(), alloc, alloc, true, null, false, e, e));
    }

    private static void pod(FabricModelBuilder b, String name, String node, String phase, PodSpecSummary spec) {
        b.k8s().pod(new K8sPod(name, "ns", node, phase, Map.of(), JobIdentity.of(name, Map.of()), spec,
                Evidence.at("pods.yaml", 3, name)), false);
    }

    private static PodSpecSummary spec(Map<String, Quantity> req, Map<String, String> env, String networks, ShmVolume shm) {
        return new PodSpecSummary(req, Map.of(), env, networks, shm, Map.of());
    }

    private static final ShmVolume GOOD_SHM = new ShmVolume("dshm", "emptyDir", "Memory", Quantity.parse("64Gi"));

    private static List<Finding> run(FabricCheck c, FabricModelBuilder b) {
        return c.run(CheckContext.of(b.build()));
    }

    @Test
    void insufficientComputedWithoutAnEventAndWithOtherReasons() {
        FabricModelBuilder b = new FabricModelBuilder();
        node(b, "a", q("cpu", "64", "memory", "512Gi", "nvidia.com/gpu", "8"));
        node(b, "b", q("cpu", "64", "memory", "512Gi", "nvidia.com/gpu", "8"));
        pod(b, "big-worker-0", null, "Pending", spec(q("cpu", "8", "memory", "600Gi"), Map.of(), null, GOOD_SHM));
        List<Finding> f = run(new InsufficientResourcesCheck(), b);
        assertEquals(1, f.size());
        assertTrue(f.get(0).title().contains("insufficient memory"), f.get(0).title());
        assertTrue(f.get(0).title().contains("free a 512Gi (short 88Gi), b 512Gi (short 88Gi)"), f.get(0).title());

        FabricModelBuilder t = new FabricModelBuilder();
        node(t, "a", q("nvidia.com/gpu", "8"));
        pod(t, "x-worker-0", null, "Pending", spec(q("nvidia.com/gpu", "4"), Map.of(), null, GOOD_SHM));
        t.k8s().event(K8sEvent.of("ns", "Pod", "x-worker-0", "Warning", "FailedScheduling",
                "0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) had untolerated taint {gpu: }. "
                        + "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling..",
                1, "default-scheduler", Evidence.at("events.json", 9, "FailedScheduling")));
        List<Finding> g = run(new InsufficientResourcesCheck(), t);
        assertEquals(1, g.size());
        assertTrue(g.get(0).title().endsWith("; also 1 node(s) had untolerated taint {gpu: }"), g.get(0).title());
        assertEquals("events.json", g.get(0).evidence().get(1).source());

        FabricModelBuilder taintOnly = new FabricModelBuilder();
        node(taintOnly, "a", q("nvidia.com/gpu", "8"));
        pod(taintOnly, "y-worker-0", null, "Pending", spec(q("nvidia.com/gpu", "4"), Map.of(), null, GOOD_SHM));
        taintOnly.k8s().event(K8sEvent.of("ns", "Pod", "y-worker-0", "Warning", "FailedScheduling",
                "0/1 nodes are available: 1 node(s) had untolerated taint {gpu: }.", 1, "default-scheduler",
                Evidence.at("events.json", 2, "FailedScheduling")));
        assertTrue(run(new InsufficientResourcesCheck(), taintOnly).isEmpty(), "a taint is not a shortage");

        FabricModelBuilder big = new FabricModelBuilder();
        for (int i = 1; i <= 40; i++) {
            node(big, "gpu-" + i, q("nvidia.com/gpu", "8"));
            pod(big, "busy-" + i, "gpu-" + i, "Running", spec(q("nvidia.com/gpu", i == 17 ? "2" : "6"), Map.of(), null, GOOD_SHM));
        }
        pod(big, "wide-worker-0", null, "Pending", spec(q("nvidia.com/gpu", "8"), Map.of(), null, GOOD_SHM));
        Finding w = run(new InsufficientResourcesCheck(), big).get(0);
        assertTrue(w.title().contains("free gpu-17 6 (short 2), gpu-1 2 (short 6)"), w.title());
        assertTrue(w.title().endsWith("and 32 more nodes with less free)"), w.title());
        assertEquals(1 + InsufficientResourcesCheck.MAX_NODES_SHOWN, w.evidence().size(), "the pod and the nodes shown");
    }

    @Test
    void rdmaRequestedOrNotOffered() {
        FabricModelBuilder b = new FabricModelBuilder();
        node(b, "a", q("nvidia.com/gpu", "8", "rdma/hca", "1"));
        node(b, "b", q("nvidia.com/gpu", "8"));
        pod(b, "ok-worker-0", "a", "Running", new PodSpecSummary(q("nvidia.com/gpu", "8"), q("rdma/hca", "1"), Map.of(), null,
                GOOD_SHM, Map.of()));
        pod(b, "cpu-only", "a", "Running", spec(q("cpu", "1"), Map.of(), null, null));
        pod(b, "plain-worker-0", "b", "Running", spec(q("nvidia.com/gpu", "8"), Map.of(), null, GOOD_SHM));
        FabricModel m = b.build();
        assertTrue(new RdmaResourceNotRequestedCheck().run(org.fabricscope.model.diagnosis.CheckContext.of(m)).isEmpty(), "limits count as requests; non-training pods skipped");
        assertTrue(new RdmaResourceMissingCheck().run(org.fabricscope.model.diagnosis.CheckContext.of(m)).isEmpty(), "a job that does not expect RDMA");
    }

    @Test
    void mpiLauncherIsNotATrainingPodUnlessItHasGpus() {
        FabricModelBuilder b = new FabricModelBuilder();
        node(b, "a", q("nvidia.com/gpu", "8", "rdma/hca", "1"));
        pod(b, "bench-launcher-x7k2p", "a", "Running", spec(q("cpu", "1"), Map.of("NCCL_SOCKET_IFNAME", "net1"), null, null));
        FabricModel m = b.build();
        assertEquals("launcher", m.pods().get(0).job().replicaType());
        assertTrue(new RdmaResourceNotRequestedCheck().run(org.fabricscope.model.diagnosis.CheckContext.of(m)).isEmpty());
        assertTrue(new ShmTooSmallCheck().run(org.fabricscope.model.diagnosis.CheckContext.of(m)).isEmpty());
        assertTrue(new SecondaryNetworkMissingCheck().run(org.fabricscope.model.diagnosis.CheckContext.of(m)).isEmpty());
    }

    @Test
    void shmAndNetworkQuietWhenRight() {
        FabricModelBuilder b = new FabricModelBuilder();
        pod(b, "a-worker-0", "n", "Running", spec(q("nvidia.com/gpu", "8"), Map.of("NCCL_SOCKET_IFNAME", "net1"), "roce", GOOD_SHM));
        pod(b, "b-worker-0", "n", "Running", spec(q("nvidia.com/gpu", "8"), Map.of("NCCL_SOCKET_IFNAME", "eth0"), null,
                new ShmVolume("dshm", "emptyDir", "Memory", null)));
        pod(b, "c-worker-0", "n", "Succeeded", spec(q("nvidia.com/gpu", "8"), Map.of("NCCL_SOCKET_IFNAME", "net1"), null, null));
        pod(b, "d-worker-0", "n", "Running", spec(q("nvidia.com/gpu", "8"), Map.of(), null,
                new ShmVolume("dshm", "hostPath", null, null)));
        FabricModel m = b.build();
        assertTrue(new SecondaryNetworkMissingCheck().run(org.fabricscope.model.diagnosis.CheckContext.of(m)).isEmpty());
        List<Finding> shm = new ShmTooSmallCheck().run(org.fabricscope.model.diagnosis.CheckContext.of(m));
        assertEquals(List.of("pod ns/d-worker-0"), shm.stream().map(f -> f.subjects().get(0)).toList());
        assertTrue(shm.get(0).title().contains("not an emptyDir with medium: Memory"), shm.get(0).title());
    }
}
