package org.fabricscope.model.forensics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The columnar entries give back the records that were added, and the analysis over them answers as
 * the record-per-entry analysis it replaced ({@link LegacyFlightRecorderAnalysis}, kept verbatim) on
 * random dumps: repeated and unordered sequence numbers, point-to-point entries, several pg_ids,
 * names the natural order takes as one, shared and unshared dtypes and shapes, ranks with two dumps.
 */
class FrEntriesTest {
    private static final List<String> FLOAT = List.of("Float");
    private static final List<List<Long>> EIGHT = List.of(List.of(8L));

    @Test
    void recordsComeBackEqualWithTheirSharedInstances() {
        FrEntry a = new FrEntry(1, 0, "0", "default_pg", 1, 0, 1, "nccl:all_reduce", false, EIGHT, FLOAT, EIGHT, FLOAT,
                "completed", 10, 11, 12, 0.5, 600000, true, List.of("f a.py:1"));
        FrEntry b = new FrEntry(2, 1, null, null, -1, 3, 2, null, true, new ArrayList<>(List.of(new ArrayList<>(List.of(4L)))),
                new ArrayList<>(List.of("Half")), List.of(), List.of(), null, 0, 0, 0, -1, -1, false, List.of());
        FrEntries t = FrEntries.copyOf(List.of(a, b));
        assertEquals(List.of(a, b), t);
        assertEquals(2, t.size());
        assertSame(FLOAT, t.get(0).inputDtypes());
        assertSame(EIGHT, t.get(0).inputSizes());
        assertSame(t, FrEntries.copyOf(t));
        assertEquals("", t.get(1).pgName());
        assertEquals(3, t.get(1).p2pSeqId());
        assertTrue(t.p2p(1));
        assertEquals(-1, t.collectiveSeqId(1));
        assertEquals("completed", t.state(0));
        assertEquals(List.of(b, a), t.select(new int[] {1, 0, 1}, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> t.get(2));
        assertThrows(IndexOutOfBoundsException.class, () -> t.recordId(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> t.select(new int[] {5}, 1));
        assertThrows(UnsupportedOperationException.class, () -> t.add(a));
        assertEquals(List.of(), FrEntries.of());
        // a dump keeps its columns as they are, and its entries equal what it was given
        FlightRecorderDump d = new FlightRecorderDump("r0", 0, "", "", Map.of(), Map.of(), List.of(a, b));
        assertEquals(List.of(a, b), d.entries());
        assertSame(d.entries(), d.entryTable());
    }

    @Test
    void theFirstEntryOfACollectiveIsFoundInEveryKindOfList() {
        java.util.Random rnd = new java.util.Random(3);
        for (int round = 0; round < 200; round++) {
            List<FrEntry> plain = new ArrayList<>();
            for (int i = 0, n = rnd.nextInt(12); i < n; i++) {
                plain.add(new FrEntry(i, 0, "0", "", rnd.nextInt(6) - 1, 0, i, "nccl:all_reduce", false, EIGHT, FLOAT,
                        EIGHT, FLOAT, "completed", i, i, i, 1, 600000, true, List.of()));
            }
            FrEntries t = FrEntries.copyOf(plain);
            int[] picks = new int[plain.size()];
            int n = 0;
            for (int i = 0; i < plain.size(); i++) {
                if (rnd.nextBoolean()) {
                    picks[n++] = i;
                }
            }
            List<FrEntry> picked = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                picked.add(plain.get(picks[i]));
            }
            List<FrEntry> selection = t.select(picks, n);
            for (long seq = -2; seq < 6; seq++) {
                FrEntry want = null;
                for (FrEntry e : plain) {
                    if (e.collectiveSeqId() == seq) {
                        want = e;
                        break;
                    }
                }
                assertEquals(want, FrEntries.firstWithCollectiveSeq(plain, seq));
                assertEquals(want, FrEntries.firstWithCollectiveSeq(t, seq));
                FrEntry wantPicked = null;
                for (FrEntry e : picked) {
                    if (e.collectiveSeqId() == seq) {
                        wantPicked = e;
                        break;
                    }
                }
                assertEquals(wantPicked, FrEntries.firstWithCollectiveSeq(selection, seq));
            }
        }
    }

    @Test
    void theAnalysisAnswersAsTheRecordPerEntryOne() {
        Random rnd = new Random(20261125);
        String[] names = {"0", "1", "00", "pg_a"};
        String[] ops = {"nccl:all_reduce", "nccl:broadcast", "nccl:all_to_all", "nccl:gather"};
        String[] states = {"scheduled", "started", "completed"};
        int mismatched = 0;
        for (int round = 0; round < 3000; round++) {
            int ranks = 2 + rnd.nextInt(5);
            List<FlightRecorderDump> dumps = new ArrayList<>();
            for (int d = 0; d < ranks + rnd.nextInt(2); d++) {
                int rank = rnd.nextInt(10) == 0 ? -1 : d % ranks;
                List<FrEntry> entries = new ArrayList<>();
                int n = rnd.nextInt(12);
                for (int i = 0; i < n; i++) {
                    boolean p2p = rnd.nextInt(8) == 0;
                    long seq = rnd.nextInt(10) == 0 ? -1 : rnd.nextInt(8);
                    String op = ops[rnd.nextInt(8) == 0 ? rnd.nextInt(ops.length) : 0];
                    List<String> dtypes = rnd.nextInt(10) == 0 ? List.of("Half") : rnd.nextBoolean() ? FLOAT : new ArrayList<>(FLOAT);
                    List<List<Long>> sizes = rnd.nextInt(10) == 0 ? List.of(List.of(16L)) : rnd.nextBoolean() ? EIGHT
                            : new ArrayList<>(List.of(new ArrayList<>(List.of(8L))));
                    entries.add(new FrEntry(i + rnd.nextInt(3), rnd.nextInt(6) == 0 ? 1 : 0, names[rnd.nextInt(names.length)],
                            "desc" + rnd.nextInt(2), seq, p2p ? rnd.nextInt(4) : -1, i, op, p2p, sizes, dtypes, sizes, dtypes,
                            states[rnd.nextInt(states.length)], i, 0, 0, -1, 600000, false, List.of()));
                }
                Map<String, FrPgStatus> status = rnd.nextBoolean() ? Map.of()
                        : Map.of("0", new FrPgStatus("0", rnd.nextInt(9), rnd.nextInt(9), rnd.nextInt(9)));
                List<Integer> members = new ArrayList<>();
                for (int r = 0; r < ranks; r++) {
                    if (rnd.nextInt(6) != 0) {
                        members.add(r);
                    }
                }
                dumps.add(new FlightRecorderDump("rank" + d, rank, "2.10", "2.28.9",
                        Map.of(names[rnd.nextInt(2)], new FrProcessGroup(names[rnd.nextInt(2)], "g", members)), status, entries));
            }
            List<FlightRecorderDump> in = List.copyOf(dumps);
            String what = "round " + round + ": " + Arrays.toString(in.stream().map(FlightRecorderDump::entries).toArray());
            assertEquals(LegacyFlightRecorderAnalysis.progress(new ArrayList<>(in)), FlightRecorderAnalysis.progress(new ArrayList<>(in)), what);
            List<FrMismatch> expected = LegacyFlightRecorderAnalysis.mismatches(in);
            assertEquals(expected, FlightRecorderAnalysis.mismatches(in), what);
            mismatched += expected.size();
        }
        assertTrue(mismatched > 300, "the random dumps disagree often enough to test the mismatches: " + mismatched);
    }
}
