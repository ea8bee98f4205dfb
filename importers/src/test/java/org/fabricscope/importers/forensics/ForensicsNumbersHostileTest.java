package org.fabricscope.importers.forensics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.forensics.InspectorCommunicator;
import org.fabricscope.model.forensics.NcclTestRun;
import org.fabricscope.model.forensics.RasCommunicator;
import org.fabricscope.model.forensics.RasRank;
import org.fabricscope.model.forensics.RasStatus;
import org.junit.jupiter.api.Test;

/**
 * Numbers at or past 2^31 and 2^64 in RAS (text and JSON), nccl-tests (text and JSON) and NCCL Inspector
 * output: each is a diagnostic naming the file and line that skips its record, never an internal error,
 * never wrapped onto a real rank; the records around it are kept.
 */
class ForensicsNumbersHostileTest {
    private static final String RAS_HEAD = """
            NCCL version 2.28.9 compiled with CUDA 13.0
            CUDA runtime version 13000, driver version 13000

            Job summary
            ===========

              Nodes  Processes         GPUs  Processes     GPUs
            (total)   per node  per process    (total)  (total)
                  1          2            1          2        4

            Errors
            ======

            """;

    @Test
    void rasTextNumbersPastTheirRangeSkipTheirLine() {
        String text = RAS_HEAD + """
                INCOMPLETE
                  Missing communicator data from 2 job processes
                  Process 2147483648 on node 192.0.2.2 managing GPU 1
                  Process 2047 on node 192.0.2.2 managing GPU 1

                #0-0 (374420825985ea13) INCOMPLETE,MISMATCH
                  Missing communicator data from 2147483648 ranks
                  1 rank has launched up to operation 18446744073709551616
                  Rank 0 has launched up to operation 18446744073709551616 -- GPU 0 managed by process 2046 on node 192.0.2.2
                  Rank 18446744073709551617 -- GPU 1 managed by process 2047 on node 192.0.2.2
                  Rank 2 -- GPU 4294967296 managed by process 2047 on node 192.0.2.2
                  Rank 3 has launched up to operation 7 -- GPU 3 managed by process 99999999999 on node 192.0.2.2
                  Rank 1 has launched up to operation 5 -- GPU 1 managed by process 2047 on node 192.0.2.2
                Encountered 2147483647 communication timeouts
                Encountered 1 communication timeout
                """;
        FabricModel m = TestSupport.importTexts("ras-hostile.txt", text).model();
        String diags = ForensicsFixtures.diagnostics(m);
        assertFalse(diags.contains("internal error"), diags);
        for (String bad : List.of("pid 2147483648", "missing rank count 2147483648", "operation count 18446744073709551616",
                "rank 18446744073709551617", "GPU 4294967296", "pid 99999999999", "timeout count (sum) 2147483648")) {
            assertTrue(diags.contains(bad + " is out of range"), bad + " in\n" + diags);
        }
        int line = lineOf(text, "Process 2147483648");
        assertTrue(m.diagnostics().stream().anyMatch(d -> d.source().equals("ras-hostile.txt") && d.line() == line
                && d.message().contains("skipped")), diags);
        RasStatus s = m.forensics().ras().get(0);
        assertEquals(1, s.missingProcesses().size(), "the good process line is kept");
        assertEquals(2047, s.missingProcesses().get(0).pid());
        RasCommunicator c = s.communicators().get(0);
        assertEquals(List.of(1), c.ranks().stream().map(RasRank::rank).toList(), "only the good rank line is kept");
        assertEquals(5L, c.ranks().get(0).collectiveCounts().get("collective"));
        assertEquals(2147483647, s.timeouts());
    }

    @Test
    void rasJsonRankPast2To32IsNotWrappedOntoRankZero() {
        String json = """
                {
                  "nccl_version": "2.28.9",
                  "timestamp": "2026-11-23 08:08:01",
                  "communicators": [
                    {
                      "hash": "0x374420825985ea13",
                      "size": 2,
                      "ranks": [
                        {"rank": 4294967296, "host": "192.0.2.9", "pid": 666, "cuda_dev": 0, "nvml_dev": 0},
                        {"rank": 1, "host": "192.0.2.2", "pid": 2047, "cuda_dev": 1, "nvml_dev": 1,
                         "collective_counts": {"AllReduce": 18446744073709551616}},
                        {"rank": 0, "host": "192.0.2.2", "pid": 2046, "cuda_dev": 0, "nvml_dev": 0,
                         "collective_counts": {"AllReduce": 3}}
                      ],
                      "missing_ranks": []
                    },
                    {"hash": "0x1", "size": 2147483648, "ranks": []}
                  ],
                  "ras": {"timeouts_count": 9223372036854775808}
                }
                """;
        FabricModel m = TestSupport.importTexts("ras-hostile.json", json).model();
        String diags = ForensicsFixtures.diagnostics(m);
        assertFalse(diags.contains("internal error"), diags);
        assertTrue(diags.contains("rank 4294967296 is out of range"), diags);
        assertTrue(diags.contains("collective count 18446744073709551616 is out of range"), diags);
        assertTrue(diags.contains("size 2147483648 is out of range"), diags);
        assertTrue(diags.contains("timeouts_count 9223372036854775808 is out of range"), diags);
        int line = lineOf(json, "4294967296");
        assertTrue(m.diagnostics().stream().anyMatch(d -> d.line() == line && d.message().contains("rank 4294967296")),
                diags);
        RasStatus s = m.forensics().ras().get(0);
        assertEquals(1, s.communicators().size(), "the communicator of impossible size is skipped, the other kept");
        List<RasRank> ranks = s.communicators().get(0).ranks();
        assertEquals(1, ranks.size(), ranks.toString());
        assertEquals(0, ranks.get(0).rank());
        assertEquals(2046, ranks.get(0).pid(), "rank 0 is the real one, not the wrapped 2^32");
    }

    @Test
    void ncclTestsNumbersPastTheirRangeSkipTheirLine() {
        String text = """
                # nccl-tests version 2.17.6 nccl-headers=22809 nccl-library=22809
                # Collective test starting: all_reduce_perf
                # nThread 1 nGpus 2 minBytes 8 maxBytes 1024 step: 2(factor) warmup iters: 1 iters: 5 agg iters: 1 validation: 1 graph: 0
                #
                # Using devices
                #  Rank  0 Group  0 Pid   1018 on         vm device  0 [0000:18:00] NVIDIA H200
                #  Rank  1 Group  0 Pid 2147483648 on         vm device  1 [0000:2a:00] NVIDIA H200
                #  Rank 4294967296 Group  0 Pid   1019 on         vm device  1 [0000:2a:00] NVIDIA H200
                #
                #                                                              out-of-place                       in-place
                #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                #        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
                           8             2     float     sum      -1    10.00    0.00    0.00      0    10.00    0.00    0.00      0
                18446744073709551616     2     float     sum      -1    10.00    0.00    0.00      0    10.00    0.00    0.00      0
                          16             4     float     sum      -1    10.00    0.00    0.00 99999999999999999999    10.00    0.00    0.00      0
                          32             8     float     sum      -1    10.00    0.00    0.00      0    10.00    0.00    0.00      0
                # Out of bounds values : 0 OK
                # Avg bus bandwidth    : 0.00
                """;
        FabricModel m = TestSupport.importTexts("all_reduce_perf.txt", text).model();
        String diags = ForensicsFixtures.diagnostics(m);
        assertFalse(diags.contains("internal error"), diags);
        assertTrue(diags.contains("pid 2147483648 is out of range"), diags);
        assertTrue(diags.contains("rank 4294967296 is out of range"), diags);
        assertTrue(diags.contains("size 18446744073709551616 is out of range"), diags);
        assertTrue(diags.contains("#wrong 99999999999999999999 is out of range"), diags);
        int line = lineOf(text, "Pid 2147483648");
        assertTrue(m.diagnostics().stream().anyMatch(d -> d.line() == line), diags);
        NcclTestRun run = m.forensics().ncclTests().get(0);
        assertEquals(1, run.devices().size());
        assertEquals(List.of(8L, 32L), run.rows().stream().map(r -> r.bytes()).toList());
    }

    @Test
    void ncclTestsJsonNumbersPastTheirRangeSkipTheirRecord() {
        String json = """
                {
                  "args": ["./build/all_reduce_perf", "-J"],
                  "start_time": "2026-11-23 08:00:00",
                  "config": {"nthreads": 1, "ngpus": 2, "devices": [
                    {"rank": 0, "group": 0, "pid": 1018, "hostname": "vm", "device": 0},
                    {"rank": 4294967296, "group": 0, "pid": 1019, "hostname": "vm", "device": 1}
                  ]},
                  "results": [
                    {"size": 8, "count": 2, "type": "float", "redop": "sum", "root": -1,
                     "out_of_place": {"time": 10.0, "alg_bw": 0.0, "bus_bw": 0.0, "nwrong": 0}},
                    {"size": 36893488147419103232, "count": 2, "type": "float", "redop": "sum", "root": -1,
                     "out_of_place": {"time": 10.0, "alg_bw": 0.0, "bus_bw": 0.0, "nwrong": 0}}
                  ],
                  "out_of_bounds": {"count": 0, "okay": true}
                }
                """;
        FabricModel m = TestSupport.importTexts("all_reduce_perf.json", json).model();
        String diags = ForensicsFixtures.diagnostics(m);
        assertFalse(diags.contains("internal error"), diags);
        assertTrue(diags.contains("rank 4294967296 is out of range"), diags);
        assertTrue(diags.contains("size 36893488147419103232 is out of range"), diags);
        NcclTestRun run = m.forensics().ncclTests().get(0);
        assertEquals(1, run.devices().size());
        assertEquals(0, run.devices().get(0).rank());
        assertEquals(1, run.rows().size());
    }

    @Test
    void inspectorRankPast2To32OrNegativeSkipsThatRecordOnly() {
        StringBuilder sb = new StringBuilder();
        for (int sn = 1; sn <= 5; sn++) {
            sb.append(record(0, sn)).append('\n').append(record(1, sn)).append('\n');
        }
        String text = sb + record("4294967296", 6) + "\n" + record("-1", 6) + "\n" + record("1", 7).replace(
                "\"coll_sn\":7", "\"coll_sn\":18446744073709551616") + "\n";
        FabricModel m = TestSupport.importTexts("nccl-inspector/node-0-pid100.log", text).model();
        String diags = ForensicsFixtures.diagnostics(m);
        assertFalse(diags.contains("internal error"), diags);
        assertTrue(diags.contains("rank 4294967296 is out of range"), diags);
        assertTrue(diags.contains("rank -1 is out of range"), diags);
        assertTrue(diags.contains("coll_sn 18446744073709551616 is out of range"), diags);
        assertTrue(m.diagnostics().stream().anyMatch(d -> d.line() == 11 && d.message().contains("4294967296")), diags);
        assertTrue(m.diagnostics().stream().anyMatch(d -> d.line() == 12 && d.message().contains("rank -1")), diags);
        List<InspectorCommunicator> c = m.forensics().inspector();
        assertEquals(List.of(0, 1), c.stream().map(InspectorCommunicator::rank).toList());
        assertEquals(5, c.get(0).records(), "rank 0 is not given the record of the wrapped rank 2^32");
        assertEquals(5, c.get(1).records());
        assertEquals(5, c.get(1).lastSeq());
    }

    static String record(Object rank, int sn) {
        return "{\"header\":{\"id\":\"0xabc\",\"rank\":" + rank + ",\"n_ranks\":2,\"nnodes\":1},\"metadata\":"
                + "{\"inspector_output_format_version\":\"v4.0\",\"hostname\":\"node-0\",\"pid\":100},\"coll_perf\":"
                + "{\"coll\":\"AllReduce\",\"coll_sn\":" + sn + ",\"coll_msg_size_bytes\":1048576,"
                + "\"coll_exec_time_us\":100,\"coll_algobw_gbs\":10.0,\"coll_busbw_gbs\":10.0}}";
    }

    static int lineOf(String text, String needle) {
        int at = text.indexOf(needle);
        int line = 1;
        for (int i = 0; i < at; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

}
