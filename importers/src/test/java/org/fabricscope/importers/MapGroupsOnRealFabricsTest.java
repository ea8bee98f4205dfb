package org.fabricscope.importers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Tier;
import org.fabricscope.model.layout.FabricGroups;
import org.fabricscope.model.layout.MapLayout;
import org.fabricscope.model.layout.TieredLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The map's groups (units by name, pods by wiring) on real captures and the bundled samples. */
class MapGroupsOnRealFabricsTest {
    @TempDir
    Path tmp;

    private FabricModel selene() throws IOException {
        Path gz = tmp.resolve("selene-compute.ibnetdiscover.txt.gz");
        try (InputStream in = getClass().getResourceAsStream(SeleneGoldenTest.RESOURCE)) {
            Files.copy(in, gz);
        }
        return new FabricImporter().importPaths(List.of(gz), ImportProgress.NONE, Cancellation.NEVER).model();
    }

    private static FabricModel sample(String folder) {
        Path dir = Path.of("..", "sample-fabrics", folder, "ibnetdiscover.txt");
        return new FabricImporter().importPaths(List.of(dir), ImportProgress.NONE, Cancellation.NEVER).model();
    }

    private static FabricNode named(FabricModel m, String name) {
        return m.switches().stream().filter(n -> n.displayName().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void seleneHasItsLeafGroupsAsUnitsAndFourPodsFromTheWiring() throws IOException {
        FabricModel m = selene();
        FabricGroups g = FabricGroups.of(m);
        Set<String> units = new TreeSet<>();
        for (FabricNode leaf : m.switchesByTier().get(Tier.LEAF)) {
            units.add(g.unit(leaf));
        }
        assertEquals(26, units.size(), "LG01..LG28 (25 leaf groups in the capture) and the management group MLG01: " + units);
        assertTrue(units.containsAll(List.of("LG01", "LG16", "LG28", "MLG01")), units.toString());
        assertEquals("CSPINE3", g.unit(named(m, "CSPINE3-23")));
        assertTrue(g.podsFromWiring());
        // each pod is one spine group's leaf groups; the rail planes inside a pod are joined by the leaf groups
        assertEquals(List.of("pod 1 (LG01-LG07)", "pod 2 (LG08-LG14)", "pod 3 (LG15-LG18)", "pod 4 (LG22-LG28)"), g.podNames());
        assertEquals(2, g.pod(named(m, "LG16-03")));
        assertEquals(2, g.pod(named(m, "CSPINE3-23")), "a spine is in the pod it serves");
        assertEquals(-1, g.pod(named(m, "CCORE1-001")));

        MapLayout l = TieredLayout.compute(m, Set.of(), false);
        List<String> hostRowPods = l.groups(MapLayout.Level.POD).stream().filter(x -> x.row() == MapLayout.Row.HOST)
                .map(MapLayout.Group::label).toList();
        assertEquals(List.of("pod 1 (LG01-LG07)", "pod 2 (LG08-LG14)", "pod 3 (LG15-LG18)", "pod 4 (LG22-LG28)"), hostRowPods,
                "the pods side by side, each in one box");
        List<String> cores = l.groups(MapLayout.Level.UNIT).stream().filter(x -> x.row() == MapLayout.Row.CORE)
                .map(MapLayout.Group::label).toList();
        assertEquals(List.of("CCORE1", "CCORE2"), cores, "each core group kept together");
    }

    @Test
    void theRailSampleHasTwoScalableUnitsAndNoPods() {
        FabricModel m = sample("rail-2su-hdr");
        FabricGroups g = FabricGroups.of(m);
        assertEquals("leaf-su1", g.unit(named(m, "leaf-su1-r6")));
        assertEquals("leaf-su2", g.unit(named(m, "leaf-su2-r1")));
        assertEquals(List.of(), g.podNames(), "two tiers: no pods");
        assertEquals(-1, g.pod(named(m, "leaf-su1-r6")));
    }

    @Test
    void theThreeTierSampleHasItsPodsAsUnits() {
        FabricModel m = sample("fat-tree-3tier-small");
        FabricGroups g = FabricGroups.of(m);
        assertEquals("leaf-p2", g.unit(named(m, "leaf-p2-03")));
        assertEquals("agg-p3", g.unit(named(m, "agg-p3-01")));
        MapLayout l = TieredLayout.compute(m, Set.of(), false);
        List<String> leafUnits = l.groups(MapLayout.Level.UNIT).stream().filter(x -> x.row() == MapLayout.Row.LEAF)
                .map(MapLayout.Group::label).toList();
        assertEquals(List.of("leaf-p1", "leaf-p2", "leaf-p3"), leafUnits);
    }
}
