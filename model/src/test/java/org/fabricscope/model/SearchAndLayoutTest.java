package org.fabricscope.model;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.fabric.LinkSpeed;
import org.fabricscope.model.fabric.LinkWidth;
import org.fabricscope.model.fabric.NodeKind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import org.fabricscope.model.layout.MapLayout;
import org.fabricscope.model.layout.TieredLayout;
import org.junit.jupiter.api.Test;

class SearchAndLayoutTest {
    record Spec(String kind, String name, String a, String b) {
    }

    /** A 3-tier fabric described as data, so it can be built in any order. */
    static List<Spec> specs() {
        List<Spec> s = new ArrayList<>();
        for (int c = 1; c <= 2; c++) {
            s.add(new Spec("sw", "core-" + c, null, null));
        }
        for (int p = 1; p <= 2; p++) {
            for (int i = 1; i <= 2; i++) {
                s.add(new Spec("sw", "p" + p + "-spine-" + i, null, null));
                s.add(new Spec("sw", "p" + p + "-leaf-" + i, null, null));
            }
        }
        for (int p = 1; p <= 2; p++) {
            for (int i = 1; i <= 2; i++) {
                for (int c = 1; c <= 2; c++) {
                    s.add(new Spec("cable", null, "p" + p + "-spine-" + i, "core-" + c));
                    s.add(new Spec("cable", null, "p" + p + "-leaf-" + c, "p" + p + "-spine-" + i));
                }
                for (int h = 1; h <= 3; h++) {
                    String host = "p" + p + "-gpu-" + i + h;
                    s.add(new Spec("hca", host + " mlx5_0", null, null));
                    s.add(new Spec("cable", null, host + " mlx5_0", "p" + p + "-leaf-" + i));
                }
            }
        }
        return s;
    }

    /** Builds the fabric; GUIDs and LIDs come from the names, so they do not depend on order. */
    static FabricModel build(List<Spec> specs, long seed) {
        List<Spec> nodes = new ArrayList<>(specs.stream().filter(x -> !x.kind.equals("cable")).toList());
        List<Spec> cables = new ArrayList<>(specs.stream().filter(x -> x.kind.equals("cable")).toList());
        if (seed != 0) {
            Collections.shuffle(nodes, new Random(seed));
            Collections.shuffle(cables, new Random(seed + 1));
        }
        FabricModelBuilder b = new FabricModelBuilder();
        Map<String, FabricNode> byName = new TreeMap<>();
        for (Spec s : nodes) {
            long guid = 0x0002c90300000000L + (s.name.hashCode() & 0xffffffL) * 16;
            FabricNode n = b.node(guid, s.kind.equals("sw") ? NodeKind.SWITCH : NodeKind.CA);
            b.setDescription(n, s.kind.equals("sw") ? "MF0;" + s.name + ":MQM8700/U1" : s.name);
            int lid = 100 + (s.name.hashCode() & 0x3ff);
            if (n.isSwitch()) {
                b.setSwitchPort0(n, lid, 0, Boolean.TRUE);
                b.setNodeInfo(n, 41, guid, 0x2c9, 0xd2f0);
            } else {
                b.setPortAddress(b.port(n, 1), guid + 1, lid, 0);
                b.setNodeInfo(n, 1, guid + 8, 0x2c9, 0x101b);
            }
            byName.put(s.name, n);
        }
        Map<String, Integer> portOf = new TreeMap<>();
        for (Spec c : specs.stream().filter(x -> x.kind.equals("cable")).toList()) {
            portOf.merge(c.a, 1, Integer::sum);
            portOf.merge(c.b, 1, Integer::sum);
            portOf.put(c.a + ">" + c.b, portOf.get(c.a));
            portOf.put(c.b + "<" + c.a, portOf.get(c.b));
        }
        for (Spec c : cables) {
            FabricNode x = byName.get(c.a);
            FabricNode y = byName.get(c.b);
            b.link(b.port(x, x.isSwitch() ? portOf.get(c.a + ">" + c.b) : 1),
                    b.port(y, y.isSwitch() ? portOf.get(c.b + "<" + c.a) : 1), LinkWidth.X4, LinkSpeed.HDR,
                    Evidence.at("t", 1, ""));
        }
        return b.build();
    }

    @Test
    void searchByHostNameGuidLidAndSwitchName() {
        FabricModel m = build(specs(), 0);
        FabricNode leaf = m.switches().stream().filter(s -> s.displayName().equals("p1-leaf-2")).findFirst().orElseThrow();
        FabricNode hca = m.channelAdapters().get(0);
        Host host = hca.host();

        assertEquals(host, m.search(host.name(), 10).get(0), "exact host name first");
        assertEquals(host, m.search(host.name().toUpperCase(), 10).get(0), "case-insensitive");
        assertEquals(leaf, m.search("p1-leaf-2", 10).get(0));
        assertEquals(List.of(leaf), m.search(Guids.format(leaf.guid()), 10));
        assertEquals(List.of(leaf), m.search(Guids.format(leaf.guid()).substring(2), 10));
        assertEquals(leaf, m.search(String.valueOf(leaf.lid()), 10).get(0));
        assertEquals(hca, m.search(Guids.format(hca.port(1).portGuid()), 10).get(0), "port GUID");
        assertEquals(hca, m.search(String.valueOf(hca.port(1).lid()), 10).get(0), "CA port LID");
        List<Vertex> leaves = m.search("leaf", 100);
        assertEquals(4, leaves.size());
        assertEquals(List.of("p1-leaf-1", "p1-leaf-2", "p2-leaf-1", "p2-leaf-2"),
                leaves.stream().map(Vertex::displayName).toList());
        assertEquals(2, m.search("leaf", 2).size());
        assertEquals(List.of(), m.search("   ", 10));
        assertEquals(List.of(), m.search("no-such-thing", 10));
    }

    @Test
    void tieredLayoutRowsGoCoreSpineLeafHosts() {
        FabricModel m = build(specs(), 0);
        MapLayout layout = TieredLayout.compute(m, Set.of(), false);
        double core = rowY(layout, MapLayout.Row.CORE);
        double spine = rowY(layout, MapLayout.Row.SPINE);
        double leaf = rowY(layout, MapLayout.Row.LEAF);
        double hosts = layout.items().stream().filter(i -> i.row() == MapLayout.Row.HOST)
                .mapToDouble(MapLayout.Item::y).min().orElseThrow();
        assertTrue(core < spine && spine < leaf && leaf < hosts, core + " " + spine + " " + leaf + " " + hosts);
        for (MapLayout.Item it : layout.items()) {
            if (it.vertex() instanceof FabricNode n && n.isSwitch()) {
                MapLayout.Row want = switch (n.tier()) {
                    case CORE -> MapLayout.Row.CORE;
                    case SPINE -> MapLayout.Row.SPINE;
                    case LEAF -> MapLayout.Row.LEAF;
                    default -> MapLayout.Row.OTHER;
                };
                assertEquals(want, it.row(), n.displayName());
            }
        }
        assertEquals(m.nodes().size(), layout.items().size(), "every switch and HCA drawn once");
        // each HCA is drawn under the leaf it is cabled to
        for (FabricNode h : m.channelAdapters()) {
            MapLayout.Item hi = layout.item(h);
            MapLayout.Item li = layout.item(h.port(1).peer().node());
            assertTrue(Math.abs(hi.x() - li.x()) < TieredLayout.SWITCH_W + TieredLayout.HCA_COLUMNS * 14,
                    h.displayName());
        }
        int drawnCables = layout.links().stream().mapToInt(l -> l.cables().size()).sum();
        assertEquals(m.cables().size(), drawnCables);
    }

    static double rowY(MapLayout layout, MapLayout.Row row) {
        List<Double> ys = layout.items().stream().filter(i -> i.row() == row).map(MapLayout.Item::y).distinct().toList();
        assertEquals(1, ys.size(), row + " items share one y");
        return ys.get(0);
    }

    static Map<String, String> positions(MapLayout layout) {
        Map<String, String> m = new TreeMap<>();
        for (MapLayout.Item it : layout.items()) {
            m.put(it.vertex().id(), it.row() + "@" + it.x() + "," + it.y());
        }
        return m;
    }

    @Test
    void tieredLayoutIsDeterministic() {
        FabricModel m = build(specs(), 0);
        Map<String, String> first = positions(TieredLayout.compute(m, Set.of(), false));
        assertEquals(first, positions(TieredLayout.compute(m, Set.of(), false)), "same model, same picture");
        for (long seed = 1; seed <= 5; seed++) {
            assertEquals(first, positions(TieredLayout.compute(build(specs(), seed), Set.of(), false)),
                    "same fabric read in another order (seed " + seed + ")");
        }
    }

    @Test
    void collapsedHostsAreOneGlyph() {
        FabricModel m = build(specs(), 0);
        Host h = m.channelAdapters().get(0).host();
        MapLayout layout = TieredLayout.compute(m, Set.of(h.name()), false);
        assertNotNull(layout.item(h));
        assertEquals(null, layout.item(h.adapters().get(0)));
        MapLayout all = TieredLayout.compute(m, Set.of(), true);
        assertEquals(m.hosts().size(), all.items().stream().filter(i -> i.vertex() instanceof Host).count());
    }
}
