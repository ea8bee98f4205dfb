package org.fabricscope.model.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.LinkSpeed;
import org.fabricscope.model.fabric.LinkWidth;
import org.fabricscope.model.fabric.NodeKind;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.Quantity;
import org.fabricscope.model.k8s.Taint;
import org.junit.jupiter.api.Test;

class ComparisonTest {
    private static final Instant T0 = Instant.parse("2026-11-20T10:00:00Z");

    /** Three switches s1 s2 s3 (GUIDs 1-3); the cables given as {from, fromPort, to, toPort, lanes}. */
    private static FabricModelBuilder fabric(int[][] cables) {
        FabricModelBuilder b = new FabricModelBuilder();
        FabricNode[] sw = new FabricNode[4];
        for (int i = 1; i <= 3; i++) {
            sw[i] = b.node(i, NodeKind.SWITCH);
            b.setDescription(sw[i], "MF0;s" + i + ":MQM8700/U1");
            b.setNodeInfo(sw[i], 41, i, 0x2c9, 0xd2f0);
            b.setSwitchPort0(sw[i], i, 0, Boolean.TRUE);
        }
        int line = 1;
        for (int[] c : cables) {
            LinkWidth w = c[4] == 1 ? LinkWidth.X1 : LinkWidth.X4;
            Port x = b.port(sw[c[0]], c[1]);
            Port y = b.port(sw[c[2]], c[3]);
            b.setPortRate(x, w, LinkSpeed.HDR);
            b.setPortRate(y, w, LinkSpeed.HDR);
            b.link(x, y, w, LinkSpeed.HDR, Evidence.at("net.txt", line++, "cable"));
        }
        return b;
    }

    private static Finding finding(String id, String title, String subject) {
        return new Finding(id, Severity.ERROR, title, List.of(new Subject.HostRef(subject, subject)), List.of(), List.of());
    }

    @Test
    void cablesRemovedMovedAddedAndRateChanges() {
        FabricModel before = fabric(new int[][] {{1, 1, 2, 1, 4}, {1, 2, 3, 1, 4}, {2, 2, 3, 2, 4}}).build();
        // s1/1-s2/1 now 1x; s1/2-s3/1 unplugged; s2/2-s3/2 moved to s2/5-s3/2; s1/9-s2/9 new
        FabricModel after = fabric(new int[][] {{1, 1, 2, 1, 1}, {2, 5, 3, 2, 4}, {1, 9, 2, 9, 4}}).build();
        Comparison c = Comparison.of(before, List.of(), after, List.of());
        List<Change> fabric = c.changes(Change.FABRIC);
        assertEquals(4, fabric.size(), fabric.toString());
        assertEquals(new Change(Change.FABRIC, Change.CHANGED, "s1 port 1 <-> s2 port 1", "rate", "4xHDR", "1xHDR"), fabric.get(0));
        Change moved = fabric.get(1);
        assertEquals(Change.MOVED, moved.kind());
        assertEquals("s2 port 2 <-> s3 port 2", moved.before());
        assertEquals("s2 port 5 <-> s3 port 2", moved.after());
        assertEquals(new Change(Change.FABRIC, Change.REMOVED, "s1 port 2 <-> s3 port 1", "cable", "4xHDR", null), fabric.get(2));
        assertEquals(Change.ADDED, fabric.get(3).kind());
        assertEquals("s1 port 9 <-> s2 port 9", fabric.get(3).subject());
        assertTrue(c.changes(Change.HOSTS).isEmpty());
    }

    @Test
    void theSameCaptureTwiceHasNoChange() {
        int[][] cables = {{1, 1, 2, 1, 4}, {2, 2, 3, 2, 4}};
        Finding f = finding("link-errors", "Link errors on s1 port 1", "s1");
        Comparison c = Comparison.of(fabric(cables).build(), List.of(f), fabric(cables).build(), List.of(f));
        assertTrue(c.isEmpty(), c.toString());
        assertEquals(List.of(f), c.findings().unchanged());
    }

    @Test
    void countersGiveIncreaseResetAndRatePerHourOnlyWithTimes() {
        FabricModelBuilder b = fabric(new int[][] {{1, 1, 2, 1, 4}});
        b.counters(1, 1, 1, null, Map.of("SymbolErrorCounter", 10L, "PortXmitData", 5000L, "LinkDownedCounter", 2L),
                Evidence.at("pq-before", 1, "x"), false, T0);
        FabricModelBuilder a = fabric(new int[][] {{1, 1, 2, 1, 4}});
        a.counters(1, 1, 1, null, Map.of("SymbolErrorCounter", 30L, "PortXmitData", 100L, "LinkDownedCounter", 2L,
                "PortRcvErrors", 4L), Evidence.at("pq-after", 1, "x"), false, T0.plusSeconds(7200));
        List<CounterDelta> d = Comparison.of(b.build(), List.of(), a.build(), List.of()).counters();
        assertEquals(3, d.size(), d.toString()); // LinkDownedCounter did not change
        CounterDelta xmit = d.get(1); // in counter name order
        assertEquals("PortXmitData", xmit.counter());
        assertTrue(xmit.reset());
        assertEquals(100, xmit.delta());
        CounterDelta rcv = d.get(0);
        assertEquals("PortRcvErrors", rcv.counter());
        assertNull(rcv.before());
        assertNull(rcv.perHour());
        CounterDelta sym = d.get(2);
        assertEquals(20, sym.delta());
        assertFalse(sym.reset());
        assertEquals(10.0, sym.perHour(), 1e-9); // 20 over two hours
        assertEquals("s1 port 1: SymbolErrorCounter 10 -> 30 (+20), 10.0/h", sym.text());

        FabricModelBuilder untimed = fabric(new int[][] {{1, 1, 2, 1, 4}});
        untimed.counters(1, 1, 1, null, Map.of("SymbolErrorCounter", 30L), Evidence.at("pq", 1, "x"), false);
        CounterDelta noTime = Comparison.of(b.build(), List.of(), untimed.build(), List.of()).counters().stream()
                .filter(x -> x.counter().equals("SymbolErrorCounter")).findFirst().orElseThrow();
        assertEquals(20, noTime.delta());
        assertNull(noTime.perHour());
    }

    @Test
    void unsignedCountersNearTheTopDoNotLookLikeResets() {
        FabricModelBuilder b = fabric(new int[][] {{1, 1, 2, 1, 4}});
        b.counters(1, 1, 1, null, Map.of("PortXmitData", Long.MAX_VALUE), Evidence.at("a", 1, "x"), false);
        FabricModelBuilder a = fabric(new int[][] {{1, 1, 2, 1, 4}});
        a.counters(1, 1, 1, null, Map.of("PortXmitData", -2L), Evidence.at("b", 1, "x"), false); // 2^64 - 2
        CounterDelta d = Comparison.of(b.build(), List.of(), a.build(), List.of()).counters().get(0);
        assertFalse(d.reset());
        assertEquals("9223372036854775807", Long.toUnsignedString(Long.MAX_VALUE));
        assertEquals(Long.MAX_VALUE, d.delta()); // (2^64 - 2) - (2^63 - 1) = 2^63 - 1
    }

    @Test
    void kubernetesNodesAllocatableLabelsTaints() {
        FabricModelBuilder b = fabric(new int[][] {});
        b.k8s().node(node("gpu-1", Map.of("nvidia.com/gpu", "8"), Map.of("pool", "a"), List.of()));
        b.k8s().node(node("gpu-2", Map.of("nvidia.com/gpu", "8"), Map.of(), List.of()));
        FabricModelBuilder a = fabric(new int[][] {});
        a.k8s().node(node("gpu-1", Map.of("nvidia.com/gpu", "7"), Map.of("pool", "b"),
                List.of(new Taint("nvidia.com/gpu-xid", "79", "NoSchedule"))));
        List<Change> k = Comparison.of(b.build(), List.of(), a.build(), List.of()).changes(Change.KUBERNETES);
        assertEquals(List.of(
                new Change(Change.KUBERNETES, Change.CHANGED, "node gpu-1", "allocatable nvidia.com/gpu", "8", "7"),
                new Change(Change.KUBERNETES, Change.CHANGED, "node gpu-1", "label pool", "a", "b"),
                new Change(Change.KUBERNETES, Change.ADDED, "node gpu-1", "taint nvidia.com/gpu-xid:NoSchedule", null, "79"),
                new Change(Change.KUBERNETES, Change.REMOVED, "node gpu-2", "node", null, null)), k);
    }

    private static K8sNode node(String name, Map<String, String> alloc, Map<String, String> labels, List<Taint> taints) {
        Map<String, Quantity> q = new java.util.LinkedHashMap<>();
        alloc.forEach((k, v) -> q.put(k, Quantity.parse(v)));
        return new K8sNode(name, labels, taints, q, q, Boolean.TRUE, null, false, Evidence.at("nodes.json", 1, name), null);
    }

    @Test
    void findingsNewResolvedUnchangedBySubjectsThenByTitle() {
        Finding errorsS1 = finding("link-errors", "Link errors on s1", "s1");
        Finding errorsS2 = finding("link-errors", "Link errors on s2", "s2");
        Finding tcpOld = finding("tcp-fallback", "Ranks talk over TCP", "host:1031");
        Finding tcpNew = finding("tcp-fallback", "Ranks talk over TCP", "host:2207"); // another pid, same words
        Finding down = finding("link-down", "Cable down", "s3");
        FindingDelta d = FindingDelta.of(List.of(errorsS1, errorsS2, tcpOld), List.of(tcpNew, errorsS1, down));
        assertEquals(List.of(down), d.added());
        assertEquals(List.of(errorsS2), d.resolved());
        assertEquals(List.of(tcpNew, errorsS1), d.unchanged());
    }

    @Test
    // Not a speed target (BENCHMARKS.md holds those): 200,000 findings a side is 4 * 10^10 comparisons if the
    // delta were quadratic, hours, against well under a second when it is linear; the guard is far from both.
    @org.junit.jupiter.api.Timeout(value = 300, unit = java.util.concurrent.TimeUnit.SECONDS)
    void manyFindingsCompareInLinearTime() {
        List<Finding> before = new java.util.ArrayList<>();
        List<Finding> after = new java.util.ArrayList<>();
        for (int i = 0; i < 200_000; i++) {
            before.add(finding("link-errors", "Link errors on p" + i, "p" + i));
            after.add(finding("link-errors", "Link errors on p" + (i + 1), "p" + (i + 1)));
        }
        FindingDelta d = FindingDelta.of(before, after);
        assertEquals(1, d.added().size());
        assertEquals(1, d.resolved().size());
        assertEquals(199_999, d.unchanged().size());
    }
}
