package org.fabricscope.importers.forensics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.Collectors;

import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.forensics.NcclTestRow;
import org.fabricscope.model.forensics.NcclTestRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * nccl-tests output: the real runs of nccl-tests 2.19.6 on 2x H200 (text with every column variant,
 * -J JSON, a corrupted run), launcher prefixes, several runs in a file, the layout of old versions,
 * and rows that do not fit.
 */
class ForensicsNcclTestsTest {
    @BeforeEach
    void captures() {
        assumeTrue(Files.isDirectory(ForensicsFixtures.CAPTURES), "captures not present");
    }

    private static String read(String rel) {
        return new String(ForensicsFixtures.bytes(ForensicsFixtures.CAPTURES.resolve("nccl-tests").resolve(rel)),
                StandardCharsets.UTF_8);
    }

    @Test
    void realAllReduceRunIsReadWhole() {
        FabricModel m = ForensicsFixtures.load(ForensicsFixtures.CAPTURES.resolve("nccl-tests/all_reduce_perf-g2.txt"));
        assertEquals("", ForensicsFixtures.diagnostics(m));
        NcclTestRun r = m.forensics().ncclTests().get(0);
        assertEquals("all_reduce_perf", r.test());
        assertEquals("2.19.6", r.version());
        assertEquals("2.28.9", r.ncclVersion());
        assertEquals(1, r.nThreads());
        assertEquals(2, r.nGpus());
        assertEquals(2, r.devices().size());
        assertEquals("0000:00:07", r.devices().get(1).busId());
        assertEquals("vm", r.devices().get(1).host());
        assertEquals("NVIDIA H200", r.devices().get(1).name());
        assertEquals(26, r.rows().size());
        NcclTestRow last = r.rows().get(25);
        assertEquals(268435456L, last.bytes());
        assertEquals("float", last.type());
        assertEquals("sum", last.redop());
        assertEquals(-1, last.root());
        assertEquals(898.60, last.outOfPlace().timeUs(), 1e-9);
        assertEquals(298.73, last.outOfPlace().busBw(), 1e-9);
        assertEquals(299.20, last.inPlace().busBw(), 1e-9);
        assertEquals(0, r.outOfBounds());
        assertEquals(67.6536, r.avgBusBw(), 1e-9);
        assertEquals(299.20, r.peakBusBw(), 1e-9);
        assertTrue(ForensicsFixtures.findings(m, "nccl-tests-wrong").isEmpty());
    }

    @Test
    void everyRealVariantIsReadWithItsColumns() {
        FabricModel m = ForensicsFixtures.load(ForensicsFixtures.CAPTURES.resolve("nccl-tests"));
        assertTrue(TestSupport.atLeast(m, Severity.WARNING).isEmpty(), ForensicsFixtures.diagnostics(m));
        var byName = m.forensics().ncclTests().stream().collect(Collectors.toMap(
                r -> r.source().substring(r.source().lastIndexOf('/') + 1), r -> r));
        // -C 1 -S 1: cputime and a timestamp column
        NcclTestRun rs = byName.get("reduce_scatter_perf-g2-C-S.txt");
        assertEquals(9, rs.rows().size());
        assertEquals("2026-11-23 08:06:00", rs.rows().get(0).timestamp());
        assertEquals(17.80, rs.rows().get(0).outOfPlace().timeUs(), 1e-9);
        // -I 1: four per-iteration columns after each #wrong; in-place #wrong N/A for none
        NcclTestRun a2a = byName.get("alltoall_perf-g2-I.txt");
        assertEquals(-1, a2a.rows().get(0).inPlace().wrong());
        assertEquals(17.47, a2a.rows().get(0).inPlace().timeUs(), 1e-9);
        // sendrecv prints N/A in-place
        assertEquals(-1, byName.get("sendrecv_perf-g2.txt").rows().get(0).inPlace().wrong());
        // -J JSON: the same run as its text
        NcclTestRun json = byName.get("all_reduce_perf-g2.json");
        NcclTestRun text = byName.get("all_reduce_perf-g2-json.txt");
        assertEquals(text.rows().size(), json.rows().size());
        assertEquals("all_reduce_perf", json.test());
        assertEquals(2, json.ranks());
        assertEquals(0, json.outOfBounds());
        assertEquals(text.rows().get(25).bytes(), json.rows().get(25).bytes());
        assertEquals(text.rows().get(25).outOfPlace().busBw(), json.rows().get(25).outOfPlace().busBw(), 0.01);
        assertEquals(1, byName.get("all_reduce_perf-g1.txt").ranks());
    }

    @Test
    void realCorruptedRunIsAFinding() {
        FabricModel m = ForensicsFixtures.load(ForensicsFixtures.CAPTURES.resolve("nccl-tests/all_reduce_perf-g2-wrong.txt"));
        NcclTestRun r = m.forensics().ncclTests().get(0);
        assertEquals(5, r.outOfBounds());
        assertEquals(40, r.wrong());
        assertEquals(1, r.errors().size());
        Finding f = ForensicsFixtures.findings(m, "nccl-tests-wrong").get(0);
        assertTrue(f.title().startsWith("all_reduce_perf returned wrong data on 2 GPUs of vm: #wrong > 0 in 5 of 9 sizes "
                + "(in-place, 1048576 to 16777216 bytes, 40 wrong elements); Out of bounds values: 5 FAILED"), f.title());
        Subject.LineRef at = (Subject.LineRef) f.refs().get(0);
        assertEquals(16, at.line());
        Subject.GpuRef gpu = (Subject.GpuRef) f.refs().get(1);
        assertEquals("vm", gpu.host());
        assertEquals("0000:00:06", gpu.busId());
    }

    @Test
    void launcherPrefixesAreStripped() {
        String text = read("all_reduce_perf-g2-wrong.txt");
        String srun = text.lines().map(l -> "0: " + l).collect(Collectors.joining("\n"));
        String mpirun = text.lines().map(l -> "[1,0]<stdout>:" + l).collect(Collectors.joining("\n"));
        for (String variant : List.of(srun, mpirun)) {
            FabricModel m = TestSupport.importTexts("out.log", variant).model();
            NcclTestRun r = m.forensics().ncclTests().get(0);
            assertEquals(9, r.rows().size());
            assertEquals(5, r.outOfBounds());
            assertEquals(1, ForensicsFixtures.findings(m, "nccl-tests-wrong").size());
        }
    }

    @Test
    void severalRunsInOneFileAreSeveralRuns() {
        String all = read("all_reduce_perf-g2.txt") + read("all_gather_perf-g2.txt") + read("all_reduce_perf-g2-wrong.txt");
        FabricModel m = TestSupport.importTexts("sweep.log", all).model();
        assertEquals(List.of("all_reduce_perf", "all_gather_perf", "all_reduce_perf"),
                m.forensics().ncclTests().stream().map(NcclTestRun::test).toList());
        assertEquals(List.of(26, 9, 9), m.forensics().ncclTests().stream().map(r -> r.rows().size()).toList());
        assertEquals(1, ForensicsFixtures.findings(m, "nccl-tests-wrong").size());
    }

    /** The layout of nccl-tests before 2.10 (no version line, no root column, an "error" column of max errors). */
    @Test
    void oldLayoutWithAnErrorColumn() {
        String old = """
                # nThread 1 nGpus 8 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 validation: 1
                #
                # Using devices
                #   Rank  0 Pid  41251 on   dgx-01 device  0 [0x07] Tesla V100-SXM2-32GB
                #   Rank  1 Pid  41251 on   dgx-01 device  1 [0x0a] Tesla V100-SXM2-32GB
                #
                #                                                     out-of-place                       in-place
                #       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error
                #        (B)    (elements)                     (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
                           8             2   float     sum    42.24    0.00    0.00  0e+00    41.93    0.00    0.00  0e+00
                     1048576        262144   float     sum    52.10   20.13   35.22  2e-01    51.88   20.21   35.37  0e+00
                # Out of bounds values : 0 OK
                # Avg bus bandwidth    : 17.6
                """;
        FabricModel m = TestSupport.importTexts("old.txt", old).model();
        NcclTestRun r = m.forensics().ncclTests().get(0);
        assertEquals(2, r.rows().size());
        assertEquals(1, r.rows().get(1).outOfPlace().wrong());
        assertEquals(8, r.nGpus());
        assertEquals(1, ForensicsFixtures.findings(m, "nccl-tests-wrong").size());
    }

    @Test
    void rowsThatDoNotFitAreDiagnosedAndNothingBreaks() {
        String text = read("all_reduce_perf-g2.txt");
        String broken = text.replace("       16384          4096     float     sum      -1", "       16384          4096     float     sum")
                + "\n  99999999999999999999999 1 float sum -1 1 1 1 0 1 1 1 0\n" + "  8 2 float sum -1 " + "9".repeat(70000) + "\n";
        FabricModel m = TestSupport.importTexts("broken.txt", broken).model();
        NcclTestRun r = m.forensics().ncclTests().get(0);
        assertEquals(25, r.rows().size());
        assertTrue(ForensicsFixtures.diagnostics(m).contains("does not fit"), ForensicsFixtures.diagnostics(m));
        FabricModel json = TestSupport.importTexts("t.json", "{\"start_time\": \"x\", \"args\": [\"all_reduce_perf\"], \"results\": [ {").model();
        assertTrue(ForensicsFixtures.diagnostics(json).contains("nccl-tests JSON not read"), ForensicsFixtures.diagnostics(json));
        FabricModel odd = TestSupport.importTexts("o.json", "{\"start_time\": \"x\", \"args\": [\"/x/all_reduce_perf\"], "
                + "\"results\": [{\"size\": \"big\", \"out_of_place\": {\"nwrong\": \"N/A\"}}], \"average_bus_bandwidth\": {}}").model();
        NcclTestRun o = odd.forensics().ncclTests().get(0);
        assertEquals(-1, o.rows().get(0).outOfPlace().wrong());
        assertNull(o.rows().get(0).inPlace());
        assertTrue(Double.isNaN(o.avgBusBw()));
    }
}
