package org.fabricscope.model.forensics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** Per-group progress and the first disagreeing collective, on small hand-made dumps. */
class FlightRecorderAnalysisTest {
    private static FrEntry coll(long record, String pg, long seq, String op, long size, String dtype, String state) {
        return new FrEntry(record, 0, pg, "g" + pg, seq, 0, seq, "nccl:" + op, false, List.of(List.of(size)),
                List.of(dtype), List.of(List.of(size)), List.of(dtype), state, 1, 0, 0, -1, 600000, false, List.of());
    }

    private static FrEntry p2p(long record, String pg, long p2pSeq) {
        return new FrEntry(record, 0, pg, "g" + pg, 0, p2pSeq, p2pSeq, "nccl:send 0->1", true, List.of(List.of(4L)),
                List.of("Float"), List.of(List.of(4L)), List.of("Float"), "completed", 1, 0, 0, -1, 600000, true, List.of());
    }

    private static FlightRecorderDump dump(int rank, List<Integer> members, Map<String, FrPgStatus> status, FrEntry... entries) {
        return new FlightRecorderDump("rank" + rank, rank, "2.10", "2.28.9",
                Map.of("0", new FrProcessGroup("0", "g0", members)), status, List.of(entries));
    }

    @Test
    void theRankThatNeverEnqueuedTheLeadersPendingCollectiveIsBehind() {
        List<Integer> m = List.of(0, 1, 2);
        List<FlightRecorderDump> d = List.of(
                dump(0, m, Map.of(), coll(1, "0", 1, "all_reduce", 8, "Float", "completed"), coll(2, "0", 2, "all_reduce", 8, "Float", "scheduled")),
                dump(1, m, Map.of(), coll(1, "0", 1, "all_reduce", 8, "Float", "completed"), coll(2, "0", 2, "all_reduce", 8, "Float", "started")),
                dump(2, m, Map.of(), coll(1, "0", 1, "all_reduce", 8, "Float", "completed")));
        ProcessGroupProgress p = FlightRecorderAnalysis.progress(d).get(0);
        assertTrue(p.hangs());
        assertEquals(List.of(2), p.behind().stream().map(RankProgress::rank).toList());
        assertEquals(2, p.ranks().get(0).firstPending().collectiveSeqId());
        assertEquals(2, p.ranks().get(1).lastStarted());
    }

    @Test
    void noHangWhenTheLeadersCompletedOrEveryoneJoined() {
        List<Integer> m = List.of(0, 1);
        // rank 1's dump is older than rank 0's: the collective completed, so rank 1 did join it
        ProcessGroupProgress older = FlightRecorderAnalysis.progress(List.of(
                dump(0, m, Map.of(), coll(1, "0", 1, "all_reduce", 8, "Float", "completed"), coll(2, "0", 2, "all_reduce", 8, "Float", "completed")),
                dump(1, m, Map.of(), coll(1, "0", 1, "all_reduce", 8, "Float", "completed")))).get(0);
        assertFalse(older.hangs());
        ProcessGroupProgress joined = FlightRecorderAnalysis.progress(List.of(
                dump(0, m, Map.of(), coll(2, "0", 2, "all_reduce", 8, "Float", "scheduled")),
                dump(1, m, Map.of(), coll(2, "0", 2, "all_reduce", 8, "Float", "scheduled")))).get(0);
        assertFalse(joined.hangs());
        assertTrue(joined.behind().isEmpty());
    }

    @Test
    void pgStatusIsUsedOnlyForGroupsWithoutPointToPointEntries() {
        List<Integer> m = List.of(0, 1);
        Map<String, FrPgStatus> st = Map.of("0", new FrPgStatus("0", 40, -1, 39));
        RankProgress plain = FlightRecorderAnalysis.progress(dump(0, m, st, coll(1, "0", 5, "all_reduce", 8, "Float", "completed")), "0");
        assertEquals(40, plain.lastEnqueued());
        assertEquals(39, plain.lastCompleted());
        RankProgress withP2p = FlightRecorderAnalysis.progress(dump(0, m, st, coll(1, "0", 5, "all_reduce", 8, "Float", "completed"),
                p2p(2, "0", 40)), "0");
        assertEquals(5, withP2p.lastEnqueued()); // 40 counts the send
        RankProgress none = FlightRecorderAnalysis.progress(dump(0, m, st), "0");
        assertTrue(none.noRecord());
    }

    @Test
    void theMinorityIsTheCulpritAndTheFirstDisagreementIsReported() {
        List<Integer> m = List.of(0, 1, 2);
        List<FlightRecorderDump> d = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            String op = r == 2 ? "all_gather" : "all_reduce";
            d.add(dump(r, m, Map.of(), coll(1, "0", 1, "all_reduce", 8, "Float", "completed"),
                    coll(2, "0", 2, op, 8, "Float", "completed"), coll(3, "0", 3, "all_reduce", r == 1 ? 4 : 8, "Float", "completed")));
        }
        List<FrMismatch> mm = FlightRecorderAnalysis.mismatches(d);
        assertEquals(1, mm.size());
        assertEquals(2, mm.get(0).seq());
        assertEquals("op", mm.get(0).what());
        assertEquals(List.of(2), mm.get(0).culprits());
    }

    @Test
    void dtypeDisagreementAndSizesThatMayDiffer() {
        List<Integer> m = List.of(0, 1);
        List<FrMismatch> dtype = FlightRecorderAnalysis.mismatches(List.of(
                dump(0, m, Map.of(), coll(1, "0", 1, "broadcast", 8, "Float", "completed")),
                dump(1, m, Map.of(), coll(1, "0", 1, "broadcast", 8, "BFloat16", "completed"))));
        assertEquals("dtype", dtype.get(0).what());
        assertTrue(dtype.get(0).culprits().isEmpty());
        assertTrue(FlightRecorderAnalysis.mismatches(List.of(
                dump(0, m, Map.of(), coll(1, "0", 1, "all_to_all", 8, "Float", "completed")),
                dump(1, m, Map.of(), coll(1, "0", 1, "all_to_all", 16, "Float", "completed")))).isEmpty());
        assertFalse(FlightRecorderAnalysis.sizesMustMatch("scatter"));
        assertFalse(FlightRecorderAnalysis.sizesMustMatch("gather"));
        assertTrue(FlightRecorderAnalysis.sizesMustMatch("_all_gather_base"));
        assertTrue(FlightRecorderAnalysis.sizesMustMatch("_reduce_scatter_base"));
        assertFalse(FlightRecorderAnalysis.sizesMustMatch("coalesced"));
    }

    /**
     * Group names the natural order takes as one ({@code tp} and {@code TP}, {@code 1} and {@code 01}) are
     * one group for mismatches, with the first name seen; sequence numbers in order, ranks in rank order.
     */
    @Test
    void namesTheNaturalOrderMergesAreOneGroupInRankAndSequenceOrder() {
        List<Integer> m = List.of(0, 1, 2);
        List<FlightRecorderDump> d = List.of(
                dump(2, m, Map.of(), coll(1, "TP", 7, "all_reduce", 8, "Float", "completed"),
                        coll(2, "TP", 3, "all_reduce", 8, "Float", "completed")),
                dump(0, m, Map.of(), coll(1, "tp", 3, "all_reduce", 8, "Float", "completed"),
                        coll(2, "tp", 7, "all_reduce", 4, "Float", "completed")),
                dump(1, m, Map.of(), coll(1, "tp", 3, "all_reduce", 8, "Float", "completed"),
                        coll(2, "tp", 7, "all_gather", 8, "Float", "completed")));
        List<FrMismatch> mm = FlightRecorderAnalysis.mismatches(d);
        assertEquals(1, mm.size());
        assertEquals("tp", mm.get(0).pgName()); // rank 0's name: dumps are taken in rank order
        assertEquals(7, mm.get(0).seq());
        assertEquals("op", mm.get(0).what());
        assertEquals(List.of(0, 1, 2), new ArrayList<>(mm.get(0).entries().keySet()));
        assertEquals(List.of(1), mm.get(0).culprits());
    }
}
