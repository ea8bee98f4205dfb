package org.fabricscope.app.ui;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.layout.MapLayout;

import javafx.scene.Scene;
import javafx.scene.layout.Region;
import javafx.scene.shape.Line;

/**
 * Marks several switches, HCAs, hosts and cables at once over the {@link FabricMapView}, which
 * selects only one: a finding's subjects. Built only on the map's public API ({@code mapLayout()},
 * {@code scale()}, {@code screenPosition()}); the marks follow pans and zooms by checking, after each
 * layout pulse, whether the map's transform moved. Mouse-transparent; colours come from CSS
 * ({@code .map-highlight}, {@code .map-highlight-cable} in views.css).
 */
public final class MapHighlights extends MapOverlay {
    private static final int MAX_MARKS = 2000;

    private List<Vertex> vertices = List.of();
    private List<Cable> cables = List.of();


    public MapHighlights() {
        super(Styles.MAP_HIGHLIGHTS);
    }

    /** Marks these vertices and cables (replacing what was marked); empty lists clear. */
    public void show(List<Vertex> vs, List<Cable> cs) {
        vertices = List.copyOf(vs);
        cables = List.copyOf(cs);
        marksChanged();
    }

    public void clear() {
        show(List.of(), List.of());
    }

    /** What is marked (tests, and the window's status line). */
    public List<Vertex> highlighted() {
        return vertices;
    }

    public List<Cable> highlightedCables() {
        return cables;
    }

    /** The map items drawn marked: an HCA of a collapsed host marks the host, a host drawn as its HCAs marks those. */
    public List<MapLayout.Item> markedItems() {
        MapLayout layout = map == null ? null : map.mapLayout();
        Set<MapLayout.Item> items = new LinkedHashSet<>();
        for (Vertex v : layout == null ? List.<Vertex>of() : vertices) {
            items.addAll(itemsOf(layout, v));
        }
        return new ArrayList<>(items);
    }

    static List<MapLayout.Item> itemsOf(MapLayout layout, Vertex v) {
        MapLayout.Item it = layout.item(v);
        if (it != null) {
            return List.of(it);
        }
        if (v instanceof FabricNode n && n.host() != null && layout.item(n.host()) != null) {
            return List.of(layout.item(n.host()));
        }
        List<MapLayout.Item> out = new ArrayList<>();
        if (v instanceof Host h) {
            for (FabricNode a : h.adapters()) {
                if (layout.item(a) != null) {
                    out.add(layout.item(a));
                }
            }
        }
        return out;
    }

    /**
     * Zooms the map out about its centre (where it just revealed the first subject) until every mark is
     * in view; never zooms in.
     */
    void keepInView() {
        double cx = map.getWidth() / 2;
        double cy = map.getHeight() / 2;
        double margin = 40;
        if (cx <= margin || cy <= margin) {
            return;
        }
        double f = 1;
        for (MapLayout.Item it : markedItems()) {
            double[] p = map.screenPosition(it.vertex());
            double dx = Math.abs(p[0] - cx);
            double dy = Math.abs(p[1] - cy);
            f = Math.min(f, Math.min(dx > cx - margin ? (cx - margin) / dx : 1, dy > cy - margin ? (cy - margin) / dy : 1));
        }
        if (f < 1) {
            map.zoom(Math.max(f, 0.02));
        }
    }


    /** Names shown above the marks at most: a finding's subjects are few; a search for a big host is not. */
    static final int MAX_NAMES = 48;

    /**
     * The subject's name above its mark (below when the top edge has no room), at every zoom, unless another
     * subject's name already sits there: the devices a finding names read without hovering.
     */
    private static void nameMark(MapLayout.Item it, double[] p, double h, List<double[]> named, List<javafx.scene.Node> marks) {
        if (named.size() >= MAX_NAMES) {
            return;
        }
        String text = org.fabricscope.app.render.SubjectNames.name(it.vertex());
        double tw = text.length() * 7.4 + 10; // bold 11 px: about 7 px a character, and the padding
        double y = p[1] - h / 2 - 16 >= 0 ? p[1] - h / 2 - 16 : p[1] + h / 2 + 2;
        double[] box = {p[0] - tw / 2, y, p[0] + tw / 2, y + 15};
        for (double[] b : named) {
            if (box[0] < b[2] && b[0] < box[2] && box[1] < b[3] && b[1] < box[3]) {
                return;
            }
        }
        named.add(box);
        javafx.scene.control.Label l = new javafx.scene.control.Label(text);
        l.getStyleClass().add(Styles.MAP_HIGHLIGHT_NAME);
        l.setManaged(false);
        l.resizeRelocate(box[0], box[1], tw, 15);
        marks.add(l);
    }

    /** The names shown above the marks, in mark order. */
    public List<String> markNames() {
        return getChildren().stream().filter(n -> n instanceof javafx.scene.control.Label)
                .map(n -> ((javafx.scene.control.Label) n).getText()).toList();
    }

    @Override
    protected boolean nothingToMark() {
        return vertices.isEmpty() && cables.isEmpty();
    }

    @Override
    protected double[] anchor(MapLayout layout) {
        List<MapLayout.Item> items = markedItems();
        return items.isEmpty() ? new double[2] : map.screenPosition(items.get(0).vertex());
    }

    @Override
    protected void place(MapLayout layout) {
        place(layout, markedItems());
    }

    private void place(MapLayout layout, List<MapLayout.Item> items) {
        List<javafx.scene.Node> marks = new ArrayList<>();
        double s = map.scale();
        for (Cable c : cables) {
            List<MapLayout.Item> a = itemsOf(layout, c.a().node());
            List<MapLayout.Item> b = itemsOf(layout, c.b().node());
            if (a.isEmpty() || b.isEmpty() || marks.size() >= MAX_MARKS) {
                continue;
            }
            double[] p = map.screenPosition(a.get(0).vertex());
            double[] q = map.screenPosition(b.get(0).vertex());
            Line l = new Line(p[0], p[1], q[0], q[1]);
            l.getStyleClass().add(Styles.MAP_HIGHLIGHT_CABLE);
            marks.add(l);
        }
        List<double[]> named = new ArrayList<>();
        for (MapLayout.Item it : items) {
            if (marks.size() >= MAX_MARKS) {
                break;
            }
            double[] p = map.screenPosition(it.vertex());
            double w = Math.max(6, it.width() * s) + 8;
            double h = Math.max(6, it.height() * s) + 8;
            Region r = new Region();
            r.getStyleClass().add(Styles.MAP_HIGHLIGHT);
            r.setManaged(false);
            r.resizeRelocate(p[0] - w / 2, p[1] - h / 2, w, h);
            marks.add(r);
            nameMark(it, p, h, named, marks);
        }
        for (javafx.scene.Node n : marks) {
            n.setManaged(false);
        }
        getChildren().setAll(marks);
        Scene scene = getScene();
        if (scene != null) {
            applyCss();
        }
    }
}
