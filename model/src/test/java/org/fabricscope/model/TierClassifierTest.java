package org.fabricscope.model;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.fabric.CaRole;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.fabric.LinkSpeed;
import org.fabricscope.model.fabric.LinkWidth;
import org.fabricscope.model.fabric.Tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class TierClassifierTest {

    static Tier tier(FabricModel m, String name) {
        return m.switches().stream().filter(s -> s.displayName().equals(name)).findFirst().orElseThrow().tier();
    }

    @Test
    void twoTierLeafSpine() {
        Fabrics f = new Fabrics();
        List<FabricNode> spines = List.of(f.sw("spine-1"), f.sw("spine-2"));
        for (int l = 1; l <= 4; l++) {
            FabricNode leaf = f.sw("leaf-" + l);
            for (FabricNode s : spines) {
                f.cable(leaf, s);
                f.cable(leaf, s); // parallel uplinks
            }
            for (int h = 1; h <= 3; h++) {
                f.cable(f.hca("node-" + l + "-" + h, 0), leaf);
            }
        }
        FabricModel m = f.build();
        assertEquals(4, m.switchesByTier().get(Tier.LEAF).size());
        assertEquals(2, m.switchesByTier().get(Tier.SPINE).size());
        assertEquals(0, m.switchesByTier().get(Tier.CORE).size());
        assertEquals(0, m.switchesByTier().get(Tier.OTHER).size());
        assertEquals(12, m.hosts().size());
        assertTrue(m.channelAdapters().stream().allMatch(c -> c.tier() == null));
    }

    /** Two pods of two leaves and two spines; every spine cabled to two cores. */
    static Fabrics threeTier(boolean emptyThirdPod) {
        Fabrics f = new Fabrics();
        List<FabricNode> cores = List.of(f.sw("core-1"), f.sw("core-2"));
        int pods = emptyThirdPod ? 3 : 2;
        for (int p = 1; p <= pods; p++) {
            List<FabricNode> spines = List.of(f.sw("pod" + p + "-spine-1"), f.sw("pod" + p + "-spine-2"));
            for (FabricNode s : spines) {
                for (FabricNode c : cores) {
                    f.cable(s, c);
                }
            }
            for (int l = 1; l <= 2; l++) {
                FabricNode leaf = f.sw("pod" + p + "-leaf-" + l);
                for (FabricNode s : spines) {
                    f.cable(leaf, s);
                }
                if (p <= 2) {
                    f.cable(f.hca("pod" + p + "-node-" + l, 0), leaf);
                }
            }
        }
        return f;
    }

    @Test
    void threeTierFatTree() {
        FabricModel m = threeTier(false).build();
        for (FabricNode s : m.switches()) {
            String n = s.displayName();
            Tier want = n.contains("leaf") ? Tier.LEAF : n.contains("spine") ? Tier.SPINE : Tier.CORE;
            assertEquals(want, s.tier(), n);
        }
    }

    @Test
    void podWithNoHostsYetKeepsItsTiers() {
        // like Selene's MSPINE4-01 / MLG01-05: only reachable down from the core
        FabricModel m = threeTier(true).build();
        assertEquals(Tier.SPINE, tier(m, "pod3-spine-1"));
        assertEquals(Tier.LEAF, tier(m, "pod3-leaf-1"));
        assertEquals(Tier.CORE, tier(m, "core-1"));
        assertEquals(Tier.LEAF, tier(m, "pod1-leaf-1"));
        assertEquals(Tier.SPINE, tier(m, "pod2-spine-2"));
    }

    @Test
    void railOptimised() {
        // 4 hosts x 4 rails: HCA i of every host goes to rail leaf i; each rail leaf to both spines
        Fabrics f = new Fabrics();
        List<FabricNode> spines = List.of(f.sw("spine-a"), f.sw("spine-b"));
        List<FabricNode> rails = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            FabricNode leaf = f.sw("rail-" + r);
            rails.add(leaf);
            for (FabricNode s : spines) {
                f.cable(leaf, s);
            }
        }
        for (int h = 1; h <= 4; h++) {
            for (int r = 0; r < 4; r++) {
                f.cable(f.hca("gpu-" + h, r), rails.get(r));
            }
        }
        FabricModel m = f.build();
        assertEquals(4, m.switchesByTier().get(Tier.LEAF).size());
        assertEquals(2, m.switchesByTier().get(Tier.SPINE).size());
        assertEquals(4, m.hosts().size());
        assertEquals(4, m.host("gpu-3").adapters().size());
        assertEquals(List.of(), m.switchesByTier().get(Tier.CORE));
    }

    @Test
    void noHostsMeansOther() {
        Fabrics f = new Fabrics();
        f.cable(f.sw("a"), f.sw("b"));
        FabricModel m = f.build();
        assertTrue(m.switches().stream().allMatch(s -> s.tier() == Tier.OTHER));
    }

    @Test
    void sharpAndSwitchManagementCasAreNotHosts() {
        Fabrics f = new Fabrics();
        FabricNode leaf = f.sw("leaf-1");
        FabricNode spine = f.sw("spine-1");
        f.cable(leaf, spine);
        FabricNode sharp = f.ca("Mellanox Technologies Aggregation Node", leaf.sysImgGuid());
        f.cable(sharp, leaf);
        FabricNode mgmt = f.ca("switch-mgmt-cpu", spine.sysImgGuid());
        f.cable(mgmt, spine);
        FabricNode managed = f.ca("MF0;spine-1:MQM8700/U1", 0);
        f.cable(managed, spine);
        FabricNode host = f.hca("dgx-01", 0);
        f.cable(host, leaf);
        FabricModel m = f.build();
        assertEquals(CaRole.SHARP_AGGREGATION, sharp.role());
        assertEquals(CaRole.SWITCH_MANAGEMENT, mgmt.role());
        assertEquals(CaRole.SWITCH_MANAGEMENT, managed.role());
        assertEquals(CaRole.HOST, host.role());
        assertEquals(List.of("dgx-01"), new ArrayList<>(m.hosts().keySet()));
        assertFalse(sharp.isHostAdapter());
        assertNull(sharp.host());
        // spine has only non-host CAs: it is not made a leaf by them
        assertEquals(Tier.LEAF, leaf.tier());
        assertEquals(Tier.SPINE, spine.tier());
    }

    @Test
    void theGraphIsMadeOnceWhenThreadsAskForItTogether() throws Exception {
        Fabrics f = new Fabrics();
        FabricNode a = f.sw("leaf-1");
        FabricNode b = f.sw("spine-1");
        for (int i = 0; i < 200; i++) {
            f.cable(a, b);
        }
        FabricModel m = f.build();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            List<java.util.concurrent.Future<Object>> got = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                got.add(pool.submit(() -> {
                    go.await();
                    return m.graph();
                }));
            }
            go.countDown();
            Object first = got.get(0).get();
            for (var g : got) {
                assertTrue(g.get() == first, "one graph for every thread");
            }
            assertEquals(200, m.graph().getAllEdges(a, b).size());
            assertEquals(200, m.cableGraph().edgeSet().size());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void parallelCablesAreSeparateEdges() {
        Fabrics f = new Fabrics();
        FabricNode a = f.sw("leaf-1");
        FabricNode b = f.sw("spine-1");
        Cable c1 = f.cable(a, b);
        Cable c2 = f.cable(a, b);
        Cable c3 = f.cable(b, a);
        f.cable(f.hca("h", 0), a);
        FabricModel m = f.build();
        assertEquals(3, m.graph().getAllEdges(a, b).size());
        assertTrue(m.graph().getAllEdges(a, b).containsAll(List.of(c1, c2, c3)));
        assertEquals(4, m.cables().size());
        assertEquals(3, m.cableGraph().getAllEdges(b, a).size());
        // host membership edges are in graph() but not in cableGraph()
        Host h = m.host("h");
        assertEquals(1, m.graph().edgesOf(h).size());
        assertFalse(m.cableGraph().containsVertex(h));
    }

    @Test
    void theSameLinkReportedTwiceIsOneCable() {
        Fabrics f = new Fabrics();
        FabricNode a = f.sw("leaf-1");
        FabricNode b = f.sw("spine-1");
        FabricModelBuilder bl = f.builder();
        Evidence e = Evidence.at("x", 1, "t");
        bl.link(bl.port(a, 7), bl.port(b, 9), LinkWidth.X4, null, e);
        bl.link(bl.port(b, 9), bl.port(a, 7), null, LinkSpeed.NDR, e);
        bl.link(bl.port(a, 7), bl.port(b, 10), LinkWidth.X4, LinkSpeed.NDR, e); // conflicting report
        FabricModel m = f.build();
        assertEquals(1, m.cables().size());
        assertEquals("4xNDR", m.cables().get(0).rateToken());
        assertEquals(1, m.diagnostics().stream().filter(d -> d.severity() == Severity.WARNING).count());
    }

    @Test
    void aPortCabledToItselfAndReportedAgainIsOneCable() {
        Fabrics f = new Fabrics();
        FabricNode a = f.sw("leaf-1");
        FabricNode b = f.sw("spine-1");
        FabricModelBuilder bl = f.builder();
        Evidence e = Evidence.at("x", 1, "t");
        bl.link(bl.port(a, 3), bl.port(a, 3), LinkWidth.X4, null, e); // a loopback plug
        bl.link(bl.port(a, 3), bl.port(a, 3), null, LinkSpeed.HDR, e);
        bl.link(bl.port(a, 3), bl.port(b, 1), LinkWidth.X4, LinkSpeed.HDR, e); // port 3 is taken
        bl.link(bl.port(b, 1), bl.port(a, 4), LinkWidth.X4, LinkSpeed.HDR, e);
        FabricModel m = f.build();
        assertEquals(2, m.cables().size());
        assertEquals("4xHDR", m.cables().get(0).rateToken());
        assertTrue(m.cables().get(0).a() == m.cables().get(0).b());
        assertEquals(1, m.diagnostics().stream().filter(d -> d.severity() == Severity.WARNING).count());
    }

    @Test
    void aDerivedValueIsComputedOnceForConcurrentCallersAndAFailureIsNotKept() throws Exception {
        Fabrics f = new Fabrics();
        f.cable(f.sw("leaf-1"), f.sw("spine-1"));
        FabricModel m = f.build();
        Object key = new Object();
        java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            List<java.util.concurrent.Future<Object>> got = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                got.add(pool.submit(() -> {
                    go.await();
                    return m.derived(key, model -> {
                        runs.incrementAndGet();
                        try {
                            Thread.sleep(50); // long enough for the others to arrive while it runs
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return new Object();
                    });
                }));
            }
            go.countDown();
            Object first = got.get(0).get();
            for (var g : got) {
                assertTrue(g.get() == first, "one value for every thread");
            }
            assertEquals(1, runs.get());
        } finally {
            pool.shutdownNow();
        }
        Object other = new Object();
        IllegalStateException thrown = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> m.derived(other, model -> {
                    throw new IllegalStateException("boom");
                }));
        assertEquals("boom", thrown.getMessage());
        assertEquals("again", m.derived(other, model -> "again"));
        assertEquals("again", m.derived(other, model -> "not asked"));
    }
}
