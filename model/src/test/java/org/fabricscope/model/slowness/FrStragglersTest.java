package org.fabricscope.model.slowness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.fabricscope.model.forensics.FlightRecorderDump;
import org.fabricscope.model.forensics.FrEntries;
import org.junit.jupiter.api.Test;

class FrStragglersTest {
    static final long T0 = 1_764_000_000_000_000_000L;
    static final List<List<Long>> BUCKET_A = List.of(List.of(25_000_000L));
    static final List<List<Long>> BUCKET_B = List.of(List.of(1_000_000L));

    /**
     * A job of {@code ranks} ranks, {@code steps} steps of 100 ms, two allreduces per step (a large and a small
     * bucket, 5 ms apart); each rank's enqueue jitters by up to {@code jitterMs}; {@code lateRank} enqueues
     * {@code lateMs} late, {@code gpuRank}'s GPU starts them {@code gpuMs} late. Kernel durations are
     * what a collective's physics gives: a rank's kernel starts when it is enqueued (plus its GPU's delay) or when
     * its stream is free, whichever is later, and every rank's ends 3 ms after the last one started; no durations
     * when {@code timing} is off.
     */
    static Map<Integer, FlightRecorderDump> job(int ranks, int steps, double jitterMs, int lateRank, double lateMs,
                                                int gpuRank, double gpuMs, boolean timing, long seed) {
        Random rnd = new Random(seed);
        int n = steps * 2;
        long[][] created = new long[ranks][n];
        long[][] started = new long[ranks][n];
        long[] end = new long[n];
        long[] free = new long[ranks]; // when each rank's stream is free: a kernel waits for the one before it
        for (int s = 0; s < n; s++) {
            long base = T0 + (s / 2) * 100_000_000L + (s % 2) * 5_000_000L;
            for (int r = 0; r < ranks; r++) {
                long c = base + (long) (rnd.nextDouble() * jitterMs * 1e6) + (r == lateRank ? (long) (lateMs * 1e6) : 0);
                created[r][s] = c;
                started[r][s] = Math.max(c + 50_000 + (r == gpuRank ? (long) (gpuMs * 1e6) : 0), free[r]);
            }
            for (int r = 0; r < ranks; r++) {
                end[s] = Math.max(end[s], started[r][s] + 3_000_000L);
            }
            java.util.Arrays.fill(free, end[s]);
        }
        Map<Integer, FlightRecorderDump> out = new TreeMap<>();
        for (int r = 0; r < ranks; r++) {
            FrEntries.Builder b = new FrEntries.Builder(n);
            for (int s = 0; s < n; s++) {
                double dur = timing ? (end[s] - started[r][s]) / 1e6 : -1;
                b.add(s, 0, "0", "default_pg", s + 1, 0, s + 1, "nccl:all_reduce", false, s % 2 == 0 ? BUCKET_A : BUCKET_B,
                        List.of("Float"), s % 2 == 0 ? BUCKET_A : BUCKET_B, List.of("Float"), "completed", created[r][s],
                        0, 0, dur, 600_000, true, List.of());
            }
            out.put(r, new FlightRecorderDump("fr/nccl_trace_rank_" + r, r, "2.10", "2.28.9", Map.of(), Map.of(), b.build()));
        }
        return out;
    }

    static List<Straggler> found(Map<Integer, FlightRecorderDump> dumps, java.util.function.IntFunction<String> host) {
        return FrStragglers.analyse(dumps, host).stream().flatMap(g -> g.stragglers().stream()).toList();
    }

    @Test
    void aRankLateToEveryCollectiveIsNamedWithHowLateAndTheStep() {
        List<FrStragglers.GroupVerdict> v = FrStragglers.analyse(job(4, 30, 1.0, 2, 40, -1, 0, true, 1), r -> "node" + r);
        Straggler s = v.get(0).stragglers().get(0);
        assertEquals(2, s.rank());
        assertEquals(Straggler.Kind.LATE_TO_ENQUEUE, s.kind());
        assertEquals(40, s.lateMs(), 1.5);
        assertEquals(100, s.stepMs(), 1.5, "two collectives per step, 100 ms apart");
        assertEquals(2, s.perStep());
        assertEquals(0.4, s.share(), 0.02);
        assertEquals(60, s.compared());
        assertEquals(60, s.worst());
        assertTrue(s.othersWaitMs() > 35, "the others' kernels wait for it: " + s.othersWaitMs());
        assertTrue(s.confirmed(), "seen from the other side: the others waited");
        assertFalse(s.sameClock());
        assertTrue(s.evidence().get(0).text().matches("process group 0, collective \\d+ \\(nccl:all_reduce\\): rank 2 enqueued it "
                + "(39|40|41)\\.\\d ms after the others' median, its kernel ran .*"), s.evidence().toString());
        assertEquals("fr/nccl_trace_rank_2", s.evidence().get(0).source());
    }

    @Test
    void healthyJitterRaisesNothing() {
        for (long seed = 1; seed <= 20; seed++) {
            assertTrue(found(job(8, 40, 2.0, -1, 0, -1, 0, true, seed), r -> "node" + r).isEmpty(), "seed " + seed);
            assertTrue(found(job(2, 40, 2.0, -1, 0, -1, 0, false, seed), r -> null).isEmpty(), "seed " + seed);
        }
    }

    @Test
    void aSmallButSteadyLeadIsBelowTheThreshold() {
        // always last by 2 ms: under the 5 ms floor, ordinary (one process a little slower at Python)
        assertTrue(found(job(4, 30, 0.5, 1, 2, -1, 0, true, 3), r -> "node" + r).isEmpty());
    }

    @Test
    void withoutTimingAcrossHostsItIsUnconfirmedOnOneHostConfirmed() {
        Map<Integer, FlightRecorderDump> dumps = job(2, 30, 1.0, 1, 30, -1, 0, false, 4);
        Straggler across = found(dumps, r -> "node" + r).get(0);
        assertEquals(1, across.rank());
        assertFalse(across.confirmed(), "two clocks, no durations: a clock offset reads the same");
        assertTrue(Double.isNaN(across.othersWaitMs()));
        Straggler same = found(dumps, r -> "node0").get(0);
        assertTrue(same.confirmed() && same.sameClock(), "one host, one clock");
    }

    @Test
    void aGpuThatStartsItsCollectivesLateWhileEnqueuingOnTime() {
        Straggler s = found(job(4, 30, 1.0, -1, 0, 3, 25, true, 5), r -> "node" + r).get(0);
        assertEquals(3, s.rank());
        assertEquals(Straggler.Kind.LATE_ON_GPU, s.kind());
        assertEquals(27, s.lateMs(), 1.5, "25 ms on the step's first collective, 2 more on the second");
        assertTrue(s.kind().before());
    }

    @Test
    void tooFewCollectivesInCommonIsSaidNotGuessed() {
        FrStragglers.GroupVerdict v = FrStragglers.analyse(job(2, 3, 1.0, 1, 50, -1, 0, true, 6), r -> null).get(0);
        assertTrue(v.stragglers().isEmpty());
        assertEquals("6 collectives in common (8 needed)", v.note());
    }

    @Test
    void onlyTheSequenceNumbersEveryRankHoldsAreCompared() {
        Map<Integer, FlightRecorderDump> dumps = job(2, 30, 1.0, 1, 30, -1, 0, true, 7);
        // rank 0's ring buffer kept only the last 40 collectives
        FlightRecorderDump d0 = dumps.get(0);
        FrEntries all = d0.entryTable();
        FrEntries.Builder b = new FrEntries.Builder(40);
        for (int i = 20; i < all.size(); i++) {
            b.add(all.get(i));
        }
        dumps.put(0, new FlightRecorderDump(d0.source(), 0, d0.version(), d0.commLibVersion(), Map.of(), Map.of(), b.build()));
        Straggler s = found(dumps, r -> null).get(0);
        assertEquals(40, s.compared());
    }

    @Test
    void sequenceNumbersFarApartAreRefusedByNameNotGivenGigabytes() {
        Map<Integer, FlightRecorderDump> dumps = new TreeMap<>();
        for (int r = 0; r < 2; r++) {
            FrEntries.Builder b = new FrEntries.Builder(2);
            for (long seq : new long[] {1, 40_000_000L}) {
                b.add(seq, 0, "0", "default_pg", seq, 0, seq, "nccl:all_reduce", false, BUCKET_A, List.of("Float"), BUCKET_A,
                        List.of("Float"), "completed", T0 + seq, 0, 0, -1, 600_000, true, List.of());
            }
            dumps.put(r, new FlightRecorderDump("fr/nccl_trace_rank_" + r, r, "2.10", "2.28.9", Map.of(), Map.of(), b.build()));
        }
        FrStragglers.GroupVerdict v = FrStragglers.analyse(dumps, r -> null).get(0);
        assertTrue(v.stragglers().isEmpty());
        assertEquals("the ranks' sequence numbers are too far apart to compare", v.note());
    }
}
