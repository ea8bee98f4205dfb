package org.fabricscope.model.layout;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.core.NaturalOrder;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.Tier;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.layout.MapLayout.Item;
import org.fabricscope.model.layout.MapLayout.Link;
import org.fabricscope.model.layout.MapLayout.Row;

/**
 * The tiered fabric map: core, spine and leaf rows from top to bottom, each host HCA in a block
 * under the leaf it is cabled to. Leaves go in natural name order (so scalable units and rails
 * stay together); spines and cores are ordered by the mean position of the switches they cable
 * down to (the barycentre heuristic), which keeps crossings low in fat trees. Linear in the size
 * of the fabric and deterministic: the same model gives the same picture.
 */
public final class TieredLayout {
    public static final double SWITCH_W = 40;
    public static final double SWITCH_H = 18;
    public static final double SWITCH_GAP = 16;
    public static final double HCA_W = 10;
    public static final double HCA_H = 10;
    public static final double HCA_GAP = 4;
    public static final int HCA_COLUMNS = 4;
    public static final double ROW_GAP = 260;

    private TieredLayout() {
    }

    /**
     * @param collapsed    hosts drawn as one glyph instead of their HCAs
     * @param collapseAll  draw every host as one glyph
     */
    public static MapLayout compute(FabricModel model, Set<String> collapsed, boolean collapseAll) {
        Map<Tier, List<FabricNode>> tiers = model.switchesByTier();
        FabricGroups fabricGroups = FabricGroups.of(model);
        List<FabricNode> leaves = new ArrayList<>(tiers.get(Tier.LEAF));
        // pods side by side (in the order of their first leaf), leaves in name order within each
        leaves.sort(Comparator.comparingInt(fabricGroups::pod)
                .thenComparing(FabricNode::displayName, NaturalOrder.INSTANCE));

        // HCAs under the leaf they are cabled to (first such port); the rest at the end.
        Map<FabricNode, List<FabricNode>> under = new LinkedHashMap<>();
        for (FabricNode leaf : leaves) {
            under.put(leaf, new ArrayList<>());
        }
        List<FabricNode> unattached = new ArrayList<>();
        for (FabricNode n : model.nodes()) {
            if (!n.isHostAdapter()) {
                continue;
            }
            FabricNode leaf = null;
            for (Port p : n.ports()) {
                Port peer = p.peer();
                if (peer != null && peer.node().tier() == Tier.LEAF) {
                    leaf = peer.node();
                    break;
                }
            }
            (leaf == null ? unattached : under.get(leaf)).add(n);
        }
        Comparator<FabricNode> byHostThenName = Comparator
                .comparing((FabricNode n) -> n.host() == null ? "" : n.host().name(), NaturalOrder.INSTANCE)
                .thenComparing(FabricNode::displayName, NaturalOrder.INSTANCE);

        List<Item> items = new ArrayList<>();
        Map<Vertex, Item> byVertex = new HashMap<>();
        Map<Host, Item> hostItems = new LinkedHashMap<>();
        List<List<FabricNode>> groups = new ArrayList<>();
        List<FabricNode> groupLeaves = new ArrayList<>();
        for (FabricNode leaf : leaves) {
            groups.add(under.get(leaf));
            groupLeaves.add(leaf);
        }
        if (!unattached.isEmpty()) {
            groups.add(unattached);
            groupLeaves.add(null);
        }
        // First pass: the cells under each leaf (an HCA, or a collapsed host where its first HCA would be).
        List<List<Vertex>> groupCells = new ArrayList<>();
        double totalWidth = 0;
        for (List<FabricNode> hcas : groups) {
            hcas.sort(byHostThenName);
            List<Vertex> cells = new ArrayList<>();
            for (FabricNode h : hcas) {
                Host host = h.host();
                boolean fold = host != null && (collapseAll || collapsed.contains(host.name()));
                if (!fold) {
                    cells.add(h);
                } else if (!hostItems.containsKey(host)) {
                    hostItems.put(host, null);
                    cells.add(host);
                }
            }
            groupCells.add(cells);
            totalWidth += slotWidth(cells.size());
        }
        // Big fabrics are wide: taller rows keep the picture from becoming a thin strip when fitted.
        double pitch = SWITCH_W + SWITCH_GAP;
        double widest = Math.max(totalWidth, pitch * Math.max(tiers.get(Tier.SPINE).size(), tiers.get(Tier.CORE).size()));
        double rowGap = Math.max(ROW_GAP, widest * 0.12);
        double yCore = 0;
        double ySpine = rowGap;
        double yLeaf = 2 * rowGap;
        double yHost = yLeaf + Math.max(ROW_GAP * 0.6, rowGap * 0.35);

        Map<Vertex, FabricNode> hostRowLeaf = new HashMap<>();
        double x = 0;
        for (int g = 0; g < groups.size(); g++) {
            List<Vertex> cells = groupCells.get(g);
            int cols = Math.max(1, Math.min(HCA_COLUMNS, cells.size()));
            double blockW = cols * (HCA_W + HCA_GAP) - HCA_GAP;
            double slotW = slotWidth(cells.size());
            double cx = x + slotW / 2;
            FabricNode leaf = groupLeaves.get(g);
            if (leaf != null) {
                add(items, byVertex, leaf, Row.LEAF, cx, yLeaf, SWITCH_W, SWITCH_H);
            }
            double left = cx - blockW / 2 + HCA_W / 2;
            for (int i = 0; i < cells.size(); i++) {
                double hx = left + (i % cols) * (HCA_W + HCA_GAP);
                double hy = yHost + (i / cols) * (HCA_H + HCA_GAP);
                Vertex v = cells.get(i);
                if (leaf != null) {
                    hostRowLeaf.put(v, leaf);
                }
                Item it = add(items, byVertex, v, Row.HOST, hx, hy, HCA_W, HCA_H);
                if (v instanceof Host h) {
                    hostItems.put(h, it);
                }
            }
            x += slotW;
        }
        double leafRowWidth = Math.max(x, SWITCH_W);

        java.util.function.Function<FabricNode, String> groupOf = sw -> {
            int p = fabricGroups.pod(sw);
            return p >= 0 ? "pod " + p : fabricGroups.unit(sw);
        };
        placeByBarycentre(tiers.get(Tier.SPINE), Row.SPINE, ySpine, leafRowWidth, items, byVertex, groupOf);
        placeByBarycentre(tiers.get(Tier.CORE), Row.CORE, yCore, leafRowWidth, items, byVertex, groupOf);
        List<FabricNode> others = new ArrayList<>(tiers.get(Tier.OTHER));
        for (FabricNode n : model.nodes()) {
            if (n.kind() == org.fabricscope.model.fabric.NodeKind.ROUTER) {
                others.add(n);
            }
        }
        others.sort(Comparator.comparing(FabricNode::displayName, NaturalOrder.INSTANCE));
        double ox = 0;
        for (FabricNode n : others) {
            add(items, byVertex, n, Row.OTHER, ox + SWITCH_W / 2, yCore - rowGap, SWITCH_W, SWITCH_H);
            ox += SWITCH_W + SWITCH_GAP;
        }

        // Centre every row under the widest one.
        Map<Row, double[]> extent = new HashMap<>();
        for (Item it : items) {
            Row r = it.row() == Row.HOST ? Row.LEAF : it.row();
            double[] e = extent.computeIfAbsent(r, k -> new double[] {Double.MAX_VALUE, -Double.MAX_VALUE});
            e[0] = Math.min(e[0], it.x() - it.width() / 2);
            e[1] = Math.max(e[1], it.x() + it.width() / 2);
        }
        double full = extent.values().stream().mapToDouble(e -> e[1] - e[0]).max().orElse(0);
        List<Item> centred = new ArrayList<>(items.size());
        byVertex.clear();
        for (Item it : items) {
            double[] e = extent.get(it.row() == Row.HOST ? Row.LEAF : it.row());
            double shift = it.row() == Row.OTHER ? -e[0] : (full - (e[1] - e[0])) / 2 - e[0];
            Item moved = new Item(it.index(), it.vertex(), it.row(), it.x() + shift, it.y(), it.width(), it.height());
            centred.add(moved);
            byVertex.put(moved.vertex(), moved);
        }
        items = centred;

        // Collapsed hosts stand for their HCAs when cables are drawn.
        Map<FabricNode, Item> drawnAs = new IdentityHashMap<>();
        for (Item it : items) {
            if (it.vertex() instanceof FabricNode n) {
                drawnAs.put(n, it);
            } else if (it.vertex() instanceof Host h) {
                for (FabricNode a : h.adapters()) {
                    drawnAs.put(a, it);
                }
            }
        }
        Map<Long, Link> links = new LinkedHashMap<>();
        for (Cable c : model.cables()) {
            Item a = drawnAs.get(c.a().node());
            Item b = drawnAs.get(c.b().node());
            if (a == null || b == null || a == b) {
                continue;
            }
            long key = org.fabricscope.model.core.PairKey.unordered(a.index(), b.index());
            Link l = links.get(key);
            if (l == null) {
                l = new Link(a.index() < b.index() ? a : b, a.index() < b.index() ? b : a, new ArrayList<>());
                links.put(key, l);
            }
            l.cables().add(c);
        }
        return new MapLayout(items, new ArrayList<>(links.values()), byVertex, groupKeys(items, fabricGroups, hostRowLeaf));
    }

    /** Each item's unit and pod name: a switch's own, an HCA's (or collapsed host's) those of its leaf. */
    private static Map<MapLayout.Level, String[]> groupKeys(List<Item> items, FabricGroups g, Map<Vertex, FabricNode> hostRowLeaf) {
        String[] unit = new String[items.size()];
        String[] pod = new String[items.size()];
        List<String> podNames = g.podNames();
        for (Item it : items) {
            FabricNode sw = it.row() == Row.HOST ? hostRowLeaf.get(it.vertex())
                    : it.row() == Row.OTHER ? null : it.vertex() instanceof FabricNode n ? n : null;
            if (sw == null) {
                continue;
            }
            int p = g.pod(sw);
            String podName = p >= 0 && p < podNames.size() ? podNames.get(p) : null;
            String u = g.unit(sw);
            unit[it.index()] = u != null ? u : podName;
            pod[it.index()] = podName != null ? podName : u;
        }
        Map<MapLayout.Level, String[]> keys = new java.util.EnumMap<>(MapLayout.Level.class);
        keys.put(MapLayout.Level.UNIT, unit);
        keys.put(MapLayout.Level.POD, pod);
        return keys;
    }

    private static double slotWidth(int cells) {
        int cols = Math.max(1, Math.min(HCA_COLUMNS, cells));
        return Math.max(SWITCH_W, cols * (HCA_W + HCA_GAP) - HCA_GAP) + SWITCH_GAP;
    }

    private static Item add(List<Item> items, Map<Vertex, Item> byVertex, Vertex v, Row row, double x, double y,
                            double w, double h) {
        Item it = new Item(items.size(), v, row, x, y, w, h);
        items.add(it);
        byVertex.put(v, it);
        return it;
    }

    /**
     * Orders a tier by the mean x of already-placed neighbours, then spreads it over the width.
     * Switches of one group (pod, or unit by name) stay together: groups are ordered by their
     * members' mean, members within a group by their own.
     */
    private static void placeByBarycentre(List<FabricNode> tier, Row row, double y, double width, List<Item> items,
                                          Map<Vertex, Item> byVertex, java.util.function.Function<FabricNode, String> groupOf) {
        if (tier.isEmpty()) {
            return;
        }
        Map<FabricNode, Double> centre = new HashMap<>();
        for (FabricNode s : tier) {
            double sum = 0;
            int n = 0;
            for (Port p : s.ports()) {
                Port peer = p.peer();
                if (peer != null) {
                    Item it = byVertex.get(peer.node());
                    if (it != null && it.row() != row) {
                        sum += it.x();
                        n++;
                    }
                }
            }
            centre.put(s, n == 0 ? Double.MAX_VALUE : sum / n);
        }
        Map<String, double[]> groupCentre = new HashMap<>();
        for (FabricNode s : tier) {
            String g = groupOf.apply(s);
            if (g != null && centre.get(s) != Double.MAX_VALUE) {
                double[] acc = groupCentre.computeIfAbsent(g, k -> new double[2]);
                acc[0] += centre.get(s);
                acc[1]++;
            }
        }
        java.util.function.ToDoubleFunction<FabricNode> groupKey = s -> {
            String g = groupOf.apply(s);
            double[] acc = g == null ? null : groupCentre.get(g);
            return acc == null ? centre.get(s) : acc[0] / acc[1];
        };
        List<FabricNode> sorted = new ArrayList<>(tier);
        sorted.sort(Comparator.comparingDouble(groupKey)
                .thenComparing(s -> groupOf.apply(s) == null ? "" : groupOf.apply(s), NaturalOrder.INSTANCE)
                .thenComparing((FabricNode s) -> centre.get(s))
                .thenComparing(FabricNode::displayName, NaturalOrder.INSTANCE));
        double natural = sorted.size() * (SWITCH_W + SWITCH_GAP);
        double step = Math.max(SWITCH_W + SWITCH_GAP, width / sorted.size());
        double start = natural >= width ? 0 : (width - step * sorted.size()) / 2;
        for (int i = 0; i < sorted.size(); i++) {
            add(items, byVertex, sorted.get(i), row, start + step * i + step / 2, y, SWITCH_W, SWITCH_H);
        }
    }
}
