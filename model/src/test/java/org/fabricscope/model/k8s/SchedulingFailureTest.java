package org.fabricscope.model.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;

import org.fabricscope.model.k8s.SchedulingFailure.Kind;
import org.fabricscope.model.k8s.SchedulingFailure.Reason;
import org.junit.jupiter.api.Test;

/** The FailedScheduling messages quoted in FORMATS.md section 4.2, and the variants it lists. */
class SchedulingFailureTest {
    @Test
    void insufficientWithPreemptionAndDoubleDot() {
        SchedulingFailure f = SchedulingFailure.parse("0/1 nodes are available: 1 Insufficient nvidia.com/gpu. "
                + "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod..");
        assertEquals(1, f.totalNodes());
        assertEquals(List.of(new Reason(1, Kind.INSUFFICIENT, "nvidia.com/gpu", "Insufficient nvidia.com/gpu")), f.reasons());
        assertEquals(List.of(new Reason(1, Kind.OTHER, "No preemption victims found for incoming pod",
                "No preemption victims found for incoming pod")), f.preemption());
    }

    @Test
    void taintWithEmptyValueAndSingleDot() {
        SchedulingFailure f = SchedulingFailure.parse("0/1 nodes are available: 1 node(s) had untolerated taint "
                + "{node.kubernetes.io/unreachable: }. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.");
        assertEquals(Kind.UNTOLERATED_TAINT, f.reasons().get(0).kind());
        assertEquals("node.kubernetes.io/unreachable: ", f.reasons().get(0).subject());
        assertEquals("Preemption is not helpful for scheduling", f.preemption().get(0).text());
    }

    @Test
    void customSchedulerReasonsAreKeptAsText() {
        SchedulingFailure f = SchedulingFailure.parse("0/4 nodes are available: 1 NodeUnfitPod, 1 node(s) had untolerated taint "
                + "{node.kubernetes.io/unreachable: }, 2 node unregistered. preemption: 0/4 nodes are available: "
                + "1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod..");
        assertEquals(4, f.totalNodes());
        assertEquals(List.of(Kind.OTHER, Kind.UNTOLERATED_TAINT, Kind.OTHER), f.reasons().stream().map(Reason::kind).toList());
        assertEquals("NodeUnfitPod", f.reasons().get(0).text());
        assertEquals(2, f.reasons().get(2).count());
        assertEquals("node unregistered", f.reasons().get(2).text());
        assertEquals(2, f.preemption().size());
        assertEquals(3, f.preemption().get(1).count());
        SchedulingFailure pai = SchedulingFailure.parse("0/3 nodes are available: 1 Pod is waiting for preemptible or free "
                + "resource to appear: cell VC1, GPU 2, 2 Insufficient cpu.");
        assertEquals(Kind.OTHER, pai.reasons().get(0).kind());
        assertEquals("Pod is waiting for preemptible or free resource to appear: cell VC1, GPU 2", pai.reasons().get(0).text());
        assertEquals(new Reason(2, Kind.INSUFFICIENT, "cpu", "Insufficient cpu"), pai.reasons().get(1));
    }

    @Test
    void stringSortedCountsAndAffinity() {
        SchedulingFailure f = SchedulingFailure.parse("0/12 nodes are available: 10 Insufficient aliyun/erdma, "
                + "2 node(s) didn't match Pod's node affinity/selector. preemption: 0/12 nodes are available: "
                + "12 Preemption is not helpful for scheduling..");
        assertEquals(new Reason(10, Kind.INSUFFICIENT, "aliyun/erdma", "Insufficient aliyun/erdma"), f.reasons().get(0));
        assertEquals(Kind.NODE_AFFINITY, f.reasons().get(1).kind());
        assertEquals(Kind.UNSCHEDULABLE,
                SchedulingFailure.parse("0/2 nodes are available: 2 node(s) were unschedulable.").reasons().get(0).kind());
    }

    @Test
    void reasonColonCountVariant() {
        SchedulingFailure f = SchedulingFailure.parse("0/3 nodes are available: Insufficient nvidia.com/gpu: 2, "
                + "node(s) had untolerated taint {gpu: }: 1.");
        assertEquals(new Reason(2, Kind.INSUFFICIENT, "nvidia.com/gpu", "Insufficient nvidia.com/gpu"), f.reasons().get(0));
        assertEquals(1, f.reasons().get(1).count());
        assertEquals(Kind.UNTOLERATED_TAINT, f.reasons().get(1).kind());
    }

    @Test
    void otherMessagesAreNotParsed() {
        assertNull(SchedulingFailure.parse("pod has unbound immediate PersistentVolumeClaims"));
        assertNull(SchedulingFailure.parse(null));
    }
}
