package org.fabricscope.importers.forensics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.fabricscope.importers.core.Head;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.forensics.FlightRecorderDump;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Flight recorder dumps of jobs of 10,000 ranks and more: the default group's members, one string of
 * 60-90 KB near the start of the pickle, fill the 64 KiB head that format detection looks at with
 * printable text, so the head of such a pickle holds almost no control bytes. Detected by the pickle's
 * first bytes, they are read and the hang is found. Dumps made here, as PyTorch 2.11 writes them.
 */
class FlightRecorderLargeJobTest {
    @ParameterizedTest
    @ValueSource(ints = {12_000, 16_384})
    void dumpsOfJobsOfTenThousandRanksAndMoreAreReadAndTheHangFound(int world) {
        Map<String, byte[]> files = new LinkedHashMap<>();
        for (int rank : new int[] {0, 1, 2}) {
            files.put("fr/nccl_trace_rank_" + rank, FrPickles.pickle(dump(world, rank, rank == 2 ? 4 : 5)));
        }
        byte[] first = files.get("fr/nccl_trace_rank_0");
        assertTrue(Head.of(first, first.length).isBinary(), "a pickle's head is binary whatever it holds");
        FabricModel m = FrPickles.load(files);
        List<FlightRecorderDump> dumps = m.forensics().flightRecorder();
        assertEquals(3, dumps.size(), ForensicsFixtures.diagnostics(m));
        assertEquals(world, dumps.get(0).processGroups().get("0").ranks().size());
        List<Finding> hang = ForensicsFixtures.findings(m, "collective-hang");
        assertEquals(1, hang.size(), ForensicsFixtures.diagnose(m).toString());
        assertTrue(hang.get(0).title().contains("rank 2"), hang.get(0).title());
    }

    /**
     * One rank's dump as PyTorch writes it: the default group of {@code world} ranks, collectives 1 to
     * {@code enqueued} on it, the last one not completed.
     */
    static Map<String, Object> dump(int world, int rank, int enqueued) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("version", "2.10");
        Map<String, Object> g = new LinkedHashMap<>();
        g.put("name", "0");
        g.put("desc", "default_pg");
        g.put("ranks", IntStream.range(0, world).boxed().toList().toString());
        d.put("pg_config", new LinkedHashMap<>(Map.of("0", g)));
        d.put("comm_lib_version", "2.28.9");
        Map<String, Object> st = new LinkedHashMap<>();
        st.put("last_enqueued_collective", enqueued);
        st.put("last_started_collective", enqueued);
        st.put("last_completed_collective", enqueued - 1);
        d.put("pg_status", new LinkedHashMap<>(Map.of("0", st)));
        List<Object> entries = new ArrayList<>();
        for (int seq = 1; seq <= enqueued; seq++) {
            entries.add(entry(seq, seq < enqueued ? "completed" : "started"));
        }
        d.put("entries", entries);
        return d;
    }

    static Map<String, Object> entry(int seq, String state) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("record_id", seq - 1);
        e.put("pg_id", 0);
        e.put("process_group", new Object[] {"0", "default_pg"});
        e.put("collective_seq_id", seq);
        e.put("p2p_seq_id", 0);
        e.put("op_id", seq);
        e.put("profiling_name", "nccl:all_reduce");
        e.put("time_created_ns", 1795420934783416548L + seq * 740_000_000L);
        e.put("input_sizes", List.of(List.of(16777216)));
        e.put("input_dtypes", List.of("Float"));
        e.put("output_sizes", List.of(List.of(16777216)));
        e.put("output_dtypes", List.of("Float"));
        e.put("state", state);
        e.put("retired", state.equals("completed"));
        e.put("timeout_ms", 600000);
        e.put("is_p2p", false);
        return e;
    }
}
