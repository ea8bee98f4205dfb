package org.fabricscope.importers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.analysis.FabricSummary;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.fabric.PhysState;
import org.fabricscope.model.fabric.PortState;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.fabric.Tier;
import org.fabricscope.model.diagnosis.Diagnosis;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.junit.jupiter.api.Test;

/**
 * Real infiniband-diags output captured against ibsim (sample-fabrics/rail-2su-hdr, see its README):
 * 2 SUs x 8 rails x 16 hosts, 16 leaves, 8 spines, one unplugged leaf-spine cable, one 1X link,
 * symbol errors and link error recoveries injected. Expected numbers are those of its expected.json.
 */
class RailCaptureGoldenTest {
    static final Path DIR = Path.of("..", "sample-fabrics", "rail-2su-hdr");
    static final long LEAF_SU1_R8 = 0x0c42a10300010108L;
    static final long LEAF_SU1_R3 = 0x0c42a10300010103L;
    static final long LEAF_SU1_R6 = 0x0c42a10300010106L;

    static ImportResult load(String... names) {
        assumeTrue(Files.isDirectory(DIR), "sample-fabrics/rail-2su-hdr not present");
        List<Path> paths = new ArrayList<>();
        for (String n : names) {
            paths.add(DIR.resolve(n));
        }
        return new FabricImporter().importPaths(paths, ImportProgress.NONE, Cancellation.NEVER);
    }

    static List<String> perfqueryFiles() throws Exception {
        try (Stream<Path> s = Files.list(DIR)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("perfquery-")).sorted().toList();
        }
    }

    static List<Diagnostic> problems(FabricModel m) {
        return m.diagnostics().stream().filter(d -> d.severity().compareTo(Severity.WARNING) <= 0).toList();
    }

    @Test
    void topologyCounts() {
        ImportResult r = load("ibnetdiscover.txt");
        assertEquals("ibnetdiscover", r.formats().values().iterator().next());
        FabricModel m = r.model();
        assertEquals(List.of(), problems(m));
        FabricSummary s = FabricSummary.of(m, ErrorThresholds.defaults());
        assertEquals(24, s.switches());
        assertEquals(256, s.cas());
        assertEquals(256, s.hostCas());
        assertEquals(32, s.hosts());
        assertEquals(511, s.cables());
        assertEquals(Map.of("1xHDR", 1, "4xHDR", 510), s.cablesBySpeed());
        assertEquals(16, m.switchesByTier().get(Tier.LEAF).size());
        assertEquals(8, m.switchesByTier().get(Tier.SPINE).size());
        assertTrue(m.switches().stream().allMatch(sw -> sw.displayName().startsWith("leaf-") == (sw.tier() == Tier.LEAF)));
        assertEquals(8, m.host("dgx-su2-h07").adapters().size());
        assertEquals(1, s.cablesDegraded());
    }

    @Test
    void everyFormatTogetherGivesTheSameTopologyAndTheFaults() throws Exception {
        List<String> files = new ArrayList<>(List.of("ibnetdiscover.txt", "ibnetdiscover-g.txt", "ibnetdiscover-p.txt",
                "iblinkinfo.txt", "ibqueryerrors.txt"));
        files.addAll(perfqueryFiles());
        ImportResult r = load(files.toArray(String[]::new));
        FabricModel m = r.model();
        assertEquals("iblinkinfo", r.formats().get(DIR.resolve("iblinkinfo.txt").toString()));
        assertEquals("ibnetdiscover-ports", r.formats().get(DIR.resolve("ibnetdiscover-p.txt").toString()));
        assertEquals("ibqueryerrors", r.formats().get(DIR.resolve("ibqueryerrors.txt").toString()));
        assertEquals(List.of(), problems(m), "\n" + problems(m).stream().map(Diagnostic::toString).limit(20).toList());
        assertEquals(24, m.switches().size());
        assertEquals(256, m.channelAdapters().size());
        assertEquals(511, m.cables().size());
        // the unplugged cable: iblinkinfo shows both ends Down/Polling
        FabricNode r8 = m.node(LEAF_SU1_R8);
        assertEquals(PortState.DOWN, r8.port(31).state());
        assertEquals(PhysState.POLLING, r8.port(31).physState());
        assertNull(r8.port(31).cable());
        assertEquals(1, r8.port(31).counter("LinkDownedCounter"));
        // symbol errors on leaf-su1-r3 port 23 (both perfquery and ibqueryerrors report them)
        assertEquals(1873, m.node(LEAF_SU1_R3).port(23).counter("SymbolErrorCounter"));
        assertEquals(42, m.node(0x0c42a10300010205L).port(7).counter("LinkErrorRecoveryCounter"));
        List<Finding> f = Diagnosis.fabric(ErrorThresholds.defaults()).run(m, ErrorThresholds.defaults());
        assertTrue(f.stream().anyMatch(x -> x.id().equals("link-degraded") && x.severity() == Severity.ERROR
                && x.subjects().stream().anyMatch(sub -> sub.startsWith("leaf-su1-r6 port 12"))), f.toString());
        assertTrue(f.stream().anyMatch(x -> x.id().equals("link-errors") && x.severity() == Severity.ERROR
                && x.title().contains("leaf-su1-r3 port 23")), f.toString());
        assertTrue(f.stream().anyMatch(x -> x.id().equals("link-errors") && x.title().contains("leaf-su2-r5 port 7")),
                f.toString());
        assertEquals(Severity.ERROR, f.get(0).severity());
        assertTrue(f.stream().noneMatch(x -> x.id().equals("port-not-active")), f.toString());
        assertEquals(LEAF_SU1_R6, m.node(LEAF_SU1_R6).guid());
    }

    @Test
    void iblinkinfoAloneReadsEveryPort() {
        FabricModel m = load("iblinkinfo.txt").model();
        assertEquals(List.of(), problems(m), "\n" + problems(m).stream().map(Diagnostic::toString).limit(20).toList());
        assertEquals(24, m.switches().size());
        assertEquals(256, m.channelAdapters().size());
        assertEquals(511, m.cables().size());
        assertEquals(32, m.hosts().size());
    }

    @Test
    void variants() {
        for (String v : List.of("variants/ibnetdiscover-l.txt", "variants/ibnetdiscover-H.txt", "variants/ibnetdiscover-S.txt",
                "variants/ibnetdiscover-p.txt", "variants/ibnetdiscover-g.txt", "variants/iblinkinfo-l.txt",
                "variants/iblinkinfo-d.txt", "variants/ibqueryerrors-r.txt", "variants/ibqueryerrors-data.txt",
                "variants/perfquery-x-a-leaf-su1-r3.txt", "variants/perfquery-leaf-su1-r3-p23.txt")) {
            ImportResult r = load("ibnetdiscover.txt", v);
            FabricModel m = r.model();
            assertEquals(List.of(), problems(m), v + "\n" + problems(m).stream().map(Diagnostic::toString).limit(10).toList());
            assertEquals(24 + 256, m.nodes().size(), v);
            assertEquals(511, m.cables().size(), v);
        }
    }

    @Test
    void theSimulatorNetFileIsNotACapture() {
        ImportResult r = load("rail-2su-hdr.net");
        assertEquals("ibsim-net", r.formats().get(DIR.resolve("rail-2su-hdr.net").toString()));
        assertTrue(r.model().isEmpty());
    }

    @Test
    void nodeNameMapVariant() {
        ImportResult r = load("variants/ibnetdiscover-node-name-map.txt");
        FabricModel m = r.model();
        assertEquals(List.of(), problems(m));
        assertEquals(24, m.switches().size());
        assertEquals(32, m.hosts().size(), "CA headers keep their NodeDescription, so hosts are still found");
        assertNotNull(m.host("dgx-su1-h01"));
        ImportResult withMap = load("ibnetdiscover.txt", "variants/node-name-map.txt");
        assertEquals("node-name-map", withMap.formats().get(DIR.resolve("variants/node-name-map.txt").toString()));
        assertTrue(withMap.model().switches().stream().anyMatch(s -> s.displayName().startsWith("SU1-RAIL3-LEAF")),
                withMap.model().switches().toString());
        assertEquals(32, withMap.model().hosts().size());
    }
}
