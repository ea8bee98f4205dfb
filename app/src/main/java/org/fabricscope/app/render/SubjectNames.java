package org.fabricscope.app.render;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.layout.MapLayout;

/**
 * The names of the devices that matter in a picture, at any zoom: every glyph with a problem (the
 * subject of an error or warning finding, a port that lost its link) and both ends of every problem
 * cable, when in view and not already named by {@link MapLabels#names}; an HCA reads {@code host mlx5_0}. Each sits just above its
 * glyph (else just under it), on a band of the background; one that would overlap another name, or a group label, or
 * leave the picture's map area, is left out (the glyph keeps its colour and its tooltip in SVG).
 */
public final class SubjectNames {
    /** The most subject names printed in one picture. */
    static final int MAX = 120;

    private SubjectNames() {
    }

    /** The names, placed, within {@code top..bottom} of the picture. */
    static List<MapLabels.Name> place(MapLayout layout, MapColouring colouring, MapOverview overview, Viewport v, double top,
                                      double bottom) {
        return place(layout, subjects(layout, colouring), MapLabels.place(overview, v.width(), v.height(), v.scale(), v.tx(), v.ty()),
                MapLabels.names(layout, v), v, top, bottom);
    }

    /**
     * The names of the {@code subject} glyphs, placed clear of the group labels and glyph names
     * already drawn ({@code groupLabels}, {@code shown}), within {@code top..bottom} of the view.
     * The window's map calls it per frame with its subjects computed once per colouring.
     */
    public static List<MapLabels.Name> place(MapLayout layout, BitSet subject, List<MapLabels.Label> groupLabels,
                                             List<MapLabels.Name> shown, Viewport v, double top, double bottom) {
        List<double[]> taken = new ArrayList<>();
        for (MapLabels.Name n : shown) {
            taken.add(box(n));
        }
        for (MapLabels.Label l : groupLabels) {
            taken.add(new double[] {l.x() - l.width() / 2, l.y() - MapLabels.LINE / 2, l.x() + l.width() / 2, l.y() + MapLabels.LINE / 2});
        }
        List<MapLabels.Name> out = new ArrayList<>();
        double s = v.scale();
        for (int i = subject.nextSetBit(0); i >= 0 && out.size() < MAX; i = subject.nextSetBit(i + 1)) {
            MapLayout.Item it = layout.items().get(i);
            double x = it.x() * s + v.tx();
            double cy = it.y() * s + v.ty();
            double half = Math.max(1, it.height() * s) / 2 + 9;
            if (named(shown, x, cy)) {
                continue;
            }
            String text = name(it.vertex());
            double[] b = null;
            MapLabels.Name n = null;
            double tw = MapLabels.width(text, false);
            if (x < 0 || x > v.width()) {
                continue; // the glyph is out of view
            }
            double lx = Math.max(tw / 2, Math.min(v.width() - tw / 2, x)); // a glyph at the edge: its name kept inside
            for (double y : new double[] {cy - half, cy + half}) { // above the glyph, else under it
                MapLabels.Name c = new MapLabels.Name(text, lx, y, tw);
                double[] box = box(c);
                if (box[0] >= 0 && box[2] <= v.width() && box[1] >= top && box[3] <= v.height() - bottom
                        && taken.stream().noneMatch(t -> overlaps(t, box))) {
                    b = box;
                    n = c;
                    break;
                }
            }
            if (n == null) {
                continue;
            }
            taken.add(b);
            out.add(n);
        }
        return out;
    }

    /** A switch by its name, an HCA as {@code host mlx5_0}: a subject is told apart from its neighbours. */
    public static String name(Vertex v) {
        String device = MapLabels.shortName(v);
        return v instanceof FabricNode n && !n.isSwitch() && n.host() != null && !device.startsWith(n.host().name())
                ? n.host().name() + " " + device : device;
    }

    /** Glyphs with a problem, and the ends of problem cables. */
    public static BitSet subjects(MapLayout layout, MapColouring colouring) {
        BitSet out = new BitSet(layout.items().size());
        for (MapLayout.Item it : layout.items()) {
            if (colouring.itemProblem(it.index()) > 0 || colouring.itemDownPorts(it.index()) > 0) {
                out.set(it.index());
            }
        }
        List<MapLayout.Link> links = layout.links();
        for (int i = 0; i < links.size(); i++) {
            if (colouring.linkProblem(i) > 0) {
                out.set(links.get(i).a().index());
                out.set(links.get(i).b().index());
            }
        }
        return out;
    }

    private static boolean named(List<MapLabels.Name> shown, double x, double y) {
        for (MapLabels.Name n : shown) {
            if (Math.abs(n.x() - x) < 0.5 && n.y() > y && n.y() - y < 60) {
                return true;
            }
        }
        return false;
    }

    private static double[] box(MapLabels.Name n) {
        double w = Math.min(n.maxWidth(), MapLabels.width(n.text(), false));
        return new double[] {n.x() - w / 2, n.y() - MapLabels.LINE / 2, n.x() + w / 2, n.y() + MapLabels.LINE / 2};
    }

    private static boolean overlaps(double[] a, double[] b) {
        return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
    }
}
