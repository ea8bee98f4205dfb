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

    private final List<Item> items;
    private final List<Link> links;
    private final Map<Vertex, Item> byVertex;
    private final Map<Row, Double> rowY = new java.util.EnumMap<>(Row.class);
    private final double minX;
    private final double minY;
    private final double maxX;
    private final double maxY;

    MapLayout(List<Item> items, List<Link> links, Map<Vertex, Item> byVertex) {
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
