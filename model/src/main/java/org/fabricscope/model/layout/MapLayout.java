package org.fabricscope.model.layout;

import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.core.Vertex;

/**
 * Positions for the fabric map in world units (y grows downwards): one {@link Item} per drawn
 * switch, HCA or collapsed host, and one {@link Link} per pair of items joined by cables.
 * Pure data, no UI toolkit: the app scales and draws it.
 */
public final class MapLayout {
    /** Row of an item, top to bottom. */
    public enum Row {
        OTHER("other"), CORE("core"), SPINE("spine"), LEAF("leaf"), HOST("hosts");

        private final String label;

        Row(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** A drawn thing: a switch, an HCA, or a host whose HCAs are collapsed into one glyph. */
    public record Item(int index, Vertex vertex, Row row, double x, double y, double width, double height) {
        public boolean contains(double wx, double wy) {
            return wx >= x - width / 2 && wx <= x + width / 2 && wy >= y - height / 2 && wy <= y + height / 2;
        }
    }

    /** Cables between two items; several when switches have parallel cables or a host is collapsed. */
    public record Link(Item a, Item b, List<Cable> cables) {
    }

    /** How coarse a group is: scalable units (leaf or spine groups by name) or pods (by wiring). */
    public enum Level {
        UNIT, POD
    }

    /**
     * A box around the consecutive items of one row that share a unit or pod ({@link FabricGroups});
     * items of a row with no group share one box named after the row. Box edges are in world units.
     */
    public record Group(int index, Level level, Row row, String label, double minX, double minY, double maxX, double maxY,
                        int size) {
        public double centreX() {
            return (minX + maxX) / 2;
        }
    }

    private final List<Item> items;
    private final List<Link> links;
    private final Map<Vertex, Item> byVertex;
    private final Map<Row, Double> rowY = new java.util.EnumMap<>(Row.class);
    private final double minX;
    private final double minY;
    private final double maxX;
    private final double maxY;

    /** Each row's items in order of x (then index): for work on one row, and on a stretch of it. */
    private final Map<Row, List<Item>> byRowX = new java.util.EnumMap<>(Row.class);
    private final double maxItemWidth;
    /** The items not on the host row (the switches), in index order. */
    private final List<Item> offHosts;
    /** The most room any item off the host row has ({@link #room}). */
    private final double maxRoomOffHosts;
    private final Map<Level, List<Group>> groups = new java.util.EnumMap<>(Level.class);
    private final Map<Level, int[]> groupOf = new java.util.EnumMap<>(Level.class);
    /** Per item: the distance to the nearest item on its line (same row, same y); infinite when alone. */
    private final double[] room;

    MapLayout(List<Item> items, List<Link> links, Map<Vertex, Item> byVertex) {
        this(items, links, byVertex, null);
    }

    /** {@code keys}: per level, each item's group name (null: none; the row's shared box). */
    MapLayout(List<Item> items, List<Link> links, Map<Vertex, Item> byVertex, Map<Level, String[]> keys) {
        this.items = Collections.unmodifiableList(items);
        this.links = Collections.unmodifiableList(links);
        this.byVertex = Collections.unmodifiableMap(byVertex);
        double x0 = 0;
        double y0 = 0;
        double x1 = 1;
        double y1 = 1;
        boolean first = true;
        for (Item it : items) {
            rowY.putIfAbsent(it.row(), it.y());
            double l = it.x() - it.width() / 2;
            double r = it.x() + it.width() / 2;
            double t = it.y() - it.height() / 2;
            double b = it.y() + it.height() / 2;
            if (first) {
                x0 = l;
                x1 = r;
                y0 = t;
                y1 = b;
                first = false;
            } else {
                x0 = Math.min(x0, l);
                x1 = Math.max(x1, r);
                y0 = Math.min(y0, t);
                y1 = Math.max(y1, b);
            }
        }
        minX = x0;
        minY = y0;
        maxX = x1;
        maxY = y1;
        double widest = 0;
        for (Item it : items) {
            byRowX.computeIfAbsent(it.row(), r -> new java.util.ArrayList<>()).add(it);
            widest = Math.max(widest, it.width());
        }
        maxItemWidth = widest;
        for (var e : byRowX.entrySet()) {
            e.getValue().sort(java.util.Comparator.comparingDouble(Item::x)); // stable: index order at equal x
            e.setValue(Collections.unmodifiableList(e.getValue()));
        }
        for (Level level : Level.values()) {
            boxes(level, keys == null ? new String[items.size()] : keys.get(level));
        }
        room = rooms(items);
        double most = 0;
        List<Item> off = new java.util.ArrayList<>();
        for (Item it : items) {
            if (it.row() != Row.HOST) {
                most = Math.max(most, room[it.index()]);
                off.add(it);
            }
        }
        maxRoomOffHosts = most;
        offHosts = Collections.unmodifiableList(off);
    }

    /** For each item, how far its nearest neighbour on the same line (row and y) is, in world units. */
    private static double[] rooms(List<Item> items) {
        double[] out = new double[items.size()];
        java.util.Arrays.fill(out, Double.POSITIVE_INFINITY);
        Map<String, List<Item>> lines = new java.util.HashMap<>();
        for (Item it : items) {
            lines.computeIfAbsent(it.row() + "@" + it.y(), k -> new java.util.ArrayList<>()).add(it);
        }
        for (List<Item> line : lines.values()) {
            line.sort(java.util.Comparator.comparingDouble(Item::x));
            for (int i = 1; i < line.size(); i++) {
                Item a = line.get(i - 1);
                Item b = line.get(i);
                double gap = b.x() - a.x();
                out[a.index()] = Math.min(out[a.index()], gap);
                out[b.index()] = Math.min(out[b.index()], gap);
            }
        }
        return out;
    }

    /** Consecutive items of a row (by x) with the same key make one box. */
    private void boxes(Level level, String[] key) {
        int[] of = new int[items.size()];
        List<Group> out = new java.util.ArrayList<>();
        for (var e : byRowX.entrySet()) {
            List<Item> row = e.getValue();
            int start = 0;
            for (int i = 1; i <= row.size(); i++) {
                if (i < row.size() && java.util.Objects.equals(key[row.get(i).index()], key[row.get(start).index()])) {
                    continue;
                }
                double gx0 = Double.MAX_VALUE;
                double gy0 = Double.MAX_VALUE;
                double gx1 = -Double.MAX_VALUE;
                double gy1 = -Double.MAX_VALUE;
                for (int j = start; j < i; j++) {
                    Item it = row.get(j);
                    gx0 = Math.min(gx0, it.x() - it.width() / 2);
                    gx1 = Math.max(gx1, it.x() + it.width() / 2);
                    gy0 = Math.min(gy0, it.y() - it.height() / 2);
                    gy1 = Math.max(gy1, it.y() + it.height() / 2);
                    of[it.index()] = out.size();
                }
                String k = key[row.get(start).index()];
                out.add(new Group(out.size(), level, e.getKey(), k == null ? e.getKey().label() : k, gx0, gy0, gx1, gy1, i - start));
                start = i;
            }
        }
        groups.put(level, Collections.unmodifiableList(out));
        groupOf.put(level, of);
    }

    /** The items of one row in order of x (empty when the row has none). */
    public List<Item> rowItems(Row row) {
        return byRowX.getOrDefault(row, List.of());
    }

    /**
     * The position in {@link #rowItems} of the first item of {@code row} whose x is at least {@code x} (the row's
     * size when none is).
     */
    public int firstAtOrAfter(Row row, double x) {
        List<Item> r = rowItems(row);
        int lo = 0;
        int hi = r.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (r.get(mid).x() < x) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The items not on the host row (switches, routers), in index order: a tenth of a large fabric's items. */
    public List<Item> itemsOffHosts() {
        return offHosts;
    }

    /** The most {@link #room} any switch (any item not on the host row) has, in world units. */
    public double maxRoomOffHosts() {
        return maxRoomOffHosts;
    }

    /** The widest item's width, in world units. */
    public double maxItemWidth() {
        return maxItemWidth;
    }

    /** The boxes of one level, every item in exactly one. */
    public List<Group> groups(Level level) {
        return groups.get(level);
    }

    /** The index in {@link #groups(Level)} of the box that holds the item with this index. */
    public int groupOf(Level level, int item) {
        return groupOf.get(level)[item];
    }

    /**
     * How wide, in world units, a label centred under this item may be without reaching the label of
     * a neighbour on its line: the distance to the nearest such neighbour (infinite when it has none).
     */
    public double room(int item) {
        return room[item];
    }

    public List<Item> items() {
        return items;
    }

    public List<Link> links() {
        return links;
    }

    /** The item drawing this vertex, or null (not drawn, or inside a collapsed host). */
    public Item item(Vertex v) {
        return byVertex.get(v);
    }

    /** The y of each row that has items (the first row of HCAs for {@link Row#HOST}). */
    public Map<Row, Double> rowY() {
        return Collections.unmodifiableMap(rowY);
    }

    public double minX() {
        return minX;
    }

    public double minY() {
        return minY;
    }

    public double maxX() {
        return maxX;
    }

    public double maxY() {
        return maxY;
    }
}
