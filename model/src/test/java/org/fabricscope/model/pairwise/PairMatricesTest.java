package org.fabricscope.model.pairwise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.Fabrics;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.diagnosis.BusBwCheck;
import org.fabricscope.model.evidence.HcaPortStatus;
import org.fabricscope.model.evidence.NetInterface;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.forensics.NcclTestDevice;
import org.fabricscope.model.forensics.NcclTestRow;
import org.fabricscope.model.forensics.NcclTestRun;
import org.fabricscope.model.forensics.PerftestRun;
import org.junit.jupiter.api.Test;

/**
 * Which pair a run measured, in the order of the evidence's reliability (fabric LIDs, ibstat LIDs, GIDs, the
 * file name), unknown pairs left unknown with the reason, nccl-tests runs over two hosts, several runs of a
 * pair, and the model's cache.
 */
class PairMatricesTest {
    private static PairCell only(FabricModel m) {
        PairMatrices p = PairMatrices.of(m);
        assertEquals(1, p.matrices().size(), p.matrices().toString() + p.unplaced());
        assertEquals(1, p.matrices().get(0).cells().size());
        return p.matrices().get(0).cells().get(0);
    }

    @Test
    void lidsOfTheLoadedFabricComeFirst() {
        Fabrics f = new Fabrics();
        FabricNode leaf = f.sw("leaf-1");
        FabricNode a = f.hca("dgx-01", 0);
        FabricNode b = f.hca("dgx-02", 0);
        f.cable(leaf, a);
        f.cable(leaf, b);
        // the file name names other hosts: the LIDs win
        f.builder().forensics().perftest(PairRuns.bw("ib_write_bw_x1_x2.txt", a.lid(), b.lid(), 391.2));
        PairCell c = only(f.build());
        assertEquals("dgx-01", c.a());
        assertEquals("dgx-02", c.b());
        assertEquals(PairEnds.How.FABRIC_LID, c.how());
        assertEquals(391.2, c.value(), 1e-9);
        assertEquals("Gb/s", c.unit());
        assertEquals("BW average at 65536 B", c.what());
        assertEquals(21, c.evidence().get(0).line(), "the result line first");
        assertEquals(List.of(17, 18), c.evidence().subList(1, 3).stream().map(Evidence::line).toList(), "then the address lines");
    }

    @Test
    void lidsFromTheHostsOwnIbstatWithoutAFabric() {
        FabricModelBuilder b = new FabricModelBuilder();
        b.hostEvidence().file("dgx-07/ibstat.txt", List.of("dgx-07")).hcaPort(port(0x31, "dgx-07/ibstat.txt"));
        b.hostEvidence().file("dgx-08/ibstat.txt", List.of("dgx-08")).hcaPort(port(0x2c, "dgx-08/ibstat.txt"));
        b.forensics().perftest(PairRuns.bw("run-17.txt", 0x2c, 0x31, 200));
        PairCell c = only(b.build());
        assertEquals(PairEnds.How.HOST_LID, c.how());
        assertEquals("dgx-07 - dgx-08", c.label());
        assertTrue(c.evidence().stream().anyMatch(e -> e.source().equals("dgx-08/ibstat.txt")), c.evidence().toString());
    }

    private static HcaPortStatus port(int lid, String source) {
        return new HcaPortStatus("mlx5_0", 1, null, null, "400", lid, 1, 0, 0, "InfiniBand", Evidence.at(source, 9, "Base lid: " + lid));
    }

    @Test
    void ipv4MappedGidsThroughTheHostsIpAddr() {
        FabricModelBuilder b = new FabricModelBuilder();
        b.hostEvidence().file("roce-a/ip-addr.txt", List.of("roce-a")).iface(new NetInterface("ens1f0np0", "UP",
                List.of("10.20.1.12/24"), Evidence.at("roce-a/ip-addr.txt", 7, "inet 10.20.1.12/24 scope global ens1f0np0")));
        b.hostEvidence().file("roce-b/ip-addr.txt", List.of("roce-b")).iface(new NetInterface("ens1f0np0", "UP",
                List.of("10.20.1.14/24"), Evidence.at("roce-b/ip-addr.txt", 7, "inet 10.20.1.14/24 scope global ens1f0np0")));
        b.forensics().perftest(PairRuns.bw("server.txt", 0, 0, "0000:0000:0000:0000:0000:ffff:0a14:010c",
                "0000:0000:0000:0000:0000:ffff:0a14:010e", 93));
        PairCell c = only(b.build());
        assertEquals(PairEnds.How.HOST_GID, c.how());
        assertEquals("roce-a - roce-b", c.label());
    }

    @Test
    void theFileNameWhenNothingElseTells() {
        FabricModelBuilder b = new FabricModelBuilder();
        b.forensics().perftest(PairRuns.bw("pairs/ib_write_bw_gpu-node-02_gpu-node-01.txt", 0x1a, 0x23, 392));
        PairCell c = only(b.build());
        assertEquals(PairEnds.How.FILE_NAME, c.how());
        assertEquals("gpu-node-01", c.a(), "cells are in natural order");
        assertEquals("gpu-node-02", c.b());
        assertTrue(c.evidence().stream().anyMatch(e -> e.text().equals("the file name names gpu-node-02 and gpu-node-01")));
    }

    @Test
    void unknownPairsStayUnknownWithTheReason() {
        FabricModelBuilder b = new FabricModelBuilder();
        b.forensics().perftest(PairRuns.bw("output_final.txt", 0x1a, 0x23, 392));
        PairMatrices p = PairMatrices.of(b.build());
        assertTrue(p.matrices().isEmpty());
        assertEquals(1, p.unplaced().size());
        assertEquals("ib_write_bw", p.unplaced().get(0).test());
        assertEquals("LIDs 0x1a and 0x23 are not both host HCAs in a loaded fabric or ibstat; the file name names no two hosts",
                p.unplaced().get(0).reason());
    }

    @Test
    void aLoopbackRunIsNoPair() {
        Fabrics f = new Fabrics();
        FabricNode a = f.hca("dgx-01", 0);
        FabricNode a1 = f.hca("dgx-01", 1);
        f.builder().forensics().perftest(PairRuns.bw("loop.txt", a.lid(), a1.lid(), 392));
        PairMatrices p = PairMatrices.of(f.build());
        assertTrue(p.matrices().isEmpty());
        assertTrue(p.unplaced().get(0).reason().startsWith("both ends are on dgx-01 (a loopback run)"), p.unplaced().toString());
    }

    @Test
    void severalRunsOfAPairKeepTheWorstAndEveryLine() {
        FabricModelBuilder b = new FabricModelBuilder();
        b.forensics().perftest(PairRuns.bw("n1_n2.txt", 1, 2, 390));
        b.forensics().perftest(PairRuns.bw("n2_n1.txt", 1, 2, 301));
        b.forensics().perftest(PairRuns.bw("n1-n2.log", 1, 2, Double.NaN));
        PairCell c = only(b.build());
        assertEquals(301, c.value(), 1e-9);
        assertEquals(3, c.runs());
        assertTrue(!c.failed());
        assertEquals("n2_n1.txt", c.evidence().get(0).source());
        assertTrue(c.evidence().stream().anyMatch(e -> e.text().contains("RTR")), "the failed run's line is kept");
    }

    @Test
    void aPairWhoseEveryRunFailedIsAFailedCell() {
        FabricModelBuilder b = new FabricModelBuilder();
        b.forensics().perftest(PairRuns.bw("n1_n2.txt", 1, 2, Double.NaN));
        PairCell c = only(b.build());
        assertTrue(c.failed());
        assertTrue(Double.isNaN(c.value()));
        assertEquals("failed", c.what());
    }

    @Test
    void testsAndKindsAreNeverMixed() {
        FabricModelBuilder b = new FabricModelBuilder();
        b.forensics().perftest(PairRuns.bw("n1_n2.txt", 1, 2, 390));
        b.forensics().perftest(PairRuns.bw("n1_n3.txt", 1, 2, 390));
        b.forensics().perftest(PairRuns.lat("ib_write_lat_n1_n2.txt", 1.1));
        PairMatrices p = PairMatrices.of(b.build());
        assertEquals(List.of("ib_write_bw (perftest-bw, Gb/s)", "ib_write_lat (perftest-lat, usec)"),
                p.matrices().stream().map(PairMatrix::title).toList());
        assertEquals("t_typical at 2 B", p.matrices().get(1).cells().get(0).what());
    }

    @Test
    void ncclTestsRunsOnTwoHostsArePairs() {
        FabricModelBuilder b = new FabricModelBuilder();
        b.forensics().ncclTest(nccl("ar-1.txt", "node-a", "node-b", 1L << 30, 180.5, 8L << 20, 60));
        b.forensics().ncclTest(nccl("ar-2.txt", "node-a", "node-a", 1L << 30, 400)); // one host: no pair
        b.forensics().ncclTest(nccl("ar-3.txt", "node-a", "node-c", 8L << 20, 60)); // nothing from 64 MiB
        PairMatrices p = PairMatrices.of(b.build());
        PairCell c = p.matrices().get(0).cells().get(0);
        assertEquals(PairKind.NCCL_TESTS_BUSBW, c.kind());
        assertEquals("node-a - node-b", c.label());
        assertEquals(180.5, c.value(), 1e-9);
        assertEquals("busbw at 1 GiB", c.what());
        assertEquals(PairEnds.How.NCCL_TESTS_HEADER, c.how());
        assertEquals(1, p.unplaced().size());
        assertTrue(p.unplaced().get(0).reason().startsWith("no size of 64 MiB or more"));
        assertEquals(BusBwCheck.MIN_BYTES, PairMatrices.NCCL_MIN_BYTES, "the same sizes as busbw-below-expected");
    }

    /** An all_reduce_perf run with one GPU on each host and rows of (bytes, busbw). */
    private static NcclTestRun nccl(String file, String h1, String h2, double... bytesBusBw) {
        List<NcclTestRow> rows = new java.util.ArrayList<>();
        for (int i = 0; i < bytesBusBw.length; i += 2) {
            NcclTestRow.Result r = new NcclTestRow.Result(100, bytesBusBw[i + 1], bytesBusBw[i + 1], 0);
            rows.add(new NcclTestRow((long) bytesBusBw[i], (long) bytesBusBw[i] / 4, "float", "sum", -1, r, r, "",
                    Evidence.at(file, 30 + i, (long) bytesBusBw[i] + " ...")));
        }
        return new NcclTestRun(file, 1, "all_reduce_perf", "2.17.1", "2.28.9", 1, 1,
                List.of(new NcclTestDevice(0, 0, 11, h1, 0, "0000:19:00", "NVIDIA H100"),
                        new NcclTestDevice(1, 0, 12, h2, 0, "0000:19:00", "NVIDIA H100")), rows, 0, true, 1, List.of(), null);
    }

    @Test
    void computedOncePerModel() {
        FabricModelBuilder b = new FabricModelBuilder();
        b.forensics().perftest(PairRuns.bw("n1_n2.txt", 1, 2, 390));
        FabricModel m = b.build();
        assertSame(PairMatrices.of(m), PairMatrices.of(m));
        assertSame(PairMatrices.EMPTY, PairMatrices.of(FabricModel.empty()));
        assertNull(PairMatrices.of(m).matrices().get(0).cell("n1", "n9"));
    }

    @Test
    void aRunThatStoppedBeforeItsTitleIsUnplaced() {
        FabricModelBuilder b = new FabricModelBuilder();
        b.forensics().perftest(new PerftestRun("ib_write_bw_n1_n2.txt", 1, "", null, false, PerftestRun.Side.CLIENT, "", "", "",
                "", -1, -1, null, null, List.of(), List.of(Evidence.at("ib_write_bw_n1_n2.txt", 1,
                "Couldn't connect to n2:18515")), ""));
        PairMatrices p = PairMatrices.of(b.build());
        assertEquals("the run stopped before it printed which test it was: Couldn't connect to n2:18515",
                p.unplaced().get(0).reason());
    }
}
