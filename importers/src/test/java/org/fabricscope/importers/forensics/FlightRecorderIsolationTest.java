package org.fabricscope.importers.forensics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Finding;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real dumps of a hang (2x H200, PyTorch 2.11: rank 1 never joined all_reduce 4) with one bad dump
 * beside them, made from the real rank 0 dump: the hang is still found, naming rank 1, and the bad dump
 * is named by a diagnostic. Bad dumps that claim rank 1 would take its place if believed; the others
 * claim rank 2, which the job's default group does not have.
 */
class FlightRecorderIsolationTest {
    private static final Path HANG = ForensicsFixtures.CAPTURES.resolve("hang/fr");
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @ValueSource(strings = {"seq-2^64", "seq-1e400", "seq-negative", "rank-key-past-2^32", "duplicate-keys-json",
        "duplicate-keys-pickle", "nested-63-deep", "trailing-garbage-json", "trailing-garbage-pickle", "another-job",
        "rank-outside-the-group", "same-rank-twice"})
    void theHangIsFoundWithOneBadDumpBeside(String bad) throws Exception {
        assumeTrue(Files.isDirectory(HANG), "captures not present");
        Map<String, byte[]> files = new LinkedHashMap<>();
        for (Path p : ForensicsFixtures.files(HANG)) {
            files.put("fr/" + p.getFileName(), Files.readAllBytes(p));
        }
        byte[] rank0 = files.get("fr/nccl_trace_rank_0");
        Map.Entry<String, byte[]> dump = badDump(bad, rank0);
        files.put(dump.getKey(), dump.getValue());
        FabricModel m = FrPickles.load(files);
        List<Finding> hang = ForensicsFixtures.findings(m, "collective-hang");
        assertEquals(1, hang.size(), bad + ": " + ForensicsFixtures.diagnostics(m));
        assertTrue(hang.get(0).title().startsWith(
                "Process group 0 (default_pg) hangs in all_reduce (seq 4): rank 1 never joined it"), hang.get(0).title());
        List<Diagnostic> named = m.diagnostics().stream().filter(d -> d.source().equals(dump.getKey())
                || d.message().contains(dump.getKey())).toList();
        assertTrue(!named.isEmpty(), bad + ": nothing names " + dump.getKey() + "\n" + ForensicsFixtures.diagnostics(m));
    }

    /** The bad dump's name and bytes. */
    private static Map.Entry<String, byte[]> badDump(String bad, byte[] rank0) throws Exception {
        return switch (bad) {
            case "seq-2^64" -> json("fr/nccl_trace_rank_2.json", rank0, d -> lastEntry(d, "collective_seq_id",
                    new java.math.BigInteger("18446744073709551621")));
            case "seq-1e400" -> Map.entry("fr/nccl_trace_rank_1.json", jsonText(rank0, d -> d)
                    .replace("\"collective_seq_id\":4", "\"collective_seq_id\":1e400").getBytes(StandardCharsets.UTF_8));
            case "seq-negative" -> json("fr/nccl_trace_rank_2.json", rank0, d -> lastEntry(d, "collective_seq_id", -7));
            case "rank-key-past-2^32" -> json("fr/nccl_trace_rank_2.json", rank0, d -> {
                d.put("rank", (1L << 32) + 1); // wrapped to rank 1 and took its place
                return d;
            });
            case "duplicate-keys-json" -> Map.entry("fr/nccl_trace_rank_1.json", (jsonText(rank0, d -> d)
                    .replaceFirst("\\}$", ",\"pg_status\":{\"0\":{\"last_enqueued_collective\":99}}}"))
                    .getBytes(StandardCharsets.UTF_8));
            case "duplicate-keys-pickle" -> Map.entry("fr/again/nccl_trace_rank_1", duplicateKeyPickle(rank0));
            case "nested-63-deep" -> Map.entry("fr/nccl_trace_rank_2.json", (jsonText(rank0, d -> d)
                    .replaceFirst("\\}$", ",\"thread_info\":" + "[".repeat(62) + "]".repeat(62) + "}"))
                    .getBytes(StandardCharsets.UTF_8));
            case "trailing-garbage-json" -> Map.entry("fr/nccl_trace_rank_1.json",
                    (jsonText(rank0, d -> d) + "} {\"entries\": []}").getBytes(StandardCharsets.UTF_8));
            case "trailing-garbage-pickle" -> {
                byte[] p = java.util.Arrays.copyOf(rank0, rank0.length + 7);
                System.arraycopy("garbage".getBytes(StandardCharsets.US_ASCII), 0, p, rank0.length, 7);
                yield Map.entry("fr/again/nccl_trace_rank_1", p);
            }
            case "another-job" -> json("fr/nccl_trace_rank_1.json", rank0, d -> {
                @SuppressWarnings("unchecked")
                Map<String, Object> g = (Map<String, Object>) ((Map<String, Object>) d.get("pg_config")).get("0");
                g.put("ranks", "[0, 1, 2, 3, 4, 5, 6, 7]");
                return d;
            });
            case "rank-outside-the-group" -> json("fr/nccl_trace_rank_5.json", rank0, d -> d);
            case "same-rank-twice" -> json("fr/nccl_trace_rank_0.json", rank0, d -> d);
            default -> throw new IllegalArgumentException(bad);
        };
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> lastEntry(Map<String, Object> d, String key, Object value) {
        List<Object> entries = (List<Object>) d.get("entries");
        ((Map<String, Object>) entries.get(entries.size() - 1)).put(key, value);
        return d;
    }

    private static Map.Entry<String, byte[]> json(String name, byte[] pickle, UnaryOperator<Map<String, Object>> change)
            throws Exception {
        return Map.entry(name, jsonText(pickle, change).getBytes(StandardCharsets.UTF_8));
    }

    private static String jsonText(byte[] pickle, UnaryOperator<Map<String, Object>> change) throws Exception {
        return JSON.writeValueAsString(change.apply(FrPickles.read(pickle)));
    }

    /** The real dump with its top-level 'version' given a second time, as a pickle. */
    private static byte[] duplicateKeyPickle(byte[] rank0) {
        // the top dict opens with EMPTY_DICT, MEMOIZE or BINPUT, then MARK: a pair set before the others
        byte[] extra = {'X', 7, 0, 0, 0, 'v', 'e', 'r', 's', 'i', 'o', 'n', 'X', 1, 0, 0, 0, '9', 's'};
        int at = 3; // after PROTO 2 and EMPTY_DICT
        assertEquals('}', rank0[2]);
        byte[] p = new byte[rank0.length + extra.length];
        System.arraycopy(rank0, 0, p, 0, at);
        System.arraycopy(extra, 0, p, at, extra.length);
        System.arraycopy(rank0, at, p, at + extra.length, rank0.length - at);
        return p;
    }
}
