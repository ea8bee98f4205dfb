package org.fabricscope.importers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.CaRole;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.analysis.FabricSummary;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.fabric.Tier;
import org.fabricscope.model.diagnosis.Diagnosis;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Golden test on a real capture: Selene's compute fabric (see src/test/resources/reference/README.md).
 * The expected numbers were counted from the text with grep/awk, independently of the importer.
 */
class SeleneGoldenTest {
    static final String RESOURCE = "/reference/selene-compute.ibnetdiscover.txt.gz";

    @TempDir
    static Path tmp;
    static ImportResult result;
    static FabricModel model;

    @BeforeAll
    static void load() throws IOException {
        Path gz = tmp.resolve("selene-compute.ibnetdiscover.txt.gz");
        try (InputStream in = SeleneGoldenTest.class.getResourceAsStream(RESOURCE)) {
            assertNotNull(in, "test resource " + RESOURCE + " is missing");
            Files.copy(in, gz);
        }
        result = new FabricImporter().importPaths(List.of(gz), ImportProgress.NONE, Cancellation.NEVER);
        model = result.model();
    }

    @Test
    void readAsIbnetdiscover() {
        assertEquals(1, result.formats().size(), result.formats().toString());
        assertEquals("ibnetdiscover", result.formats().values().iterator().next());
    }

    @Test
    void nodeCounts() {
        assertEquals(666, model.switches().size());
        assertEquals(4341, model.channelAdapters().size());
        assertEquals(0, model.nodes().stream().filter(n -> n.kind() == org.fabricscope.model.fabric.NodeKind.ROUTER).count());
    }

    @Test
    void eachPhysicalLinkIsOneCable() {
        // (21,363 switch port lines - 4,341 that lead to CAs) / 2 + 4,341 CA links
        assertEquals(12852, model.cables().size());
        Set<String> ends = new HashSet<>();
        for (Cable c : model.cables()) {
            assertTrue(ends.add(c.a().toString()), "port cabled twice: " + c.a());
            assertTrue(ends.add(c.b().toString()), "port cabled twice: " + c.b());
            assertTrue(c.a().cable() == c && c.b().cable() == c);
        }
        assertEquals(12852, model.cableGraph().edgeSet().size());
    }

    /**
     * Tier by name prefix. The wiring (counted with awk) is LG/MLG leaves -> CSPINE/MSPINE spines
     * -> CCORE cores, plus 4 cables from the MLG management leaves straight up to CSPINE spines.
     */
    static Tier expectedTier(String name) {
        if (name.startsWith("LG") || name.startsWith("MLG")) {
            return Tier.LEAF;
        }
        if (name.startsWith("CSPINE") || name.startsWith("MSPINE")) {
            return Tier.SPINE;
        }
        if (name.startsWith("CCORE")) {
            return Tier.CORE;
        }
        return null;
    }

    @Test
    void everySwitchTierMatchesItsNamePrefix() {
        List<String> mismatches = new ArrayList<>();
        for (FabricNode s : model.switches()) {
            Tier want = expectedTier(s.displayName());
            if (want != s.tier()) {
                mismatches.add(s.displayName() + " is " + s.tier() + ", expected " + want);
            }
        }
        assertEquals(List.of(), mismatches, mismatches.size() + " tier mismatches");
        Map<Tier, List<FabricNode>> byTier = model.switchesByTier();
        assertEquals(204, byTier.get(Tier.LEAF).size());
        assertEquals(322, byTier.get(Tier.SPINE).size());
        assertEquals(140, byTier.get(Tier.CORE).size());
        assertEquals(0, byTier.get(Tier.OTHER).size());
    }

    @Test
    void switchNamesAndModelsComeFromManagedDescriptions() {
        FabricNode leaf = model.node(0x1c34da0300728866L);
        assertEquals("MLG01-02", leaf.displayName());
        assertEquals("MQM8700", leaf.switchModel());
        assertEquals(1600, leaf.lid());
        assertEquals(Boolean.TRUE, leaf.enhancedPort0());
        assertEquals(41, leaf.numPorts());
        assertTrue(model.switches().stream().allMatch(s -> "MQM8700".equals(s.switchModel())));
    }

    @Test
    void aggregationNodesAreNotHosts() {
        long sharp = model.channelAdapters().stream().filter(n -> n.role() == CaRole.SHARP_AGGREGATION).count();
        // 666 SHARP CAs (one inside each switch): 1,332 lines name them, a Ca header and the switch's port line each
        assertEquals(666, sharp);
        long hostCas = model.channelAdapters().stream().filter(FabricNode::isHostAdapter).count();
        assertEquals(4341 - 666, hostCas);
        assertTrue(model.hosts().values().stream()
                .allMatch(h -> h.adapters().stream().noneMatch(a -> a.description().contains("Aggregation"))));
        assertNotNull(model.host("selene-cache-02"), "host names come from the HCA description");
    }

    @Test
    void summary() {
        FabricSummary s = FabricSummary.of(model, ErrorThresholds.defaults());
        assertEquals(666, s.switches());
        assertEquals(4341, s.cas());
        assertEquals(3675, s.hostCas());
        assertEquals(12852, s.cables());
        assertEquals(Map.of("4xHDR", 12852), s.cablesBySpeed());
        assertEquals(0, s.cablesDegraded());
        assertEquals(0, s.portsWithErrors());
        Map<String, Integer> tiers = new TreeMap<>(s.switchTiers());
        assertEquals(Map.of("leaf", 204, "spine", 322, "core", 140, "other", 0), tiers);
    }

    @Test
    void noWarningsOrErrors() {
        assertEquals("", TestSupport.dump(TestSupport.atLeast(model, Severity.WARNING)));
        List<Finding> findings = Diagnosis.fabric(ErrorThresholds.defaults()).run(model, ErrorThresholds.defaults());
        assertEquals(List.of(), findings);
    }

    @Test
    void searchFindsRealNodes() {
        assertEquals("MLG01-02", model.search("MLG01-02", 5).get(0).displayName());
        // the SHARP CA shares the switch GUID as its system image GUID, so both match exactly
        assertTrue(model.search("1c34da0300728866", 5).contains(model.node(0x1c34da0300728866L)));
        assertTrue(model.search("0x1c34da0300728866", 5).contains(model.node(0x1c34da0300728866L)));
        assertEquals(model.node(0x1c34da0300728866L), model.search("1600", 5).get(0));
    }
}
