package org.fabricscope.model.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.ranks.RankMap;
import org.fabricscope.model.training.ChannelLink;
import org.fabricscope.model.training.Rank;
import org.fabricscope.model.training.Transport;
import org.junit.jupiter.api.Test;

/** The job drawn without a fabric: two pods on two nodes, two GPUs each, talking over NVLink and IB. */
class JobLayoutTest {
    private static final Evidence E = Evidence.at("log", 1, "line 1");

    private static FabricModel model(boolean pods) {
        FabricModelBuilder b = new FabricModelBuilder();
        var t = b.training();
        String[] hosts = {"worker-1", "worker-0"}; // out of order: the layout sorts
        for (String h : hosts) {
            int base = h.endsWith("0") ? 0 : 2;
            for (int g = 0; g < 2; g++) {
                t.putRank(new Rank(h, 100 + g, g, g + 4, "0000:1" + g + ":00.0", "c1", base + g, 4, "2.28.9", true, true,
                        List.of("mlx5_" + g + ":1/IB"), "IB", false, Map.of(), E));
            }
        }
        t.addChannel(new ChannelLink("c1", 0, 0, 1, Transport.P2P, "P2P/IPC", -1, E));
        t.addChannel(new ChannelLink("c1", 0, 1, 2, Transport.NET_IB_GDR, "NET/IB/0/GDRDMA", 0, E));
        t.addChannel(new ChannelLink("c1", 1, 2, 1, Transport.NET_IB, "NET/IB/0", 0, E));
        t.addChannel(new ChannelLink("c1", 0, 2, 3, Transport.SHM, "SHM/direct/direct", -1, E));
        if (pods) {
            b.k8s().pod(new K8sPod("worker-0", "ml", "node-b", "Running", Map.of(), null, null, E), false);
            b.k8s().pod(new K8sPod("worker-1", "ml", "node-a", "Running", Map.of(), null, null, E), false);
            b.k8s().pod(new K8sPod("coredns-1", "kube-system", "node-a", "Running", Map.of(), null, null, E), false);
        }
        return b.build();
    }

    private static JobLayout layout(boolean pods) {
        FabricModel m = model(pods);
        return JobLayout.of(m, RankMap.of(m));
    }

    @Test
    void nodesHoldPodsHoldRanksWithGpuAndNics() {
        JobLayout l = layout(true);
        assertEquals(List.of("node-a", "node-b"), l.boxes(JobLayout.Kind.NODE).stream().map(JobLayout.Box::label).toList());
        assertEquals(List.of("worker-1", "worker-0"), l.boxes(JobLayout.Kind.POD).stream().map(JobLayout.Box::label).toList(),
                "pods of the job only, in node order (coredns is not the job's)");
        assertEquals(4, l.boxes(JobLayout.Kind.RANK).size());
        JobLayout.Box r0 = l.box("rank:0");
        assertEquals("pod:worker-0", r0.parent());
        assertEquals("node:node-b", l.box("pod:worker-0").parent());
        assertTrue(r0.detail().contains("GPU 0 (NVML 4)"), r0.detail());
        assertTrue(r0.detail().contains("mlx5_0:1/IB"), r0.detail());
        // every rank lies inside its pod, every pod inside its node
        for (JobLayout.Box b : l.boxes()) {
            if (b.parent() != null) {
                JobLayout.Box p = l.box(b.parent());
                assertTrue(b.x() >= p.x() && b.y() >= p.y() && b.x() + b.w() <= p.x() + p.w() && b.y() + b.h() <= p.y() + p.h(),
                        b.key() + " in " + p.key());
            }
        }
        // nodes do not overlap
        JobLayout.Box a = l.box("node:node-a");
        JobLayout.Box b = l.box("node:node-b");
        assertTrue(a.x() + a.w() <= b.x(), "node-a left of node-b");
    }

    @Test
    void edgesCarryTheSlowestTransportOfThePair() {
        JobLayout l = layout(true);
        assertEquals(List.of(new JobLayout.Edge(0, 1, Transport.P2P, 1), new JobLayout.Edge(1, 2, Transport.NET_IB, 2),
                new JobLayout.Edge(2, 3, Transport.SHM, 1)), l.edges());
    }

    @Test
    void withoutKubernetesTheNcclHostIsTheNode() {
        JobLayout l = layout(false);
        assertEquals(List.of("worker-0", "worker-1"), l.boxes(JobLayout.Kind.NODE).stream().map(JobLayout.Box::label).toList());
        assertTrue(l.boxes(JobLayout.Kind.POD).isEmpty());
        assertEquals("node:worker-0", l.box("rank:1").parent());
    }

    @Test
    void findingSubjectsMarkTheirBoxes() {
        JobLayout l = layout(true);
        Set<String> m = l.marked(List.of(new Subject.RankRef("c1", 3, "worker-1", "rank 3"),
                new Subject.PodRef("ml", "worker-0", "ml/worker-0"), new Subject.K8sNodeRef("node-a", "node-a"),
                new Subject.PodRef("ml", "gone", "ml/gone")));
        assertEquals(Set.of("rank:3", "pod:worker-0", "node:node-a"), m);
        assertEquals(Set.of("rank:1"), l.marked(List.of(new Subject.NicRef("worker-0", "mlx5_1", "worker-0 mlx5_1"))));
        assertTrue(layout(false).marked(List.of(new Subject.HostRef("worker-1", "worker-1"))).contains("node:worker-1"));
    }

    @Test
    void sameInputsSameLayout() {
        JobLayout a = layout(true);
        JobLayout b = layout(true);
        assertEquals(a.boxes(), b.boxes());
        assertEquals(a.edges(), b.edges());
        assertNotNull(a.box("rank:2"));
        assertTrue(JobLayout.of(FabricModel.empty(), RankMap.of(FabricModel.empty())).isEmpty());
    }
}
