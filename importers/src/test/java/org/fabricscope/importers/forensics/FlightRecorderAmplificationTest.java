package org.fabricscope.importers.forensics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Diagnostic;
import org.junit.jupiter.api.Test;

/**
 * Pickles whose memo lets a megabyte stand for gigabytes (one string or list given to every entry), and
 * keys built to share one hash: each dump is refused by name, naming the limit, in seconds and without
 * running out of memory, and the good dump beside it is read. Before these bounds the first took
 * minutes and 5 GB and ended in an out-of-memory crash.
 */
class FlightRecorderAmplificationTest {
    private static final String MEGABYTE = "x".repeat(1 << 20);

    @Test
    void aMegabyteNameSharedByEveryStackFrameIsRefusedByItsCharacterCount() {
        List<Object> entries = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            Map<String, Object> e = FlightRecorderLargeJobTest.entry(i + 1, "completed");
            List<Object> frames = new ArrayList<>();
            for (int k = 0; k < 8; k++) {
                frames.add(new LinkedHashMap<>(Map.of("name", MEGABYTE, "filename", "f", "line", i * 8 + k)));
            }
            e.put("frames", frames);
            entries.add(e);
        }
        assertRefused(entries, "FrEntryFields.MAX_CHARS");
    }

    @Test
    void aMegabyteOperationNameGivenToEveryEntryIsRefused() {
        List<Object> entries = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            Map<String, Object> e = FlightRecorderLargeJobTest.entry(i + 1, "completed");
            e.put("profiling_name", MEGABYTE);
            e.put("state", MEGABYTE);
            entries.add(e);
        }
        assertRefused(entries, "FrEntryFields.MAX_CHARS");
    }

    @Test
    void oneListOfShapesGivenToEveryEntryIsRefusedByItsItemCount() {
        List<Object> shapes = new ArrayList<>();
        for (int k = 0; k < 150_000; k++) {
            shapes.add(List.of(k % 200));
        }
        List<Object> entries = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            Map<String, Object> e = FlightRecorderLargeJobTest.entry(i + 1, "completed");
            e.put("input_sizes", shapes);
            entries.add(e);
        }
        assertRefused(entries, "values");
    }

    @Test
    void oneMegabyteMemberListGivenToTwoThousandGroupsIsRefusedByItsMembershipCount() {
        Map<String, Object> d = FlightRecorderLargeJobTest.dump(2, 0, 3);
        String members = java.util.stream.IntStream.range(0, 150_000).boxed().toList().toString();
        Map<String, Object> cfg = new LinkedHashMap<>();
        for (int g = 0; g < 2000; g++) {
            cfg.put(String.valueOf(g), new LinkedHashMap<>(Map.of("name", String.valueOf(g), "desc", "d", "ranks", members)));
        }
        d.put("pg_config", cfg);
        assertRefused(d, "FlightRecorderReader.MAX_MEMBERSHIPS");
    }

    @Test
    void dictKeysBuiltToShareOneHashAreRefusedInLinearTime() {
        Map<String, Object> d = FlightRecorderLargeJobTest.dump(2, 0, 3);
        Map<String, Object> status = new LinkedHashMap<>();
        for (String k : collidingStrings(60_000)) {
            status.put(k, new LinkedHashMap<>(Map.of("last_enqueued_collective", 1)));
        }
        d.put("pg_status", status);
        assertRefused(d, "PickleDict.MAX_PROBES");
    }

    @Test
    void shapesBuiltToShareOneHashAreSharedInLogarithmicTime() {
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            SharedValues shared = new SharedValues();
            int n = 200_000;
            List<List<List<Long>>> made = new ArrayList<>();
            for (long i = 1; i <= n; i++) {
                // [[i, 2^30 - 31 i]]: every one hashes as 961 + 2^30
                made.add(shared.share(List.of(List.of(i, (1L << 30) - 31 * i))));
            }
            assertEquals(1, made.stream().map(List::hashCode).distinct().count());
            assertSame(made.get(n / 2), shared.share(List.of(List.of(n / 2 + 1L, (1L << 30) - 31 * (n / 2 + 1L)))));
        });
    }

    /** Strings of {@code Aa}/{@code BB} pairs: all share one {@code String.hashCode}. */
    static List<String> collidingStrings(int n) {
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            StringBuilder b = new StringBuilder();
            for (int bit = 0; bit < 17; bit++) {
                b.append((i >> bit & 1) == 0 ? "Aa" : "BB");
            }
            out.add(b.toString());
        }
        return out;
    }

    private static void assertRefused(List<Object> entries, String limit) {
        Map<String, Object> d = FlightRecorderLargeJobTest.dump(2, 0, 0);
        d.put("entries", entries);
        assertRefused(d, limit);
    }

    /** The hostile dump as rank 0 beside a good rank 1: refused by name within seconds, the good one read. */
    private static void assertRefused(Map<String, Object> hostile, String limit) {
        byte[] pickle = FrPickles.pickle(hostile);
        assertTrue(pickle.length < 16 << 20, "the pickle is small: " + pickle.length);
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            Map<String, byte[]> files = new LinkedHashMap<>();
            files.put("fr/nccl_trace_rank_0", pickle);
            files.put("fr/nccl_trace_rank_1", FrPickles.pickle(FlightRecorderLargeJobTest.dump(2, 1, 3)));
            FabricModel m = FrPickles.load(files);
            assertEquals(List.of("fr/nccl_trace_rank_1"), m.forensics().flightRecorder().stream()
                    .map(x -> x.source()).toList(), ForensicsFixtures.diagnostics(m));
            Diagnostic why = m.diagnostics().stream().filter(x -> x.source().equals("fr/nccl_trace_rank_0"))
                    .findFirst().orElseThrow();
            assertTrue(why.message().contains(limit) && why.message().contains("not read"), why.toString());
        });
    }
}
