package org.fabricscope.model.bandwidth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.Fabrics;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.LinkSpeed;
import org.fabricscope.model.fabric.LinkWidth;
import org.fabricscope.model.forensics.NcclTestDevice;
import org.fabricscope.model.forensics.NcclTestRow;
import org.fabricscope.model.forensics.NcclTestRun;
import org.fabricscope.model.host.Cpu;
import org.fabricscope.model.host.Gpu;
import org.fabricscope.model.host.HostTopologyBuilder;
import org.fabricscope.model.host.Nic;
import org.fabricscope.model.host.NvidiaSmiMatrix;
import org.fabricscope.model.host.PciDevice;
import org.fabricscope.model.k8s.JobIdentity;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.k8s.PodSpecSummary;
import org.junit.jupiter.api.Test;

/**
 * The expected bus bandwidth of an nccl-tests run from the slowest hop of its path: NVLink (NCCL
 * topology, or nvidia-smi topo -m), PCIe, the NICs of each host (fabric port rates, topology net
 * speeds, eRDMA by instance type), and no expectation whenever a hop is not known.
 */
class BusBwExpectationsTest {
    static final Evidence E = Evidence.at("k8s.json", 1, "x");

    static Map<String, String> a(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    int line = 1;

    Evidence ev(String file, String text) {
        return Evidence.at(file, line++, text);
    }

    /** A run of all_reduce_perf with one device line per (host, bus id) and one 1 GiB row. */
    static NcclTestRun run(String gpuName, String... hostBus) {
        List<NcclTestDevice> devices = new ArrayList<>();
        for (int i = 0; i < hostBus.length; i += 2) {
            devices.add(new NcclTestDevice(i / 2, 0, 100 + i / 2, hostBus[i], i / 2, hostBus[i + 1], gpuName));
        }
        NcclTestRow row = new NcclTestRow(1L << 30, 1L << 28, "float", "sum", -1,
                new NcclTestRow.Result(3000, 100, 100, 0), new NcclTestRow.Result(3000, 100, 100, 0), "",
                Evidence.at("run.txt", 20, "1073741824 ..."));
        return new NcclTestRun("run.txt", 1, "all_reduce_perf", "2.19.6", "2.28.9", 1, devices.size(), devices,
                List.of(row), 0, true, 50, List.of(), null);
    }

    /** A host with {@code n} GPUs of this sm, each with {@code links} NVLinks to the (invisible) NVSwitch; PCIe as given. */
    HostTopologyBuilder host(String name, int n, String sm, int links, String gts, String width) {
        String file = name + ".topo.xml";
        HostTopologyBuilder b = new HostTopologyBuilder(file, name);
        b.system(a("version", "1"), ev(file, "<system>"));
        Cpu c = b.cpu(a("numaid", "0"), ev(file, "<cpu>"));
        for (int i = 0; i < n; i++) {
            PciDevice p = b.pci(c, null, a("busid", String.format("0000:%02x:00.0", 0x10 + i), "class", "0x030200",
                    "link_speed", gts + " GT/s PCIe", "link_width", width), ev(file, "<pci gpu" + i + ">"));
            Gpu g = b.gpu(p, a("dev", String.valueOf(i), "sm", sm, "rank", String.valueOf(i), "gdr", "1"), ev(file, "<gpu>"));
            if (links > 0) {
                b.nvlink(g, a("target", "fffffff:ff:ff.0", "count", String.valueOf(links), "tclass", "0x068000"),
                        ev(file, "<nvlink count=" + links + ">"));
            }
        }
        return b;
    }

    static FabricModel model(HostTopologyBuilder... hosts) {
        FabricModelBuilder b = new FabricModelBuilder();
        for (HostTopologyBuilder h : hosts) {
            b.hostTopology(h);
        }
        return b.build();
    }

    @Test
    void nvlinkThroughNvswitchesOfAnH200Host() {
        FabricModel m = model(host("vm", 2, "90", 18, "32.0", "0"));
        BusBwExpectation e = BusBwExpectations.of(m, run("NVIDIA H200", "vm", "0000:10:00", "vm", "0000:11:00")).orElseThrow();
        assertEquals(450, e.gbPerSec(), 1e-9);
        assertEquals(BusBwExpectation.Hop.NVLINK, e.hop());
        assertEquals("NVLink4 x 18 links x 25 GB/s (GPU0, sm 90) from vm.topo.xml of host vm", e.source());
        assertEquals(List.of("vm"), e.hosts());
        assertTrue(e.evidence().stream().anyMatch(x -> x.text().contains("nvlink count=18")), e.evidence().toString());
    }

    @Test
    void theGpuWithFewestLinksSetsTheNumber() {
        HostTopologyBuilder b = host("dgx", 2, "80", 12, "16.0", "16");
        FabricModel full = model(b);
        assertEquals(300, BusBwExpectations.of(full, run("A100", "dgx", "0000:10:00", "dgx", "0000:11:00"))
                .orElseThrow().gbPerSec(), 1e-9);
        HostTopologyBuilder c = new HostTopologyBuilder("dgx2.topo.xml", "dgx2");
        Cpu cpu = c.cpu(a("numaid", "0"), ev("dgx2.topo.xml", "<cpu>"));
        int[] links = {18, 14};
        for (int i = 0; i < 2; i++) {
            PciDevice p = c.pci(cpu, null, a("busid", "0000:2" + i + ":00.0", "class", "0x030200"), ev("dgx2.topo.xml", "pci"));
            Gpu g = c.gpu(p, a("dev", String.valueOf(i), "sm", "100"), ev("dgx2.topo.xml", "gpu"));
            c.nvlink(g, a("target", "0000:c0:00.0", "count", String.valueOf(links[i]), "tclass", "0x068000"), ev("dgx2.topo.xml", "nvl"));
        }
        BusBwExpectation e = BusBwExpectations.of(model(c), run("NVIDIA B200", "dgx2", "0000:20:00", "dgx2", "0000:21:00")).orElseThrow();
        assertEquals(14 * 50, e.gbPerSec(), 1e-9, "GPU1 has lost 4 of its 18 NVLink5 links");
        assertTrue(e.source().startsWith("NVLink5 x 14 links x 50 GB/s (GPU1, sm 100)"), e.source());
    }

    @Test
    void directLinksBetweenTheRunsGpusCount() {
        HostTopologyBuilder b = new HostTopologyBuilder("v100.topo.xml", "v100");
        Cpu cpu = b.cpu(a("numaid", "0"), ev("v100.topo.xml", "<cpu>"));
        PciDevice p0 = b.pci(cpu, null, a("busid", "0000:06:00.0", "class", "0x030200"), ev("v100.topo.xml", "pci0"));
        PciDevice p1 = b.pci(cpu, null, a("busid", "0000:07:00.0", "class", "0x030200"), ev("v100.topo.xml", "pci1"));
        PciDevice p2 = b.pci(cpu, null, a("busid", "0000:08:00.0", "class", "0x030200"), ev("v100.topo.xml", "pci2"));
        Gpu g0 = b.gpu(p0, a("dev", "0", "sm", "70"), ev("v100.topo.xml", "gpu0"));
        Gpu g1 = b.gpu(p1, a("dev", "1", "sm", "70"), ev("v100.topo.xml", "gpu1"));
        b.gpu(p2, a("dev", "2", "sm", "70"), ev("v100.topo.xml", "gpu2"));
        b.nvlink(g0, a("target", "0000:07:00.0", "count", "2", "tclass", "0x030200"), ev("v100.topo.xml", "0->1"));
        b.nvlink(g0, a("target", "0000:08:00.0", "count", "1", "tclass", "0x030200"), ev("v100.topo.xml", "0->2"));
        b.nvlink(g1, a("target", "0000:06:00.0", "count", "2", "tclass", "0x030200"), ev("v100.topo.xml", "1->0"));
        BusBwExpectation e = BusBwExpectations.of(model(b), run("Tesla V100-SXM2-32GB", "v100", "0000:06:00", "v100", "0000:07:00"))
                .orElseThrow();
        assertEquals(50, e.gbPerSec(), 1e-9, "2 NVLink2 links between GPU0 and GPU1; GPU0's link to GPU2 is not on the path");
    }

    @Test
    void pcieWhenTheGpusHaveNoNvlink() {
        FabricModel m = model(host("pcie", 2, "89", 0, "16.0", "16"));
        BusBwExpectation e = BusBwExpectations.of(m, run("NVIDIA L40S", "pcie", "0000:10:00", "pcie", "0000:11:00")).orElseThrow();
        assertEquals(BusBwExpectation.Hop.PCIE, e.hop());
        assertEquals(16 * 16 * 128.0 / 130 / 8, e.gbPerSec(), 1e-9);
        assertTrue(e.source().startsWith("PCIe Gen4 x16"), e.source());
        // NCCL writes link_width 0 when it cannot read it (VMs): no number to stand on
        assertTrue(BusBwExpectations.of(model(host("vm", 2, "89", 0, "16.0", "0")),
                run("NVIDIA L40S", "vm", "0000:10:00", "vm", "0000:11:00")).isEmpty());
    }

    @Test
    void nvidiaSmiMatrixGivesTheLinkCountAndTheNameTheGeneration() {
        HostTopologyBuilder b = new HostTopologyBuilder("node7/nvidia-smi-topo.txt", "node7");
        b.matrix(new NvidiaSmiMatrix(List.of("GPU0", "GPU1"), List.of(List.of("X", "NV12"), List.of("NV12", "X")),
                Map.of(), Map.of(), Map.of(), Evidence.at("node7/nvidia-smi-topo.txt", 2, "GPU0 X NV12")));
        BusBwExpectation e = BusBwExpectations.of(model(b), run("NVIDIA A100-SXM4-80GB", "node7", "", "node7", ""))
                .orElseThrow();
        assertEquals(300, e.gbPerSec(), 1e-9);
        assertTrue(e.source().contains("NV12 between GPU0 and GPU1 in nvidia-smi topo -m of host node7"), e.source());
        assertTrue(BusBwExpectations.of(model(b), run("Some GPU", "node7", "", "node7", "")).isEmpty(),
                "NV12 without a generation: no rate per link, no expectation");
    }

    @Test
    void noTopologyTheGpuModelSetsTheNvlinkRate() {
        FabricModel m = model(host("other", 2, "90", 18, "32.0", "0"));
        BusBwExpectation h200 = BusBwExpectations.of(m, run("NVIDIA H200", "vm", "0000:10:00", "vm", "0000:11:00")).orElseThrow();
        assertEquals(450, h200.gbPerSec(), 1e-9);
        assertEquals(BusBwExpectation.Hop.NVLINK, h200.hop());
        assertTrue(h200.source().contains("from the GPU name \"NVIDIA H200\" in the nccl-tests device lines of host vm; no topology"),
                h200.source());
        assertEquals(300, BusBwExpectations.of(FabricModel.empty(), run("NVIDIA A100-SXM4-80GB", "vm", "0000:06:00", "vm",
                "0000:07:00")).orElseThrow().gbPerSec(), 1e-9);
        assertEquals(200, BusBwExpectations.of(FabricModel.empty(), run("NVIDIA H800", "vm", "0000:06:00", "vm",
                "0000:07:00")).orElseThrow().gbPerSec(), 1e-9, "H800: 8 NVLinks, not 18");
        assertEquals(900, BusBwExpectations.of(FabricModel.empty(), run("NVIDIA B200", "vm", "0000:06:00", "vm",
                "0000:07:00")).orElseThrow().gbPerSec(), 1e-9);
    }

    @Test
    void noTopologyAndNoKnownSxmModelNoExpectation() {
        FabricModel m = model(host("other", 2, "90", 18, "32.0", "0"));
        for (String pcie : List.of("NVIDIA H100 PCIe", "NVIDIA H100 NVL", "NVIDIA L40S", "Tesla V100-SXM2-32GB", "")) {
            assertTrue(BusBwExpectations.of(m, run(pcie, "vm", "0000:10:00", "vm", "0000:11:00")).isEmpty(), pcie);
        }
        assertTrue(BusBwExpectations.of(m, run("NVIDIA H200", "other", "0000:10:00")).isEmpty(), "one rank: no path");
        assertTrue(BusBwExpectations.of(m, run("NVIDIA H200", "vm", "0000:10:00", "vm", "0000:10:00")).isEmpty(),
                "two ranks on one GPU: no link between them");
    }

    @Test
    void acrossHostsTheSlowestHostsNicsFromTheFabric() {
        Fabrics f = new Fabrics();
        FabricNode leaf = f.sw("leaf-1");
        for (int i = 0; i < 2; i++) {
            f.cable(f.hca("h1", i), leaf, LinkWidth.X4, LinkSpeed.NDR);
        }
        f.cable(f.hca("h2", 0), leaf, LinkWidth.X4, LinkSpeed.NDR);
        f.cable(f.hca("h2", 1), leaf, LinkWidth.X1, LinkSpeed.NDR);
        FabricModel m = f.build();
        BusBwExpectation e = BusBwExpectations.of(m, run("NVIDIA H100", "h1", "0000:10:00", "h2", "0000:10:00")).orElseThrow();
        assertEquals(BusBwExpectation.Hop.NETWORK, e.hop());
        assertEquals((400 + 100) / 8.0, e.gbPerSec(), 1e-9, "h2's second link trained at 1x");
        assertTrue(e.source().contains("2 HCA ports (4xNDR 400 Gb/s, 1xNDR 100 Gb/s) = 500 Gb/s of host h2"), e.source());
        assertEquals(List.of("h1", "h2"), e.hosts());
    }

    @Test
    void acrossHostsFromTheTopologysNetSpeedsAndNvlinkCapsThem() {
        HostTopologyBuilder[] hosts = new HostTopologyBuilder[2];
        for (int h = 0; h < 2; h++) {
            String name = "gpu-" + h;
            HostTopologyBuilder b = host(name, 2, "90", h == 0 ? 18 : 2, "32.0", "16");
            Cpu cpu = b.cpu(a("numaid", "1"), ev(name + ".topo.xml", "<cpu 1>"));
            for (int n = 0; n < 2; n++) {
                PciDevice p = b.pci(cpu, null, a("busid", "0000:4" + n + ":00.0", "class", "0x020700"), ev(name + ".topo.xml", "nic"));
                Nic nic = b.nic(cpu, p, ev(name + ".topo.xml", "<nic>"));
                b.net(nic, a("name", "mlx5_" + n, "dev", String.valueOf(n), "speed", "400000", "guid", "0x1" + h + n, "gdr", "1"),
                        ev(name + ".topo.xml", "<net mlx5_" + n + ">"));
            }
            hosts[h] = b;
        }
        NcclTestRun r = run("NVIDIA H100 80GB HBM3", "gpu-0", "0000:10:00", "gpu-0", "0000:11:00", "gpu-1", "0000:10:00",
                "gpu-1", "0000:11:00");
        BusBwExpectation e = BusBwExpectations.of(model(hosts[0]), r).orElse(null);
        assertNull(e, "gpu-1's topology is not loaded: its NICs are unknown");
        e = BusBwExpectations.of(model(hosts), r).orElseThrow();
        assertEquals(50, e.gbPerSec(), 1e-9, "gpu-1's GPUs have 2 NVLinks each (50 GB/s), below 2 x 400 Gb/s (100 GB/s)");
        assertEquals(BusBwExpectation.Hop.NVLINK, e.hop());
        assertTrue(e.source().contains("below the NICs: 2 RDMA NIC ports (400 Gb/s) = 800 Gb/s of host gpu-0"), e.source());
    }

    @Test
    void erdmaNicsFromSeed001sTableAndTheirRateFromTheTopology() {
        FabricModelBuilder b = new FabricModelBuilder();
        for (String node : List.of("node-a", "node-b")) {
            b.k8s().node(new K8sNode(node, Map.of("node.kubernetes.io/instance-type", "ecs.ebmgn8v.48xlarge"), List.of(),
                    Map.of(), Map.of(), true, null, false, E, E));
            String pod = node.replace("node", "worker");
            b.k8s().pod(new K8sPod(pod, "ml", node, "Running", Map.of(), JobIdentity.of(pod, Map.of()),
                    new PodSpecSummary(Map.of(), Map.of(), Map.of(), null, null, Map.of()), E), false);
        }
        NcclTestRun r = run("NVIDIA H20", "worker-a", "0000:10:00", "worker-b", "0000:10:00");
        assertTrue(BusBwExpectations.of(b.build(), r).isEmpty(), "the table gives the count, not the rate");
        for (String node : List.of("node-a", "node-b")) {
            HostTopologyBuilder t = new HostTopologyBuilder(node + ".topo.xml", node);
            Cpu cpu = t.cpu(a("numaid", "0"), ev(node + ".topo.xml", "<cpu>"));
            Nic nic = t.nic(cpu, null, ev(node + ".topo.xml", "<nic>"));
            t.net(nic, a("name", "erdma_0", "dev", "0", "speed", "200000", "guid", "0x0"), ev(node + ".topo.xml", "<net erdma_0>"));
            b.hostTopology(t);
        }
        BusBwExpectation e = BusBwExpectations.of(b.build(), r).orElseThrow();
        assertEquals(BusBwExpectation.Hop.ERDMA, e.hop());
        assertEquals(2 * 200 / 8.0, e.gbPerSec(), 1e-9);
        assertTrue(e.source().contains("the PAI eRDMA guide table: ecs.ebmgn8v.48xlarge has 2 eRDMA NICs x 200 Gb/s (speed of erdma_0 in node-a.topo.xml)"),
                e.source());
    }

    @Test
    void generationsByComputeCapabilityAndName() {
        assertEquals(25, BusBwExpectations.generation(70, "").gbPerLink());
        assertEquals("NVLink3", BusBwExpectations.generation(80, "").name());
        assertEquals(14.0625, BusBwExpectations.generation(86, "").gbPerLink());
        assertEquals("NVLink4", BusBwExpectations.generation(90, "").name());
        assertEquals(50, BusBwExpectations.generation(100, "").gbPerLink());
        assertEquals("NVLink4", BusBwExpectations.generation(-1, "NVIDIA H200").name());
        assertEquals("NVLink5", BusBwExpectations.generation(-1, "NVIDIA B200").name());
        assertEquals("NVLink3", BusBwExpectations.generation(-1, "NVIDIA A800-SXM4-80GB").name());
        assertNull(BusBwExpectations.generation(-1, "NVIDIA L40S"));
        assertEquals(Optional.empty(), Optional.ofNullable(BusBwExpectations.generation(-1, null)));
        assertEquals(32 * 128.0 / 130 / 8 * 16, BusBwExpectations.pcieGbPerLane(5) * 16, 1e-9);
    }
}
