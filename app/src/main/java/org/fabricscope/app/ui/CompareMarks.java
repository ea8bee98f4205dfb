package org.fabricscope.app.ui;

import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.layout.MapLayout;

import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.layout.Region;
import javafx.scene.shape.Line;

/**
 * The Compare tab's changes marked over the {@link FabricMapView}: cables added (green), removed (red, dashed:
 * drawn between the two ends though the loaded capture has no cable there, so an unplugged cable is seen), moved
 * (where from dashed, where to solid), rate changed (purple), nodes added or removed (a ring), counters that rose
 * (an orange ring with the rise). Ends are found by GUID in the map's layout, so the marks work whichever side is
 * loaded; an end the loaded capture lacks cannot be placed and the mark is left out ({@link #unplaced}). Follows
 * pans and zooms like {@link MapHighlights}; mouse-transparent ({@link #tip} is each mark's words, for the status line).
 */
public final class CompareMarks extends MapOverlay {
    private static final int MAX_MARKS = 4000;

    private FabricModel model;
    private List<CompareRows.Mark> marks = List.of();
    private final List<CompareRows.Mark> drawn = new ArrayList<>();
    private int unplaced;

    public CompareMarks() {
        super("compare-marks");
    }

    /** Marks these changes on the map, whose nodes are {@code shown}'s; an empty list clears. */
    void show(List<CompareRows.Mark> list, FabricModel shown) {
        marks = List.copyOf(list);
        model = shown;
        marksChanged();
    }

    /** The marks drawn (tests, the screenshot's check), in the order drawn. */
    public List<CompareRows.Mark> drawn() {
        return List.copyOf(drawn);
    }

    /** How many marks could not be placed: an end that only the other capture has. */
    public int unplaced() {
        return unplaced;
    }

    /** The screen centre of the glyph that draws the node, and its half width on screen; null when not drawn. */
    private double[] at(MapLayout layout, long guid) {
        FabricNode n = model == null ? null : model.node(guid);
        List<MapLayout.Item> items = n == null ? List.of() : MapHighlights.itemsOf(layout, n);
        if (items.isEmpty()) {
            return null;
        }
        double[] p = map.screenPosition(items.get(0).vertex());
        return new double[] {p[0], p[1], items.get(0).width() * map.scale() / 2};
    }


    @Override
    protected boolean nothingToMark() {
        return marks.isEmpty();
    }

    @Override
    protected void cleared() {
        drawn.clear();
    }

    @Override
    protected double[] anchor(MapLayout layout) {
        return layout.items().isEmpty() ? new double[2] : map.screenPosition(layout.items().get(0).vertex());
    }

    @Override
    protected void place(MapLayout layout) {
        List<javafx.scene.Node> nodes = new ArrayList<>();
        drawn.clear();
        unplaced = 0;
        double s = Math.max(0.4, Math.min(2, map.scale()));
        for (CompareRows.Mark m : marks) {
            if (nodes.size() >= MAX_MARKS) {
                unplaced++;
                continue;
            }
            double[] p = at(layout, m.guidA());
            double[] q = m.isCable() ? at(layout, m.guidB()) : p;
            if (p == null || q == null) {
                unplaced++;
                continue;
            }
            drawn.add(m);
            if (m.isCable()) {
                Line l = new Line(p[0], p[1], q[0], q[1]);
                l.getStyleClass().addAll("compare-cable", style(m.kind()));
                nodes.add(l);
            } else {
                double r = (m.kind() == CompareRows.MarkKind.COUNTER_ROSE ? 14 : 18) * s;
                Region ring = new Region();
                ring.getStyleClass().addAll("compare-node", style(m.kind()));
                ring.resizeRelocate(p[0] - r, p[1] - r, 2 * r, 2 * r);
                nodes.add(ring);
                if (m.kind() == CompareRows.MarkKind.COUNTER_ROSE && nodes.size() < 200) {
                    Label t = new Label(m.label());
                    t.getStyleClass().add("compare-counter-label");
                    // right of the glyph, on its middle: the names above and below it stay readable
                    double w = Math.max(60, m.label().length() * 6.2 + 8);
                    double x = p[0] + Math.max(r, p[2]) + 3;
                    if (x + w > getWidth() && p[0] - Math.max(r, p[2]) - 3 - w >= 0) {
                        x = p[0] - Math.max(r, p[2]) - 3 - w; // at the right edge: left of the glyph
                    }
                    t.resizeRelocate(x, p[1] - 7, w, 14);
                    t.setMouseTransparent(true);
                    nodes.add(t);
                }
            }
        }
        for (javafx.scene.Node n : nodes) {
            n.setManaged(false);
        }
        getChildren().setAll(nodes);
        Scene scene = getScene();
        if (scene != null) {
            applyCss();
        }
    }

    static String style(CompareRows.MarkKind k) {
        return switch (k) {
            case CABLE_ADDED, CABLE_MOVED_TO -> "compare-added";
            case CABLE_REMOVED, CABLE_MOVED_FROM -> "compare-removed";
            case RATE_CHANGED -> "compare-rate";
            case NODE_ADDED -> "compare-node-added";
            case NODE_REMOVED -> "compare-node-removed";
            case COUNTER_ROSE -> "compare-counter";
        };
    }

    /** A mark in words. */
    static String tip(CompareRows.Mark m) {
        return switch (m.kind()) {
            case CABLE_ADDED -> "Cable added (only the new capture has it)";
            case CABLE_REMOVED -> "Cable removed (only the old capture has it): unplugged or down";
            case CABLE_MOVED_FROM -> "Cable moved: where it was";
            case CABLE_MOVED_TO -> "Cable moved: where it is now";
            case RATE_CHANGED -> "Rate changed: " + m.label();
            case NODE_ADDED -> "Node added (only the new capture has it)";
            case NODE_REMOVED -> "Node removed (only the old capture has it)";
            case COUNTER_ROSE -> "Counter rose on " + m.label();
        };
    }
}
