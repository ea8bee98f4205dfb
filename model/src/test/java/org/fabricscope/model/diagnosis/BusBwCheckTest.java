package org.fabricscope.model.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.forensics.NcclTestDevice;
import org.fabricscope.model.forensics.NcclTestRow;
import org.fabricscope.model.forensics.NcclTestRun;
import org.fabricscope.model.host.Cpu;
import org.fabricscope.model.host.Gpu;
import org.fabricscope.model.host.HostTopologyBuilder;
import org.fabricscope.model.host.PciDevice;
import org.fabricscope.model.training.ChannelLink;
import org.fabricscope.model.training.Rank;
import org.fabricscope.model.training.Transport;
import org.junit.jupiter.api.Test;

/**
 * {@code busbw-below-expected}: raised below half of the expectation over sizes from 64 MiB, with
 * expected, measured, fraction and source in its text; not raised at or above half, for runs of small
 * sizes only, or without an expectation.
 */
class BusBwCheckTest {
    static Map<String, String> a(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    /** An all_reduce_perf run on host vm, pid 913, with one row per (bytes, busbw). */
    static NcclTestRun run(String file, double... bytesBusBw) {
        List<NcclTestRow> rows = new ArrayList<>();
        for (int i = 0; i < bytesBusBw.length; i += 2) {
            NcclTestRow.Result r = new NcclTestRow.Result(100, bytesBusBw[i + 1], bytesBusBw[i + 1], 0);
            rows.add(new NcclTestRow((long) bytesBusBw[i], (long) bytesBusBw[i] / 4, "float", "sum", -1, r, r, "",
                    Evidence.at(file, 12 + i / 2, (long) bytesBusBw[i] + " ...")));
        }
        List<NcclTestDevice> devices = List.of(new NcclTestDevice(0, 0, 913, "vm", 0, "0000:00:06", "NVIDIA H200"),
                new NcclTestDevice(1, 0, 913, "vm", 1, "0000:00:07", "NVIDIA H200"));
        return new NcclTestRun(file, 1, "all_reduce_perf", "2.19.6", "2.28.9", 1, 2, devices, rows, 0, true, 1,
                List.of(), null);
    }

    static FabricModelBuilder withTopology() {
        FabricModelBuilder b = new FabricModelBuilder();
        HostTopologyBuilder t = new HostTopologyBuilder("vm.topo.xml", "vm");
        Cpu cpu = t.cpu(a("numaid", "-1"), Evidence.at("vm.topo.xml", 2, "<cpu>"));
        for (int i = 0; i < 2; i++) {
            PciDevice p = t.pci(cpu, null, a("busid", "0000:00:0" + (6 + i) + ".0", "class", "0x030200"),
                    Evidence.at("vm.topo.xml", 3 + 8 * i, "<pci>"));
            Gpu g = t.gpu(p, a("dev", String.valueOf(i), "sm", "90"), Evidence.at("vm.topo.xml", 4 + 8 * i, "<gpu>"));
            t.nvlink(g, a("target", "fffffff:ff:ff.0", "count", "18", "tclass", "0x068000"),
                    Evidence.at("vm.topo.xml", 5 + 8 * i, "<nvlink count=18>"));
        }
        b.hostTopology(t);
        return b;
    }

    static List<Finding> findings(FabricModel m) {
        return new BusBwCheck().run(CheckContext.of(m));
    }

    @Test
    void belowHalfIsAWarningWithExpectedMeasuredAndSource() {
        FabricModelBuilder b = withTopology();
        b.forensics().ncclTest(run("shm.txt", 8 << 20, 26.2, 512 << 20, 27.74, 1 << 30, 27.7));
        List<Finding> f = findings(b.build());
        assertEquals(1, f.size());
        Finding x = f.get(0);
        assertEquals("busbw-below-expected", x.id());
        assertEquals(Severity.WARNING, x.severity());
        assertEquals("all_reduce_perf (shm.txt) on vm: peak bus bandwidth 27.7 GB/s (at 512 MiB) is 6% of the expected "
                + "450 GB/s (NVLink4 x 18 links x 25 GB/s (GPU0, sm 90) from vm.topo.xml of host vm)", x.title());
        assertEquals(new Subject.LineRef("shm.txt", 1, "shm.txt:1"), x.refs().get(0));
        assertEquals(new Subject.HostRef("vm", "vm"), x.refs().get(1));
        assertEquals(13, x.evidence().get(0).line(), "the peak row");
        assertTrue(x.evidence().stream().anyMatch(e -> e.source().equals("vm.topo.xml")), x.evidence().toString());
        assertTrue(x.remedies().stream().anyMatch(r -> r.contains("NCCL_P2P_DISABLE")), x.remedies().toString());
    }

    @Test
    void halfOrMoreIsHealthy() {
        FabricModelBuilder b = withTopology();
        b.forensics().ncclTest(run("healthy.txt", 64 << 20, 268.34, 1 << 30, 328.26));
        b.forensics().ncclTest(run("edge.txt", 1 << 30, 225));
        assertTrue(findings(b.build()).isEmpty());
    }

    @Test
    void onlySizesFrom64MiBCount() {
        FabricModelBuilder b = withTopology();
        // a healthy run that stops at 32 MiB never gets near the link's rate: no verdict
        b.forensics().ncclTest(run("small.txt", 8 << 20, 167.98, 32 << 20, 241.07));
        // a slow large size is not rescued by a small one
        b.forensics().ncclTest(run("mixed.txt", 32 << 20, 241.07, 64 << 20, 100));
        List<Finding> f = findings(b.build());
        assertEquals(1, f.size());
        assertTrue(f.get(0).title().startsWith("all_reduce_perf (mixed.txt) on vm: peak bus bandwidth 100 GB/s (at 64 MiB) is 22%"),
                f.get(0).title());
    }

    @Test
    void withoutTopologyTheGpuNameSetsTheExpectationAndTheMissingLogIsSaid() {
        FabricModelBuilder b = new FabricModelBuilder();
        b.forensics().ncclTest(run("shm.txt", 1 << 30, 4.1));
        List<Finding> f = findings(b.build());
        assertEquals(1, f.size());
        assertTrue(f.get(0).title().contains("is 1% of the expected 450 GB/s (NVLink4 x 18 links"), f.get(0).title());
        assertTrue(f.get(0).remedies().get(0).startsWith("No NCCL log of this run was loaded"), f.get(0).remedies().toString());
    }

    @Test
    void noExpectationNoFinding() {
        FabricModelBuilder b = new FabricModelBuilder();
        NcclTestRun r = run("shm.txt", 1 << 30, 4.1);
        List<NcclTestDevice> pcie = List.of(new NcclTestDevice(0, 0, 913, "vm", 0, "0000:00:06", "NVIDIA L40S"),
                new NcclTestDevice(1, 0, 913, "vm", 1, "0000:00:07", "NVIDIA L40S"));
        b.forensics().ncclTest(new NcclTestRun(r.source(), 1, r.test(), r.version(), r.ncclVersion(), 1, 2, pcie, r.rows(),
                0, true, 1, List.of(), null));
        assertTrue(findings(b.build()).isEmpty());
    }

    @Test
    void theRunsNcclLogNamesTheTransportAndTheEnvironment() {
        FabricModelBuilder b = withTopology();
        b.forensics().ncclTest(run("shm.txt", 1 << 30, 27.7));
        Evidence init = Evidence.at("shm.vm.913.log", 3, "Init START");
        b.training().putRank(new Rank("vm", 913, 0, 0, "6000", "c1", 0, 2, "2.28.9", true, true, List.of(), "Socket",
                false, Map.of("NCCL_P2P_DISABLE", "1"), init));
        b.training().addChannel(new ChannelLink("c1", 0, 0, 1, Transport.SHM, "SHM/direct/direct", -1,
                Evidence.at("shm.vm.913.log", 92, "Channel 00 : 0[0] -> 1[1] via SHM/direct/direct")));
        Finding f = findings(b.build()).get(0);
        assertTrue(f.title().endsWith("; NCCL's log shows it went via SHM on 1 channel; set by the environment: NCCL_P2P_DISABLE=1"),
                f.title());
        assertTrue(f.evidence().stream().anyMatch(e -> e.line() == 92), f.evidence().toString());
        assertTrue(f.remedies().get(0).contains("NCCL_P2P_DISABLE=1 set by the environment"), f.remedies().toString());
    }
}
