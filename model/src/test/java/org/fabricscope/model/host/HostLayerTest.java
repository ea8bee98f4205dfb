package org.fabricscope.model.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.FabricEdge;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.Fabrics;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.diagnosis.Diagnosis;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.jgrapht.GraphPath;
import org.jgrapht.alg.shortestpath.DijkstraShortestPath;
import org.junit.jupiter.api.Test;

/**
 * The host layer joined to a fabric: host naming by net GUID (either byte order) and by
 * {@code <host> mlx5_N}, the GPU -> NIC -> HCA -> leaf -> spine path in the graph, and the
 * host-layer findings.
 */
class HostLayerTest {
    static final long SYS0 = 0x946dae030050709aL; // as ibnetdiscover prints sysimgguid
    static final long SYS2 = 0x946dae03001e0108L;

    static Map<String, String> a(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    int line = 1;

    Evidence ev(String text) {
        return Evidence.at("topo-dump.xml", line++, text);
    }

    static Map<String, String> pci(String busId, String cls, String gts, String width) {
        return a("busid", busId, "class", cls, "link_speed", gts + " GT/s PCIe", "link_width", width);
    }

    /** dgx-01: two sockets; GPU0 beside a dual-port NIC; GPU1 degraded and without GDR; GPU2 alone on socket 1. */
    HostTopologyBuilder dgx01() {
        HostTopologyBuilder b = new HostTopologyBuilder("topo-dump.xml");
        b.system(a("version", "1"), ev("<system>"));
        Cpu c0 = b.cpu(a("numaid", "0"), ev("<cpu 0>"));
        PciDevice swA = b.pci(c0, null, pci("0000:10:00.0", "0x060400", "32.0", "16"), ev("switch A"));
        PciDevice g0 = b.pci(c0, swA, pci("0000:11:00.0", "0x030200", "32.0", "16"), ev("gpu0 pci"));
        b.gpu(g0, a("dev", "0", "sm", "90", "rank", "0", "gdr", "1"), ev("<gpu dev=0>"));
        PciDevice n0 = b.pci(c0, swA, pci("0000:12:00.0", "0x020700", "32.0", "16"), ev("nic0 pci"));
        Nic nic0 = b.nic(c0, n0, ev("<nic>"));
        b.net(nic0, a("name", "mlx5_0", "dev", "0", "port", "1", "guid", "0x" + Long.toHexString(Long.reverseBytes(SYS0)),
                "gdr", "1", "speed", "400000"), ev("<net mlx5_0>"));
        b.net(nic0, a("name", "mlx5_1", "dev", "1", "port", "2", "guid", "0x" + Long.toHexString(Long.reverseBytes(SYS0)),
                "gdr", "1", "speed", "400000"), ev("<net mlx5_1>"));
        PciDevice swB = b.pci(c0, null, pci("0000:20:00.0", "0x060400", "32.0", "16"), ev("switch B"));
        PciDevice g1 = b.pci(c0, swB, pci("0000:21:00.0", "0x030200", "16.0", "8"), ev("gpu1 pci"));
        b.gpu(g1, a("dev", "1", "sm", "90", "rank", "1", "gdr", "0"), ev("<gpu dev=1>"));
        PciDevice n2 = b.pci(c0, swB, pci("0000:22:00.0", "0x020700", "32.0", "16"), ev("nic2 pci"));
        Nic nic2 = b.nic(c0, n2, ev("<nic>"));
        b.net(nic2, a("name", "mlx5_2", "dev", "2", "port", "1", "guid", "12345", "gdr", "1"), ev("<net mlx5_2>"));
        b.net(nic2, a("name", "mlx5_9", "dev", "3", "port", "1", "guid", "0x77", "gdr", "1"), ev("<net mlx5_9>"));
        Cpu c1 = b.cpu(a("numaid", "1"), ev("<cpu 1>"));
        PciDevice g2 = b.pci(c1, null, pci("0000:80:00.0", "0x030200", "32.0", "0"), ev("gpu2 pci"));
        b.gpu(g2, a("dev", "2", "sm", "90", "rank", "2", "gdr", "1"), ev("<gpu dev=2>"));
        return b;
    }

    record World(FabricModel model, FabricNode hca0, FabricNode hca1, FabricNode hca2, FabricNode leaf, FabricNode spine) {
    }

    World world(boolean withFabric) {
        Fabrics f = new Fabrics();
        FabricNode leaf = null;
        FabricNode spine = null;
        FabricNode h0 = null;
        FabricNode h1 = null;
        FabricNode h2 = null;
        if (withFabric) {
            leaf = f.sw("leaf-1");
            spine = f.sw("spine-1");
            h0 = f.ca("dgx-01 mlx5_0", SYS0);
            h1 = f.ca("dgx-01 mlx5_1", SYS0);
            h2 = f.ca("dgx-01 mlx5_2", SYS2);
            f.cable(h0, leaf);
            f.cable(h1, leaf);
            f.cable(h2, leaf);
            f.cable(leaf, spine);
        }
        FabricModelBuilder b = f.builder();
        b.hostTopology(dgx01());
        return new World(b.build(), h0, h1, h2, leaf, spine);
    }

    @Test
    void hostIsNamedByNetGuidAndNetsJoinTheirHcas() {
        World w = world(true);
        HostTopology t = w.model().hostTopology("dgx-01");
        assertNotNull(t, w.model().hostTopologies().keySet().toString());
        assertEquals(HostNameSource.FABRIC_GUID, t.nameSource());
        NetPort m0 = t.net("mlx5_0");
        NetPort m1 = t.net("mlx5_1");
        assertEquals(w.hca0(), m0.hca());
        assertEquals(NetPort.Join.GUID_BYTE_SWAPPED, m0.join());
        assertEquals(w.hca1(), m1.hca(), "the dual-port card's second net joins the CA named mlx5_1");
        assertEquals(1, m1.hcaPort().number(), "port 2 does not exist on that CA: its cabled port is used");
        NetPort m2 = t.net("mlx5_2");
        assertEquals(w.hca2(), m2.hca(), "decimal guid matches nothing: joined by <host> mlx5_2");
        assertEquals(NetPort.Join.NAME, m2.join());
        assertNull(t.net("mlx5_9").hca());
        assertEquals(2, t.nics().size());
        assertEquals(4, t.nets().size());
        assertEquals(3, t.gpus().size());
    }

    @Test
    void gpuToSpineIsOnePathInTheGraph() {
        World w = world(true);
        FabricModel m = w.model();
        HostTopology t = m.hostTopology("dgx-01");
        Gpu g0 = t.gpus().get(0);
        GpuFabricPath p = m.fabricPath(g0);
        assertEquals(t.net("mlx5_0"), p.net());
        assertEquals(PathType.PIX, p.affinity());
        assertEquals(w.hca0(), p.hca());
        assertEquals(w.leaf(), p.leaf());
        assertTrue(p.complete());
        assertEquals(List.of("gpu:dgx-01/0000:11:00.0", "pci:dgx-01/0000:10:00.0", "nic:dgx-01/0000:12:00.0",
                "net:dgx-01/mlx5_0#0", w.hca0().id(), w.leaf().id()), p.hops().stream().map(Vertex::id).toList());

        GraphPath<Vertex, FabricEdge> path = DijkstraShortestPath.findPathBetween(m.linkGraph(), g0, w.spine());
        assertNotNull(path, "GPU -> PCIe -> NIC -> net -> HCA -> leaf -> spine");
        String kinds = path.getEdgeList().stream().map(e -> e instanceof HostLink h ? h.kind().name() : e.getClass().getSimpleName())
                .collect(Collectors.joining(" "));
        assertEquals("PCIE PCIE NIC_NET NET_HCA Cable Cable", kinds);

        GpuFabricPath far = m.fabricPath(t.gpus().get(2));
        assertEquals(PathType.SYS, far.affinity());
        assertTrue(far.hops().contains(t.cpus().get(1)) && far.hops().contains(t.cpus().get(0)), far.hops().toString());
    }

    @Test
    void cableGraphStaysFabricOnly() {
        World w = world(true);
        FabricModel m = w.model();
        assertTrue(m.cableGraph().vertexSet().stream().allMatch(v -> v instanceof FabricNode));
        assertEquals(m.nodes().size(), m.cableGraph().vertexSet().size());
        assertEquals(4, m.cableGraph().edgeSet().size());
        assertEquals(1, m.hosts().size(), "hosts() still lists fabric hosts only");
        assertTrue(m.graph().vertexSet().size() > m.nodes().size() + 10);
    }

    @Test
    void withoutFabricTheFileNameNamesTheHost() {
        HostTopologyBuilder b = new HostTopologyBuilder("bundle.tgz!/cluster/gpu-17/topo.xml");
        assertEquals("gpu-17", b.hostHint());
        assertEquals(HostNameSource.FOLDER_NAME, b.hintSource());
        HostTopologyBuilder c = new HostTopologyBuilder("/tmp/gpu-18.topo.xml");
        assertEquals("gpu-18", c.hostHint());
        assertEquals(HostNameSource.FILE_NAME, c.hintSource());
        assertEquals("gpu-19", new HostTopologyBuilder("x/gpu-19.xml").hostHint());
        assertEquals("nodes", new HostTopologyBuilder("nodes/nvidia-smi.txt").hostHint());
        World w = world(false);
        HostTopology t = w.model().hostTopologies().values().iterator().next();
        assertEquals(HostNameSource.NONE, t.nameSource());
        assertTrue(t.name().startsWith("unknown-host"), t.name());
        assertNull(t.net("mlx5_0").hca());
        assertFalse(w.model().fabricPath(t.gpus().get(0)).complete());
    }

    @Test
    void hostFindings() {
        World w = world(true);
        List<Finding> fs = Diagnosis.standard(ErrorThresholds.defaults()).run(org.fabricscope.model.diagnosis.CheckContext.of(w.model()));
        Map<String, List<Finding>> byId = fs.stream().collect(Collectors.groupingBy(Finding::id));
        List<Finding> pcie = byId.get("pcie-degraded");
        assertEquals(1, pcie.size(), fs.toString());
        assertEquals(List.of("dgx-01 GPU1 (0000:21:00.0)"), pcie.get(0).subjects());
        assertTrue(pcie.get(0).title().contains("x8 instead of x16"), pcie.get(0).title());
        assertTrue(pcie.get(0).title().contains("16 GT/s where other GPUs of the host run 32 GT/s"), pcie.get(0).title());
        assertEquals("topo-dump.xml", pcie.get(0).evidence().get(0).source());
        assertTrue(pcie.get(0).remedies().get(0).contains("x16"));

        List<Finding> gdr = byId.get("gdr-disabled");
        assertEquals(1, gdr.size());
        assertEquals(List.of("dgx-01 GPU1 (0000:21:00.0)"), gdr.get(0).subjects());
        assertTrue(gdr.get(0).remedies().get(0).contains("nvidia-peermem"));

        List<Finding> far = byId.get("gpu-nic-far");
        assertEquals(1, far.size());
        assertEquals(List.of("dgx-01 GPU2 (0000:80:00.0)"), far.get(0).subjects());

        List<Finding> unmatched = byId.get("nic-unmatched");
        assertEquals(1, unmatched.size());
        assertEquals(List.of("dgx-01 mlx5_9"), unmatched.get(0).subjects());
        assertTrue(unmatched.get(0).remedies().stream().anyMatch(r -> r.contains("NCCL_IB_HCA")));
        assertTrue(fs.stream().allMatch(f -> !f.evidence().isEmpty()));
    }

    @Test
    void nicUnmatchedNeedsAFabric() {
        List<Finding> fs = Diagnosis.standard(ErrorThresholds.defaults()).run(org.fabricscope.model.diagnosis.CheckContext.of(world(false).model()));
        assertTrue(fs.stream().noneMatch(f -> f.id().equals("nic-unmatched")));
        assertTrue(fs.stream().anyMatch(f -> f.id().equals("gpu-nic-far")));
    }

    @Test
    void fabricDiagnosisIsUnchanged() {
        assertEquals(4, Diagnosis.fabric(ErrorThresholds.defaults()).checks().size());
        assertEquals(33, Diagnosis.standard(ErrorThresholds.defaults()).checks().size(),
                "fabric, host, Kubernetes and training checks, rank-path-errors across them, the hang forensics, nccl-tests (wrong data, bus bandwidth), host evidence and incident checks, and the Ethernet/RoCE checks");
    }

    @Test
    void gdrOffOnAWholeHostIsFoundAgainstOtherHosts() {
        HostTopologyBuilder good = new HostTopologyBuilder("a/topo.xml");
        HostTopologyBuilder bad = new HostTopologyBuilder("b/topo.xml");
        for (HostTopologyBuilder b : List.of(good, bad)) {
            String gdr = b == good ? "1" : "0";
            b.system(a("version", "1"), ev("<system>"));
            Cpu c = b.cpu(a("numaid", "0"), ev("<cpu>"));
            PciDevice sw = b.pci(c, null, pci("0000:10:00.0", "0x060400", "32.0", "16"), ev("sw"));
            PciDevice g = b.pci(c, sw, pci("0000:11:00.0", "0x030200", "32.0", "16"), ev("g"));
            b.gpu(g, a("dev", "0", "sm", "90", "rank", "0", "gdr", gdr), ev("<gpu>"));
            PciDevice n = b.pci(c, sw, pci("0000:12:00.0", "0x020700", "32.0", "16"), ev("n"));
            b.net(b.nic(c, n, ev("<nic>")), a("name", "mlx5_0", "dev", "0", "gdr", gdr), ev("<net>"));
        }
        FabricModelBuilder mb = new FabricModelBuilder();
        mb.hostTopology(good);
        mb.hostTopology(bad);
        List<Finding> fs = Diagnosis.standard(ErrorThresholds.defaults()).run(org.fabricscope.model.diagnosis.CheckContext.of(mb.build()));
        List<Finding> gdr = fs.stream().filter(f -> f.id().equals("gdr-disabled")).toList();
        assertEquals(2, gdr.size(), fs.toString());
        assertTrue(gdr.stream().allMatch(f -> f.subjects().get(0).startsWith("b ")));
    }
}
