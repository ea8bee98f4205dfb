package org.fabricscope.model.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.Fabrics;
import org.fabricscope.model.fabric.FabricNode;
import org.junit.jupiter.api.Test;

class FabricGroupsTest {
    @Test
    void stripsNumberedTokens() {
        assertEquals("LG07", FabricGroups.strip("LG07-05", 1));
        assertEquals("CSPINE2", FabricGroups.strip("CSPINE2-13", 1));
        assertEquals("CCORE1", FabricGroups.strip("CCORE1-001", 1));
        assertEquals("leaf-su1", FabricGroups.strip("leaf-su1-r6", 1));
        assertEquals("p03-su12", FabricGroups.strip("p03-su12-r5", 1));
        assertEquals("p03", FabricGroups.strip("p03-su12-r5", 2));
        assertEquals("spine", FabricGroups.strip("spine-04", 1));
        assertNull(FabricGroups.strip("spine-04", 2), "nothing is left: no group");
        assertNull(FabricGroups.strip("LG07", 1));
    }

    /**
     * Selene's naming and wiring in small: leaf groups LG01..LG04 of two leaves, each pod's spine
     * group CSPINEp cabled to its leaf groups only, cores CCORE1 over all spines. The pods' leaf
     * groups interleave by name (LG01 and LG03 in pod 1) so the layout has to bring them together.
     */
    static FabricModel seleneLike(Map<String, FabricNode> byName) {
        Fabrics f = new Fabrics();
        int[] podOfGroup = {0, 1, 2, 1, 2};
        for (int g = 1; g <= 4; g++) {
            for (int l = 1; l <= 2; l++) {
                String name = String.format("LG%02d-%02d", g, l);
                byName.put(name, f.sw(name));
            }
        }
        for (int p = 1; p <= 2; p++) {
            for (int s = 1; s <= 2; s++) {
                String name = "CSPINE" + p + "-0" + s;
                byName.put(name, f.sw(name));
            }
        }
        for (int c = 1; c <= 2; c++) {
            String name = "CCORE1-00" + c;
            byName.put(name, f.sw(name));
        }
        for (int g = 1; g <= 4; g++) {
            for (int l = 1; l <= 2; l++) {
                FabricNode leaf = byName.get(String.format("LG%02d-%02d", g, l));
                for (int s = 1; s <= 2; s++) {
                    f.cable(leaf, byName.get("CSPINE" + podOfGroup[g] + "-0" + s));
                }
                for (int h = 1; h <= 2; h++) {
                    f.cable(f.hca(String.format("luna-%02d%02d%d", g, l, h), 0), leaf);
                }
            }
        }
        for (int p = 1; p <= 2; p++) {
            for (int s = 1; s <= 2; s++) {
                for (int c = 1; c <= 2; c++) {
                    f.cable(byName.get("CSPINE" + p + "-0" + s), byName.get("CCORE1-00" + c));
                }
            }
        }
        return f.build();
    }

    @Test
    void unitsFromNamesAndPodsFromWiring() {
        Map<String, FabricNode> n = new LinkedHashMap<>();
        FabricGroups g = FabricGroups.of(seleneLike(n));
        assertEquals("LG03", g.unit(n.get("LG03-02")));
        assertEquals("CSPINE2", g.unit(n.get("CSPINE2-01")));
        assertTrue(g.podsFromWiring());
        assertEquals(List.of("pod 1 (LG01-LG03)", "pod 2 (LG02-LG04)"), g.podNames());
        assertEquals(0, g.pod(n.get("LG03-01")));
        assertEquals(1, g.pod(n.get("LG02-01")));
        assertEquals(0, g.pod(n.get("CSPINE1-02")), "a pod's spines are in it");
        assertEquals(-1, g.pod(n.get("CCORE1-001")), "the top tier is in no pod");
    }

    @Test
    void layoutKeepsPodsTogetherAndBoxesThem() {
        Map<String, FabricNode> n = new LinkedHashMap<>();
        MapLayout l = TieredLayout.compute(seleneLike(n), Set.of(), false);
        double lg01 = l.item(n.get("LG01-01")).x();
        double lg02 = l.item(n.get("LG02-01")).x();
        double lg03 = l.item(n.get("LG03-01")).x();
        assertTrue(lg01 < lg03 && lg03 < lg02, "pod 1 (LG01, LG03) left of pod 2 (LG02)");

        List<String> leafPods = new ArrayList<>();
        List<String> hostPods = new ArrayList<>();
        for (MapLayout.Group g : l.groups(MapLayout.Level.POD)) {
            if (g.row() == MapLayout.Row.LEAF) {
                leafPods.add(g.label() + "/" + g.size());
            } else if (g.row() == MapLayout.Row.HOST) {
                hostPods.add(g.label() + "/" + g.size());
            }
        }
        assertEquals(List.of("pod 1 (LG01-LG03)/4", "pod 2 (LG02-LG04)/4"), leafPods);
        assertEquals(List.of("pod 1 (LG01-LG03)/8", "pod 2 (LG02-LG04)/8"), hostPods, "HCAs are in their leaf's pod");
        List<String> units = l.groups(MapLayout.Level.UNIT).stream().filter(g -> g.row() == MapLayout.Row.LEAF)
                .map(MapLayout.Group::label).toList();
        assertEquals(List.of("LG01", "LG03", "LG02", "LG04"), units);
        List<String> cores = l.groups(MapLayout.Level.POD).stream().filter(g -> g.row() == MapLayout.Row.CORE)
                .map(MapLayout.Group::label).toList();
        assertEquals(List.of("core"), cores, "cores named alike with no unit share the row's box");
        // every item in exactly one box, and the box holds it
        for (MapLayout.Item it : l.items()) {
            MapLayout.Group g = l.groups(MapLayout.Level.UNIT).get(l.groupOf(MapLayout.Level.UNIT, it.index()));
            assertTrue(g.row() == it.row() && g.minX() <= it.x() && it.x() <= g.maxX(), it.toString());
        }
    }

    @Test
    void twoTierRailFabricHasUnitsAndNoWiringPods() {
        Fabrics f = new Fabrics();
        List<FabricNode> spines = new ArrayList<>();
        for (int s = 1; s <= 2; s++) {
            spines.add(f.sw("spine-0" + s));
        }
        Map<String, FabricNode> leaves = new LinkedHashMap<>();
        for (int su = 1; su <= 2; su++) {
            for (int r = 1; r <= 2; r++) {
                FabricNode leaf = f.sw("leaf-su" + su + "-r" + r);
                leaves.put(leaf.displayName(), leaf);
                spines.forEach(s -> f.cable(leaf, s));
                f.cable(f.hca("dgx-su" + su + "-h01", r), leaf);
            }
        }
        FabricGroups g = FabricGroups.of(f.build());
        assertEquals("leaf-su2", g.unit(leaves.get("leaf-su2-r1")));
        assertEquals(-1, g.pod(leaves.get("leaf-su2-r1")), "two tiers: no pods below the top one, names give none either");
        assertEquals(List.of(), g.podNames());
    }
}
