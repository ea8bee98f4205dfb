package org.fabricscope.importers.forensics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.forensics.InspectorCommunicator;
import org.fabricscope.model.forensics.NcclTestRun;
import org.fabricscope.model.forensics.PerftestRun;
import org.junit.jupiter.api.Test;

/**
 * Per-file caps of the forensics readers, beside their per-run ones: many long runs in one nccl-tests or
 * perftest file, a communicator per record in Inspector output, and names as long as a line. Each stops
 * at its stated limit with a diagnostic naming it, and what came before is kept.
 */
class ForensicsCapsHostileTest {
    private static final String NCCL_TESTS_HEAD = """
            # nccl-tests version 2.17.6 nccl-headers=22809 nccl-library=22809
            # Collective test starting: all_reduce_perf
            # nThread 1 nGpus 2 minBytes 8 maxBytes 1024 step: 2(factor) warmup iters: 1 iters: 5 agg iters: 1 validation: 1 graph: 0
            #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
            """;

    @Test
    void manyLongNcclTestsRunsStopAtTheFileCap() {
        int runs = NcclTestsReader.MAX_FILE_RECORDS / NcclTestsReader.MAX_ROWS + 1;
        StringBuilder sb = new StringBuilder(runs * NcclTestsReader.MAX_ROWS * 40);
        for (int r = 0; r < runs; r++) {
            sb.append(NCCL_TESTS_HEAD);
            for (int i = 0; i < NcclTestsReader.MAX_ROWS; i++) {
                sb.append(8 * i).append(" 2 float sum -1 1 0 0 0 1 0 0 0\n");
            }
        }
        FabricModel m = TestSupport.importTexts("all_reduce_perf.txt", sb.toString()).model();
        String diags = ForensicsFixtures.diagnostics(m);
        assertTrue(diags.contains("NcclTestsReader.MAX_FILE_RECORDS"), diags);
        assertFalse(diags.contains("internal error"), diags);
        List<NcclTestRun> read = m.forensics().ncclTests();
        assertEquals(runs, read.size());
        assertEquals(NcclTestsReader.MAX_FILE_RECORDS, read.stream().mapToInt(x -> x.rows().size()).sum());
        assertEquals(NcclTestsReader.MAX_ROWS, read.get(0).rows().size(), "the first run is whole");
    }

    @Test
    void manyLongPerftestRunsStopAtTheFileCap() {
        int runs = PerftestReader.MAX_FILE_RECORDS / PerftestReader.MAX_ROWS + 1;
        StringBuilder sb = new StringBuilder(runs * PerftestReader.MAX_ROWS * 40);
        for (int r = 0; r < runs; r++) {
            sb.append("                    RDMA_Write BW Test\n Device         : mlx5_0\n")
                    .append(" #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n");
            for (int i = 0; i < PerftestReader.MAX_ROWS; i++) {
                sb.append(' ').append(2 + i).append(" 5000 0.04 0.04 2.6\n");
            }
        }
        FabricModel m = TestSupport.importTexts("write_bw.txt", sb.toString()).model();
        String diags = ForensicsFixtures.diagnostics(m);
        assertTrue(diags.contains("PerftestReader.MAX_FILE_RECORDS"), diags);
        List<PerftestRun> read = m.forensics().perftests();
        assertEquals(runs, read.size());
        assertEquals(PerftestReader.MAX_FILE_RECORDS, read.stream().mapToInt(x -> x.rows().size()).sum());
    }

    @Test
    void aCommunicatorPerInspectorRecordStopsAtTheCap() {
        StringBuilder sb = new StringBuilder();
        int n = NcclInspectorReader.MAX_COMMS + 50;
        for (int i = 0; i < n; i++) {
            sb.append(ForensicsNumbersHostileTest.record(0, 1).replace("0xabc", "0x" + Integer.toHexString(i + 1)))
                    .append('\n');
        }
        long start = System.nanoTime();
        FabricModel m = TestSupport.importTexts("nccl-inspector/node-0-pid100.log", sb.toString()).model();
        long ms = (System.nanoTime() - start) / 1_000_000;
        String diags = ForensicsFixtures.diagnostics(m);
        assertTrue(diags.contains("NcclInspectorReader.MAX_COMMS"), diags);
        assertTrue(diags.contains("50 Inspector records skipped in all"), diags);
        assertEquals(NcclInspectorReader.MAX_COMMS, m.forensics().inspector().size());
        assertTrue(ms < 60_000, ms + " ms");
    }

    @Test
    void overLongInspectorNamesAndTooManyCollectiveKindsSkipTheirRecords() {
        StringBuilder sb = new StringBuilder();
        sb.append(ForensicsNumbersHostileTest.record(0, 1)).append('\n');
        sb.append(ForensicsNumbersHostileTest.record(0, 2).replace("0xabc", "0x" + "a".repeat(10_000))).append('\n');
        for (int k = 0; k < NcclInspectorReader.MAX_KINDS + 5; k++) {
            sb.append(ForensicsNumbersHostileTest.record(1, 3).replace("AllReduce", "Coll" + k)).append('\n');
        }
        sb.append(ForensicsNumbersHostileTest.record(1, 4).replace("AllReduce", "x".repeat(10_000))).append('\n');
        FabricModel m = TestSupport.importTexts("nccl-inspector/node-0-pid100.log", sb.toString()).model();
        String diags = ForensicsFixtures.diagnostics(m);
        assertTrue(diags.contains("communicator id 0xaaaa"), diags);
        assertTrue(diags.contains("at most " + NcclInspectorReader.MAX_KEY + " characters"), diags);
        assertTrue(diags.contains("NcclInspectorReader.MAX_KINDS"), diags);
        List<InspectorCommunicator> c = m.forensics().inspector();
        assertEquals(2, c.size());
        assertEquals(1, c.get(0).records());
        assertEquals(NcclInspectorReader.MAX_KINDS, c.get(1).collectives().size());
    }

    @Test
    void aNcclTestsHeaderOfThousandsOfColumnsIsRefused() {
        StringBuilder header = new StringBuilder("#       size         count      type   redop    root     time   algbw   busbw "
                + "#wrong");
        while (header.length() < 60_000) {
            header.append(" x");
        }
        StringBuilder sb = new StringBuilder(NCCL_TESTS_HEAD).append(header).append('\n');
        for (int i = 0; i < 50_000; i++) {
            sb.append(8 * i).append(" 2 float sum -1 1 0 0 0\n");
        }
        long start = System.nanoTime();
        FabricModel m = TestSupport.importTexts("all_reduce_perf.txt", sb.toString()).model();
        long ms = (System.nanoTime() - start) / 1_000_000;
        String diags = ForensicsFixtures.diagnostics(m);
        assertTrue(diags.contains("NcclTestsReader.MAX_COLUMNS"), diags);
        assertTrue(m.forensics().ncclTests().stream().allMatch(r -> r.rows().isEmpty()), "no row read by that header");
        assertTrue(ms < 20_000, ms + " ms");
    }
}
