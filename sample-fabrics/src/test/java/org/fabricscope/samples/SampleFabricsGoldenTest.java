package org.fabricscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.fabricscope.importers.ImportResult;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.analysis.FabricSummary;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The bundled captures (made with the real tools on ibsim) against the expected.json written
 * when they were captured: counts, tiers, and each injected fault found at its switch port.
 */
class SampleFabricsGoldenTest {
    @Test
    void railOptimisedSampleMatchesItsCapture() throws Exception {
        Path dir = Samples.root().resolve("rail-2su-hdr");
        JsonNode expected = Samples.json(dir.resolve("expected.json"));
        ImportResult r = Samples.load(Samples.captureFiles(dir));
        FabricSummary s = FabricSummary.of(r.model(), ErrorThresholds.defaults());
        JsonNode observed = expected.get("observed");
        assertEquals(observed.get("switches").asInt(), s.switches());
        assertEquals(observed.get("cas").asInt(), s.cas());
        assertEquals(observed.get("hosts").asInt(), s.hosts());
        assertEquals(observed.get("activeLinks").asInt(), s.cables());
        assertEquals(tokens(observed.get("linksByToken")), s.cablesBySpeed());
        assertEquals(16, s.switchTiers().get("leaf"));
        assertEquals(8, s.switchTiers().get("spine"));
        assertEquals(0, s.switchTiers().get("core"));
        assertEquals(1, s.cablesDegraded(), "only the 1x link");
        assertTrue(r.model().diagnostics().stream().noneMatch(d -> d.severity() != Severity.INFO),
                r.model().diagnostics().toString());
        // Every host has its 8 HCAs, one per rail.
        r.model().hosts().values().forEach(h -> assertEquals(8, h.adapters().size(), h.name()));
        assertFaultsFound(expected.get("faults"), r.model(), Samples.diagnose(r.model()), true);
    }

    @Test
    void sampleHostsJoinTheFabricFromGpuToLeaf() throws Exception {
        Path dir = Samples.root().resolve("rail-2su-hdr");
        List<Path> files = new java.util.ArrayList<>(Samples.captureFiles(dir));
        files.add(dir.resolve("hosts"));
        ImportResult r = Samples.load(files);
        FabricSummary s = FabricSummary.of(r.model(), ErrorThresholds.defaults());
        assertEquals(256, s.gpus());
        assertEquals(256, s.nics());
        assertEquals(256, s.nets());
        assertEquals(32 * 8 * 18, s.nvlinks(), "18 NVLinks per H100");
        for (FabricSummary.HostDetail h : FabricSummary.hostDetails(r.model())) {
            assertEquals(8, h.netsJoined(), h.name() + ": every NIC joins its HCA");
        }
        // GPU i sits next to mlx5_i, which is on rail i+1: its traffic enters leaf-suX-r(i+1).
        var t = r.model().hostTopology("dgx-su1-h04");
        for (var gpu : t.gpus()) {
            var path = r.model().fabricPath(gpu);
            assertEquals("PXB", path.affinity().label(), gpu.label());
            assertEquals("mlx5_" + gpu.index(), path.net().name());
            assertEquals("leaf-su1-r" + (gpu.index() + 1), path.leaf().displayName());
            assertEquals(4, path.leafPort().number(), "host h04 is on leaf port 4");
        }
        List<Finding> findings = Samples.diagnose(r.model());
        assertTrue(findings.stream().anyMatch(f -> f.id().equals("gdr-disabled") && f.title().contains("dgx-su1-h07")),
                findings.stream().map(Finding::title).toList().toString());
        assertTrue(findings.stream().anyMatch(f -> f.id().equals("pcie-degraded") && f.title().contains("dgx-su2-h03 GPU5")),
                findings.stream().map(Finding::title).toList().toString());
        assertTrue(findings.stream().noneMatch(f -> f.id().equals("nic-unmatched") || f.id().equals("gpu-nic-far")));
    }

    @Test
    void realH100CaptureReads() throws Exception {
        Path dir = Samples.root().resolve("gpu-captures/h100x1-nccl-2.28.9");
        ImportResult r = Samples.load(List.of(dir.resolve("topo.xml"), dir.resolve("graph.xml")));
        assertTrue(r.model().diagnostics().stream().noneMatch(d -> d.severity() != Severity.INFO),
                r.model().diagnostics().toString());
        assertEquals(1, r.model().hostTopologies().size());
        var t = r.model().hostTopologies().values().iterator().next();
        assertEquals(1, t.gpus().size());
        assertEquals(90, t.gpus().get(0).sm());
        assertEquals(16, t.gpus().get(0).pci().linkWidth(), "link_width=\"0\" reads as x16, as NCCL does");
        assertEquals(1, t.nics().size(), "the socket NIC eth0 sits directly under the CPU");
        assertEquals("eth0", t.nets().get(0).name());
        assertEquals(0, t.nets().get(0).gdr());
        assertEquals(0, t.nvlinkCount());
        assertEquals(5, t.graphs().size(), "ring, tree, collnet-chain, NVLS and collnet-direct graphs");
        var ring = t.graphs().stream().filter(g -> g.id() == 0).findFirst().orElseThrow();
        assertEquals(4, ring.pattern());
        assertEquals(32, ring.nchannels());
    }

    @Test
    void threeTierSampleMatchesItsGenerator() throws Exception {
        Path dir = Samples.root().resolve("fat-tree-3tier-small");
        JsonNode fabric = Samples.json(dir.resolve("fabric.json"));
        ImportResult r = Samples.load(Samples.captureFiles(dir));
        FabricSummary s = FabricSummary.of(r.model(), ErrorThresholds.defaults());
        SimulatedFabricIT.assertMatchesGenerator(fabric, r, s);
    }

    @Test
    void everyCaptureVariantReadsWithoutWarnings() throws Exception {
        Path variants = Samples.root().resolve("rail-2su-hdr/variants");
        Path topology = Samples.root().resolve("rail-2su-hdr/ibnetdiscover.txt");
        try (var files = Files.list(variants)) {
            for (Path f : files.sorted().toList()) {
                // counters and link state need the topology to be placed on ports, as in real use
                ImportResult r = Samples.load(List.of(topology, f));
                assertTrue(!"unknown".equals(r.formats().get(f.toString())), f + " was recognised");
                assertTrue(r.model().diagnostics().stream().noneMatch(d -> d.severity() == Severity.WARNING
                        || d.severity() == Severity.ERROR), f + ": " + r.model().diagnostics());
            }
        }
    }

    static Map<String, Integer> tokens(JsonNode n) {
        Map<String, Integer> m = new TreeMap<>();
        n.properties().forEach(e -> m.put(e.getKey(), e.getValue().asInt()));
        return m;
    }

    /** Each fault in expected.json (rail format: at.name / at.port) is reported at its switch port. */
    static void assertFaultsFound(JsonNode faults, FabricModel model, List<Finding> findings, boolean railFormat) {
        assertTrue(faults.size() > 0);
        for (JsonNode f : faults) {
            String kind = f.get("kind").asText();
            String id = Samples.FINDING_FOR_FAULT.get(kind);
            String desc = railFormat ? f.get("at").get("name").asText() : f.get("switchDescription").asText();
            String name = desc.replaceFirst("^MF0;([^:]+):.*$", "$1");
            int port = railFormat ? f.get("at").get("port").asInt() : f.get("port").asInt();
            boolean found = Samples.hasFinding(model, findings, id, name, port);
            assertTrue(found, kind + " at " + name + " port " + port + " not in findings: "
                    + findings.stream().map(x -> x.id() + " " + x.subjects()).toList());
        }
    }
}
