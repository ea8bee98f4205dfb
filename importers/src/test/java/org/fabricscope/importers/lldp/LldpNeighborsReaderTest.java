package org.fabricscope.importers.lldp;

import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Tier;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The real lldpcli captures of sample-fabrics/roce-lldp (lldpd 1.0.16 in network namespaces, its README):
 * every output format gives the same fabric, markers split multi-node files, and the one-sided variant
 * keeps which end saw each cable.
 */
class LldpNeighborsReaderTest {
    static final Path DIR = Path.of("..", "sample-fabrics", "roce-lldp");
    static final List<String> NODES = List.of("spine-01", "spine-02", "leaf-01", "leaf-02",
            "gpu-node-01", "gpu-node-02", "gpu-node-03", "gpu-node-04");

    static String read(Path p) throws IOException {
        return Files.readString(p, StandardCharsets.UTF_8);
    }

    /** Each node's file of one format, named by its folder as captured. */
    static ImportResult importFormat(String variant, String ext, List<String> nodes) throws IOException {
        List<String> args = new ArrayList<>();
        for (String n : nodes) {
            args.add(variant + "/" + n + "/lldpcli-neighbors." + ext);
            args.add(read(DIR.resolve(variant).resolve(n).resolve("lldpcli-neighbors." + ext)));
        }
        return TestSupport.importTexts(args.toArray(String[]::new));
    }

    static Set<String> cables(FabricModel m) {
        Set<String> out = new TreeSet<>();
        for (Cable c : m.fabric().cables()) {
            String a = c.a().label();
            String b = c.b().label();
            out.add(a.compareTo(b) < 0 ? a + " <-> " + b : b + " <-> " + a);
        }
        return out;
    }

    @Test
    void everyFormatGivesTheSameTwoTierFabric() throws IOException {
        assumeTrue(Files.isDirectory(DIR), "sample-fabrics/roce-lldp not present");
        Set<String> first = null;
        for (String ext : List.of("json", "json0", "keyvalue", "xml", "txt")) {
            ImportResult r = importFormat("healthy", ext, NODES);
            FabricModel m = r.model();
            assertTrue(r.formats().values().stream().allMatch(LldpNeighborsReader.ID::equals), ext + ": " + r.formats());
            assertEquals(List.of(), TestSupport.atLeast(m, Severity.WARNING), ext);
            long leaves = m.fabric().nodes().values().stream().filter(n -> n.tier() == Tier.LEAF).count();
            long spines = m.fabric().nodes().values().stream().filter(n -> n.tier() == Tier.SPINE).count();
            assertEquals(2, leaves, ext);
            assertEquals(2, spines, ext);
            assertEquals(Set.of("gpu-node-01", "gpu-node-02", "gpu-node-03", "gpu-node-04"), m.fabric().hosts().keySet(), ext);
            assertEquals(12, m.fabric().cables().size(), ext);
            for (Cable c : m.fabric().cables()) {
                assertNotNull(c.reportedBy(c.a()), ext + " " + c);
                assertNotNull(c.reportedBy(c.b()), ext + " " + c);
            }
            Set<String> cs = cables(m);
            assertTrue(cs.contains("gpu-node-01 ens1f0np0 <-> leaf-01 Ethernet8"), ext + ": " + cs);
            assertTrue(cs.contains("gpu-node-04 ens2f0np0 <-> leaf-02 Ethernet20"), ext + ": " + cs);
            assertTrue(cs.contains("leaf-02 Ethernet4 <-> spine-02 Ethernet4"), ext + ": " + cs);
            if (first == null) {
                first = cs;
            }
            assertEquals(first, cs, ext);
        }
    }

    @Test
    void allNodesFileSplitsAtItsMarkers() throws IOException {
        assumeTrue(Files.isDirectory(DIR), "sample-fabrics/roce-lldp not present");
        ImportResult one = TestSupport.importTexts("all-nodes.txt", read(DIR.resolve("healthy/all-nodes.txt")));
        assertEquals(cables(importFormat("healthy", "json", NODES).model()), cables(one.model()));
        // the other marker conventions, and a prompt
        StringBuilder sb = new StringBuilder();
        String[] markers = {"### node: %s", "--- %s ---", "root@%s:~# lldpcli show neighbors", "# host: %s",
                "==> captures/%s/lldp.txt <==", "==> %s <==", "### node: %s", "--- %s ---"};
        for (int i = 0; i < NODES.size(); i++) {
            sb.append(String.format(markers[i], NODES.get(i))).append('\n');
            sb.append(read(DIR.resolve("healthy").resolve(NODES.get(i)).resolve("lldpcli-neighbors.txt"))).append('\n');
        }
        ImportResult mixed = TestSupport.importTexts("loop.txt", sb.toString());
        assertEquals(cables(one.model()), cables(mixed.model()));
    }

    @Test
    void sonicShowLldpTableOfTheSwitchesWithTheHostsJsonGivesTheSameFabric() throws IOException {
        assumeTrue(Files.isDirectory(DIR), "sample-fabrics/roce-lldp not present");
        List<String> args = new ArrayList<>();
        for (String n : NODES.subList(0, 4)) {
            String f = "sonic-table/" + n + ".show-lldp-table.txt";
            args.add(f);
            args.add(read(DIR.resolve(f)));
        }
        for (String n : NODES.subList(4, 8)) {
            args.add("healthy/" + n + "/lldpcli-neighbors.json");
            args.add(read(DIR.resolve("healthy").resolve(n).resolve("lldpcli-neighbors.json")));
        }
        ImportResult r = TestSupport.importTexts(args.toArray(String[]::new));
        assertEquals(LldpNeighborsReader.ID, r.formats().get("sonic-table/leaf-01.show-lldp-table.txt"));
        assertEquals(List.of(), TestSupport.atLeast(r.model(), Severity.WARNING));
        assertEquals(cables(importFormat("healthy", "json", NODES).model()), cables(r.model()));
        for (Cable c : r.model().fabric().cables()) {
            assertNotNull(c.reportedBy(c.a()), c.toString());
            assertNotNull(c.reportedBy(c.b()), c.toString());
        }
    }

    @Test
    void oneSidedCablesKeepWhichEndSawThem() throws IOException {
        assumeTrue(Files.isDirectory(DIR), "sample-fabrics/roce-lldp not present");
        FabricModel m = importFormat("one-sided", "json", NODES).model();
        int oneSided = 0;
        for (Cable c : m.fabric().cables()) {
            boolean a = c.reportedBy(c.a()) != null;
            boolean b = c.reportedBy(c.b()) != null;
            if (a != b) {
                oneSided++;
                String host = c.a().node().isSwitch() ? c.b().label() : c.a().label();
                assertTrue(host.startsWith("gpu-node-04 "), host);
            }
        }
        assertEquals(2, oneSided);
    }

    @Test
    void hostTablesAloneDrawLeavesAndSayTheTiersAboveAreUnknown() throws IOException {
        assumeTrue(Files.isDirectory(DIR), "sample-fabrics/roce-lldp not present");
        FabricModel m = importFormat("healthy", "json", NODES.subList(4, 8)).model();
        assertEquals(2, m.fabric().nodes().values().stream().filter(n -> n.tier() == Tier.LEAF).count());
        assertEquals(8, m.fabric().cables().size());
        assertTrue(m.diagnostics().stream().anyMatch(d -> d.message().contains("tiers above the leaves are unknown")),
                m.diagnostics().toString());
    }

    @Test
    void oneNeighbourJsonIsAnObjectNotAnArray() throws IOException {
        Path res = Path.of("src", "test", "resources", "lldp");
        for (String f : List.of("gpu-node-09.lldpcli-one-neighbour.json", "gpu-node-09.lldpcli-details.txt")) {
            ImportResult r = TestSupport.importTexts(f, read(res.resolve(f)));
            assertEquals(LldpNeighborsReader.ID, r.formats().get(f));
            // leaf-09 said Station only (plain lldpd), but its port is named like a switch's
            assertEquals(Set.of("gpu-node-09 ens1f0np0 <-> leaf-09 Ethernet0"), cables(r.model()), f);
            FabricNode leaf = r.model().fabric().nodes().values().stream().filter(FabricNode::isSwitch).findFirst().orElseThrow();
            assertEquals(Tier.LEAF, leaf.tier());
            assertNull(leaf.neighbourTable(), "only the host's table was read");
        }
    }

    @Test
    void miscablingIsJudgedOnlyAgainstEnoughOtherHosts() throws IOException {
        assumeTrue(Files.isDirectory(DIR), "sample-fabrics/roce-lldp not present");
        java.util.function.Function<List<String>, List<String>> ids = nodes -> {
            try {
                FabricModel m = importFormat("miscabled", "json", nodes).model();
                return org.fabricscope.model.diagnosis.Diagnosis.standard(org.fabricscope.model.diagnosis.ErrorThresholds.defaults())
                        .run(org.fabricscope.model.diagnosis.CheckContext.of(m)).stream()
                        .map(org.fabricscope.model.core.Finding::id).toList();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
        assertEquals(List.of("roce-nic-miscabled"), ids.apply(NODES));
        // gpu-node-03 with two other hosts is too few to call a design (RoceNicMiscabledCheck.MIN_HOSTS = 3 hosts)
        assertEquals(List.of(), ids.apply(List.of("gpu-node-01", "gpu-node-03")));
    }
}
