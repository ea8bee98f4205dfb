package org.fabricscope.importers.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.host.AffinityMatrix;
import org.fabricscope.model.host.Gpu;
import org.fabricscope.model.host.HostNameSource;
import org.fabricscope.model.host.HostTopology;
import org.fabricscope.model.host.NcclGraph;
import org.fabricscope.model.host.NetPort;
import org.fabricscope.model.host.Nic;
import org.fabricscope.model.host.NvLink;
import org.fabricscope.model.host.NvidiaSmiMatrix;
import org.fabricscope.model.host.PathType;
import org.fabricscope.model.host.PciDevice;
import org.fabricscope.model.host.PciKind;
import org.junit.jupiter.api.Test;

/** Golden tests on every reference NCCL file (see src/test/resources/reference/nccl/README.md). */
class NcclTopologyGoldenTest {

    static HostTopology only(ImportResult r) {
        Map<String, HostTopology> ts = r.model().hostTopologies();
        assertEquals(1, ts.size(), ts.keySet().toString());
        return ts.values().iterator().next();
    }

    static void noProblems(FabricModel m) {
        assertEquals("", TestSupport.dump(TestSupport.atLeast(m, Severity.WARNING)));
    }

    @Test
    void ociH100Dump() {
        ImportResult r = NcclFiles.importAs("oci-h100-01.topo.xml", NcclFiles.OCI);
        assertEquals("nccl-topology", r.formats().get("oci-h100-01.topo.xml"));
        assertTrue(r.readAnything());
        noProblems(r.model());
        HostTopology t = only(r);
        assertEquals("oci-h100-01", t.name());
        assertEquals(HostNameSource.FILE_NAME, t.nameSource());
        assertEquals(1, t.version());
        assertEquals(2, t.cpus().size());
        assertEquals(List.of(0, 1), t.cpus().stream().map(c -> c.numaId()).toList());
        assertEquals("GenuineIntel", t.cpus().get(0).vendor());
        assertEquals(143, t.cpus().get(0).modelId());
        assertEquals(40, t.pciDevices().size()); // 8 top switches, 16 second-level, 8 GPUs, 8 NICs
        assertEquals(24, t.pciDevices().stream().filter(p -> p.kind() == PciKind.BRIDGE).count());
        assertEquals(8, t.gpus().size());
        assertEquals(8, t.nics().size(), "dual-port adapters count once");
        assertEquals(16, t.nets().size(), "and twice as nets");
        assertEquals(32, t.nvlinks().size());
        assertEquals(8 * 18, t.nvlinkCount());
        assertEquals(4, t.nvswitches().size());

        Gpu g0 = t.gpus().get(0);
        assertEquals("0000:0f:00.0", g0.busId());
        assertEquals(0, g0.dev());
        assertEquals(0, g0.rank());
        assertEquals(90, g0.sm());
        assertEquals(1, g0.gdr());
        assertEquals(18, g0.nvswitchLinkCount());
        assertEquals(NvLink.TargetKind.NVSWITCH, g0.nvlinks().get(0).targetKind());
        assertEquals(7, g0.evidence().line(), "the file starts with a blank line");
        assertTrue(g0.evidence().text().startsWith("<gpu dev=\"0\" sm=\"90\""), g0.evidence().text());
        assertEquals("0000:0d:00.0", g0.pci().parent().busId());
        assertEquals("0000:08:00.0", g0.pci().parent().parent().busId());
        assertEquals(16, g0.pci().linkWidth());
        assertEquals(32.0, g0.pci().linkGts());
        assertEquals(5, g0.pci().pcieGeneration());
        assertEquals(5.0, g0.pci().parent().parent().linkGts());

        Nic n0 = t.nics().get(0);
        assertEquals("0000:0c:00.0", n0.pci().busId());
        assertEquals(List.of("mlx5_0", "mlx5_1"), n0.nets().stream().map(NetPort::name).toList());
        NetPort mlx50 = n0.nets().get(0);
        assertEquals(0x9a70500003ae6d94L, mlx50.guid());
        assertEquals(180000, mlx50.speed());
        assertEquals(1, mlx50.port());
        assertEquals(1, mlx50.gdr());
        assertEquals(131072, mlx50.maxconn());
        assertEquals(2, n0.nets().get(1).port());
        NetPort last = t.net("mlx5_12");
        assertEquals(0x8011e0003ae6d94L, last.guid(), "15 hex digits: leading zero dropped by NCCL");

        AffinityMatrix m = t.affinity();
        assertEquals(24, m.devices().size());
        assertEquals("PXB", m.label(g0, mlx50), "GPU and NIC under sibling switches below one Broadcom switch");
        assertEquals("PXB", m.label(g0, n0.nets().get(1)));
        assertEquals("NODE", m.label(g0, t.net("mlx5_3")), "another switch of the same socket");
        assertEquals("SYS", m.label(g0, t.net("mlx5_9")), "the other socket");
        assertEquals("PIX", m.label(mlx50, n0.nets().get(1)), "two ports of one adapter");
        assertEquals("NV18", m.label(g0, t.gpus().get(7)), "4 NVSwitches, 5+5+4+4 links");
        assertEquals("NODE", t.pcieAffinity().label(g0, t.gpus().get(1)));
        assertEquals("SYS", t.pcieAffinity().label(g0, t.gpus().get(7)));
        for (Gpu g : t.gpus()) {
            assertEquals(PathType.PXB, m.nearestNicType(g));
        }
        assertEquals(mlx50, m.nearestNet(g0));
        assertEquals("NIC0", m.name(mlx50));
        assertEquals("GPU0", m.name(g0));
        assertTrue(m.toText().contains("NIC0: mlx5_0"), m.toText());
    }

    @Test
    void azureNdv5FlattenedFile() {
        ImportResult r = NcclFiles.importAs("ndv5/topo.xml", NcclFiles.AZURE);
        noProblems(r.model());
        HostTopology t = only(r);
        assertEquals("ndv5", t.name());
        assertEquals(HostNameSource.FOLDER_NAME, t.nameSource());
        assertEquals(2, t.cpus().size());
        assertEquals(8, t.gpus().size());
        assertEquals(8, t.nics().size());
        assertEquals(0, t.nets().size(), "a flattened file has no <net>");
        assertEquals(8, t.pciDevices().stream().filter(PciDevice::isVirtual).count());
        Gpu g0 = t.gpus().get(0);
        assertEquals("0001:00:00.0", g0.busId());
        assertEquals(-1, g0.dev());
        assertEquals(-1, g0.gdr());
        assertEquals("0008:00:00.0", t.gpus().get(3).busId());
        assertEquals("GPU3", t.gpus().get(3).label());
        AffinityMatrix m = t.affinity();
        assertEquals(16, m.devices().size());
        assertEquals(List.of("NIC0", "NIC1"), m.names().subList(8, 10));
        assertEquals("PIX", m.cell("GPU0", "NIC0").label(), "GPU and NIC under one virtual switch");
        assertEquals("PHB", m.cell("GPU0", "NIC1").label(), "virtual switches of one CPU share bus ffff:ff");
        assertEquals("SYS", m.cell("GPU0", "NIC4").label());
        assertEquals("PHB", m.cell("GPU0", "GPU1").label(), "no NVLink in a flattened file");
        for (Gpu g : t.gpus()) {
            assertEquals(PathType.PIX, m.nearestNicType(g));
        }
    }

    @Test
    void h200CaptureTopologyAndGraph() {
        ImportResult r = NcclFiles.importAs("vm/topo.xml", NcclFiles.H200_TOPO, "vm/graph.xml", NcclFiles.H200_GRAPH);
        assertEquals("nccl-graph", r.formats().get("vm/graph.xml"));
        noProblems(r.model());
        HostTopology t = only(r);
        assertEquals("vm", t.name());
        assertEquals(List.of("vm/topo.xml", "vm/graph.xml"), t.sources());
        assertEquals(1, t.cpus().size());
        assertEquals(-1, t.cpus().get(0).numaId());
        assertEquals("0xdd15f394be323c05", t.cpus().get(0).hostHash());
        assertEquals(2, t.gpus().size());
        Gpu g0 = t.gpus().get(0);
        assertEquals(0, g0.pci().linkWidthRaw());
        assertEquals(16, g0.pci().linkWidth(), "link_width=0 is read as 16, as NCCL does");
        NvLink l = g0.nvlinks().get(0);
        assertTrue(l.remote());
        assertEquals(NvLink.TargetKind.NVSWITCH, l.targetKind());
        assertEquals(18, l.count());
        assertEquals(1, t.nics().size());
        Nic eth = t.nics().get(0);
        assertNull(eth.pci(), "socket NIC directly under the CPU");
        NetPort e0 = eth.nets().get(0);
        assertEquals("eth0", e0.name());
        assertEquals(0, e0.gdr());
        assertEquals(0, e0.guid());
        assertFalse(e0.onPcie());

        assertEquals(5, t.graphs().size());
        NcclGraph ring = t.graphs().get(0);
        assertEquals("ring", ring.algorithm());
        assertEquals("ring", ring.patternName());
        assertEquals(12, ring.nchannels());
        assertEquals(12, ring.channels().size());
        assertEquals("NVL", ring.typeIntra());
        assertEquals(List.of(0L, 1L), ring.channels().get(0).steps().stream().map(NcclGraph.Step::dev).toList(),
                "gpu dev=\"0x1\" is hex, as strtol(..., 0) reads it");
        NcclGraph tree = t.graphs().get(1);
        assertEquals("tree", tree.algorithm());
        assertEquals("balanced-tree", tree.patternName());
        assertEquals(List.of(1L, 0L), tree.channels().get(6).steps().stream().map(NcclGraph.Step::dev).toList());
        assertEquals(0, t.graphs().get(2).channels().size());
        assertEquals("collnet-direct", t.graphs().get(2).algorithm());
    }

    @Test
    void h200SocketGraphListsNets() {
        ImportResult r = NcclFiles.importAs("vm/topo.xml", NcclFiles.H200_SOCKET_TOPO, "vm/graph.xml",
                NcclFiles.H200_SOCKET_GRAPH);
        noProblems(r.model());
        HostTopology t = only(r);
        NcclGraph ring = t.graphs().get(0);
        assertEquals(1, ring.channels().size());
        assertEquals(List.of(true, false, true),
                ring.channels().get(0).steps().stream().map(NcclGraph.Step::net).toList());
        assertEquals("PHB", ring.typeInter());
        AffinityMatrix m = t.affinity();
        assertEquals(PathType.PHB, m.cell(t.gpus().get(0), t.net("eth0")).type(),
                "the socket NIC NCCL hangs off the CPU is PHB from each GPU, as the graph's typeinter says");
        assertEquals(2, m.nvidiaSmiCount(), "nvidia-smi does not list socket NICs");
    }

    /** The computed matrix equals what nvidia-smi printed on the same host (topo -m and topo -mp). */
    @Test
    void h200AffinityEqualsNvidiaSmi() {
        ImportResult r = NcclFiles.importAs("vm/topo.xml", NcclFiles.H200_TOPO, "vm/nvidia-smi.txt", NcclFiles.H200_SMI);
        assertEquals("nvidia-smi-topo", r.formats().get("vm/nvidia-smi.txt"));
        noProblems(r.model());
        HostTopology t = only(r);
        assertEquals(2, t.reportedMatrices().size());
        NvidiaSmiMatrix topoM = t.reportedMatrices().get(0);
        NvidiaSmiMatrix topoMp = t.reportedMatrices().get(1);
        assertTrue(topoM.hasNvlink());
        assertFalse(topoMp.hasNvlink());
        assertEquals(List.of("GPU0", "GPU1"), topoM.devices());
        assertEquals("0-31", topoM.cpuAffinity().get("GPU0"));
        assertEquals("0", topoM.numaAffinity().get("GPU1"));
        assertEquals(matrixOf(topoM), matrixOf(t.affinity(), topoM.devices()));
        assertEquals(matrixOf(topoMp), matrixOf(t.pcieAffinity(), topoMp.devices()));
        assertEquals("NV18", t.affinity().cell("GPU0", "GPU1").label());
        assertEquals("PHB", t.pcieAffinity().cell("GPU0", "GPU1").label());
    }

    static String matrixOf(NvidiaSmiMatrix m) {
        return m.cells().stream().map(row -> String.join(" ", row)).collect(Collectors.joining("\n"));
    }

    static String matrixOf(AffinityMatrix m, List<String> names) {
        return names.stream().map(a -> names.stream().map(b -> m.cell(a, b).label()).collect(Collectors.joining(" ")))
                .collect(Collectors.joining("\n"));
    }

    @Test
    void nvidiaSmiAloneGivesAHost() {
        ImportResult r = NcclFiles.importAs("h200-vm/nvidia-smi.txt", NcclFiles.H200_SMI);
        noProblems(r.model());
        HostTopology t = only(r);
        assertEquals("h200-vm", t.name());
        assertFalse(t.hasTree());
        assertEquals(2, t.gpus().size());
        assertEquals("NV18", t.affinity().cell("GPU0", "GPU1").label());
        assertEquals("PHB", t.pcieAffinity().cell("GPU1", "GPU0").label());
    }

    @Test
    void everyReferenceFileIsDetectedFromContent() {
        ImportResult r = NcclFiles.importAs("a", NcclFiles.OCI, "b", NcclFiles.AZURE, "c", NcclFiles.H200_TOPO,
                "d", NcclFiles.H200_GRAPH, "e", NcclFiles.H200_SOCKET_GRAPH, "f", NcclFiles.H200_SMI);
        assertEquals("nccl-topology", r.formats().get("a"));
        assertEquals("nccl-topology", r.formats().get("b"));
        assertEquals("nccl-topology", r.formats().get("c"));
        assertEquals("nccl-graph", r.formats().get("d"));
        assertEquals("nccl-graph", r.formats().get("e"));
        assertEquals("nvidia-smi-topo", r.formats().get("f"));
        assertNotNull(r.model());
    }
}
