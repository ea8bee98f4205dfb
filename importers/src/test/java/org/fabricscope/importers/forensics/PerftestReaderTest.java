package org.fabricscope.importers.forensics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.fabricscope.importers.FormatRegistry;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.TestSupport;
import org.fabricscope.importers.core.Head;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.forensics.PerftestRow;
import org.fabricscope.model.forensics.PerftestRun;
import org.junit.jupiter.api.Test;

/**
 * perftest output, either side: the header, the address and GID lines, bandwidth tables in Gb/sec, MB/sec
 * and MiB/sec (normalised to Gb/s, the printed unit kept), latency tables (with and without -D), runs that
 * failed, several runs in one file under a launcher prefix, and rows that do not fit (reported with their
 * file and line, skipped).
 */
class PerftestReaderTest {
    private static FabricModel load(String name) {
        return ForensicsFixtures.load(ForensicsFixtures.resource("perftest/" + name));
    }

    private static PerftestRun only(FabricModel m) {
        assertEquals(1, m.forensics().perftests().size(), m.forensics().perftests().toString());
        return m.forensics().perftests().get(0);
    }

    @Test
    void everyFixtureIsDetectedAsPerftestAndNothingElseIs() {
        for (String f : List.of("write_bw_client_gbits_all_sizes.txt", "write_bw_server_roce_duration.txt",
                "send_bw_server_two_qps.txt", "write_lat_client.txt", "send_lat_duration.txt",
                "write_bw_client_connect_failed.txt", "read_bw_loop_srun.txt", "write_bw_damaged_rows.txt")) {
            byte[] b = ForensicsFixtures.bytes(ForensicsFixtures.resource("perftest/" + f));
            var r = FormatRegistry.standard().detect(Head.of(b));
            assertEquals(PerftestReader.ID, r == null ? FormatRegistry.UNKNOWN : r.id(), f);
        }
        assertFalse(PerftestReader.looksLike(List.of("# nccl-tests version 2.17.1 nccl-headers=22809", "#  size  count")));
    }

    @Test
    void clientBandwidthWithEverySize() {
        FabricModel m = load("write_bw_client_gbits_all_sizes.txt");
        assertEquals("", ForensicsFixtures.diagnostics(m));
        PerftestRun r = only(m);
        assertEquals("RDMA_Write", r.verb());
        assertEquals("ib_write_bw", r.tool());
        assertEquals(PerftestRun.Measure.BANDWIDTH, r.measure());
        assertFalse(r.bidirectional());
        assertEquals(PerftestRun.Side.CLIENT, r.side(), "a unidirectional BW run with a TX depth is the client");
        assertEquals("mlx5_0", r.device());
        assertEquals("IB", r.linkType());
        assertEquals("IB", r.transport());
        assertEquals("RC", r.connection());
        assertEquals(1, r.qps());
        assertEquals(-1, r.gidIndex());
        assertEquals(0x1a, r.local().lid());
        assertEquals("0x0117", r.local().qpn());
        assertEquals(0x23, r.remote().lid());
        assertEquals("", r.remote().gid());
        assertEquals(17, r.local().evidence().line());
        assertEquals(23, r.rows().size());
        PerftestRow first = r.rows().get(0);
        assertEquals(2, first.bytes());
        assertEquals(5000, first.iterations());
        assertEquals(0.042256, first.bandwidth().average(), 1e-9);
        assertEquals("Gb/sec", first.bandwidth().unit());
        assertNull(first.latency());
        PerftestRow best = r.bestBandwidth().orElseThrow();
        assertEquals(4194304, best.bytes());
        assertEquals(392.00, best.bandwidth().averageGbps(), 1e-9);
        assertEquals(393.64, best.bandwidth().peakGbps(), 1e-9);
        assertTrue(best.evidence().text().startsWith("4194304"));
        assertEquals("", r.version());
        assertTrue(r.errors().isEmpty());
    }

    @Test
    void serverOverRoceInMegabytesWithGids() {
        PerftestRun r = only(load("write_bw_server_roce_duration.txt"));
        assertEquals(PerftestRun.Side.SERVER, r.side());
        assertEquals(3, r.line(), "the run starts at the server's banner");
        assertEquals("Ethernet", r.linkType());
        assertEquals(3, r.gidIndex());
        assertEquals(0, r.local().lid(), "LID 0000 is no LID");
        assertEquals("0000:0000:0000:0000:0000:ffff:0a14:010c", r.local().gid());
        assertEquals("10.20.1.12", r.local().ipv4());
        assertEquals("10.20.1.14", r.remote().ipv4());
        PerftestRow row = r.rows().get(0);
        assertEquals("MB/sec", row.bandwidth().unit());
        assertEquals(0, row.bandwidth().peak(), 0, "-D measures no peak");
        // perftest's MB is 2^20 bytes: 11086.82 * 1048576 * 8 / 1e9
        assertEquals(93.0, row.bandwidth().averageGbps(), 0.01);
    }

    @Test
    void severalQueuePairsKeepTheFirstOfEachSide() {
        PerftestRun r = only(load("send_bw_server_two_qps.txt"));
        assertEquals("ib_send_bw", r.tool());
        assertEquals(2, r.qps());
        assertEquals(0x31, r.local().lid());
        assertEquals("0x0a21", r.local().qpn());
        assertEquals("fe80:0000:0000:0000:0c42:a103:0037:1411", r.local().gid());
        assertEquals(0x0c42a103003713f4L, r.remote().interfaceId());
        assertNull(r.remote().ipv4());
    }

    @Test
    void latencyTables() {
        PerftestRun lat = only(load("write_lat_client.txt"));
        assertEquals("ib_write_lat", lat.tool());
        assertEquals(PerftestRun.Measure.LATENCY, lat.measure());
        assertEquals(5, lat.rows().size());
        PerftestRow.Latency two = lat.smallestLatency().orElseThrow().latency();
        assertEquals(0.98, two.min(), 1e-9);
        assertEquals(4.71, two.max(), 1e-9);
        assertEquals(1.03, two.typical(), 1e-9);
        assertEquals(1.04, two.average(), 1e-9);
        assertEquals(0.07, two.stdev(), 1e-9);
        assertEquals(1.21, two.p99(), 1e-9);
        assertEquals(4.71, two.p999(), 1e-9);
        assertEquals(1.03, two.usual(), 1e-9);

        PerftestRun dur = only(load("send_lat_duration.txt"));
        PerftestRow.Latency d = dur.rows().get(0).latency();
        assertTrue(Double.isNaN(d.typical()));
        assertEquals(1.06, d.usual(), 1e-9, "only the average with -D");
        assertEquals(471236.18, d.tps(), 1e-9);
        assertEquals(4715230, dur.rows().get(0).iterations());
    }

    @Test
    void aClientThatPrintedOnlyItsFailureIsARunWithoutTest() {
        PerftestRun r = only(load("write_bw_client_connect_failed.txt"));
        assertEquals("", r.verb());
        assertEquals("perftest", r.tool());
        assertTrue(r.failed());
        assertEquals(PerftestRun.Side.CLIENT, r.side());
        assertEquals(1, r.line());
    }

    @Test
    void aClientThatCouldNotConnectIsAFailedRun() {
        ImportResult res = TestSupport.importTexts("ib_write_bw_a_b.txt", "---\n                    RDMA_Write BW Test\n"
                + "Couldn't connect to 192.168.40.17:18515\nUnable to open file descriptor for socket connection\n"
                + " Unable to init the socket connection\n");
        PerftestRun r = only(res.model());
        assertTrue(r.failed());
        assertEquals(PerftestRun.Side.CLIENT, r.side());
        assertEquals(3, r.errors().size());
        assertEquals("Couldn't connect to 192.168.40.17:18515", r.errors().get(0).text());
        assertEquals(3, r.errors().get(0).line());
    }

    @Test
    void aLoopOfRunsUnderSrunWithItsVersion() {
        FabricModel m = load("read_bw_loop_srun.txt");
        assertEquals("", ForensicsFixtures.diagnostics(m));
        List<PerftestRun> runs = m.forensics().perftests();
        assertEquals(3, runs.size());
        for (PerftestRun r : runs) {
            assertEquals("6.29", r.version());
            assertEquals("ib_read_bw", r.tool());
        }
        assertEquals(0x23, runs.get(0).remote().lid());
        assertEquals(0x2c, runs.get(1).remote().lid());
        assertEquals("MiB/sec", runs.get(0).rows().get(0).bandwidth().unit());
        assertEquals(46123.55 * 1048576 * 8 / 1e9, runs.get(0).rows().get(0).bandwidth().averageGbps(), 1e-9);
        PerftestRun failed = runs.get(2);
        assertTrue(failed.failed());
        assertEquals(0x31, failed.remote().lid());
        assertEquals(List.of("Failed to modify QP 518 to RTR", "Unable to Connect the HCA's through the link"),
                failed.errors().stream().map(e -> e.text()).toList());
    }

    @Test
    void rowsThatDoNotFitAreReportedWithFileAndLineAndSkipped() {
        FabricModel m = load("write_bw_damaged_rows.txt");
        PerftestRun r = only(m);
        assertEquals(List.of(65536L, 524288L), r.rows().stream().map(PerftestRow::bytes).toList());
        List<Diagnostic> d = m.diagnostics();
        assertEquals(2, d.size(), d.toString());
        assertTrue(d.get(0).source().endsWith("write_bw_damaged_rows.txt"), d.get(0).toString());
        assertEquals(15, d.get(0).line());
        assertTrue(d.get(0).message().contains("does not fit its table's 5 columns"), d.get(0).message());
        assertEquals(16, d.get(1).line());
    }

    @Test
    void anUnknownTableHeaderIsReportedAndItsRowsAreNotRead() {
        ImportResult res = TestSupport.importTexts("odd.txt", "                    RDMA_Write BW Test\n"
                + " #bytes     #iterations    BW peak[Gb/sec]    Goodput[Gb/sec]\n 65536 5000 1.0 2.0\n");
        PerftestRun r = only(res.model());
        assertTrue(r.rows().isEmpty());
        assertEquals(1, res.model().diagnostics().size());
        assertEquals(2, res.model().diagnostics().get(0).line());
        assertTrue(res.model().diagnostics().get(0).message().contains("column perftest does not print"));
    }

    @Test
    void bidirectionalTitleAndPerftestGid() {
        ImportResult res = TestSupport.importTexts("bi.txt", "                    RDMA_Write Bidirectional BW Test\n"
                + " local address: LID 0x05 QPN 0x0011 PSN 0x000001\n GID: 254:128:00:00:00:00:00:00:00:02:201:03:00:00:00:05\n"
                + " remote address: LID 0x06 QPN 0x0012 PSN 0x000002\n GID: 254:128:00:00:00:00:00:00:00:02:201:03:00:00:00:06\n"
                + " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]    CPU_Util[%]\n"
                + " 65536      5000           780.10            779.50\t\t     1.486683\t    99.80\n");
        PerftestRun r = only(res.model());
        assertTrue(r.bidirectional());
        assertEquals("ib_write_bw -b", r.test());
        assertEquals(PerftestRun.Side.UNKNOWN, r.side());
        assertEquals(0x0002c90300000005L, r.local().interfaceId());
        assertEquals(779.50, r.rows().get(0).bandwidth().averageGbps(), 1e-9);
    }

    @Test
    void gidBytes() {
        assertEquals("fe80:0000:0000:0000:0002:c903:0000:0005", PerftestReader.gid("254:128:00:00:00:00:00:00:00:02:201:03:00:00:00:05"));
        assertNull(PerftestReader.gid("256:128:00:00:00:00:00:00:00:02:201:03:00:00:00:05"));
        assertEquals(0, PerftestReader.hex("0000"));
        assertEquals(0x1907, PerftestReader.hex("0x1907"));
        assertEquals(-1, PerftestReader.hex("0xzz"));
    }
}
