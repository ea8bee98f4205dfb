package org.fabricscope.app.render;

import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.layout.MapLayout;

/**
 * Switch names below the zoom where every switch is named ({@link MapLabels#NAMES_FROM_SCALE}): at fit, a switch is
 * named wherever its name fits between its neighbours on the row ({@link MapLayout#room}) and clears every label already
 * placed (group labels, subject names, row names). The names sit under their glyphs on a band of the background, so
 * the cables under them do not hide them. Above that zoom {@link MapLabels#names} names every switch and this gives none.
 */
public final class FitNames {
    /** Pixels kept free between two neighbours' names. */
    static final double GAP = 6;

    private FitNames() {
    }

    /**
     * The switch names that fit in this viewport, clear of {@code groupLabels}, {@code shown} names (subject names among
     * them: a switch named there is not named again) and the row names at the left edge.
     */
    public static List<MapLabels.Name> place(MapLayout layout, Viewport v, List<MapLabels.Label> groupLabels,
                                             List<MapLabels.Name> shown) {
        List<MapLabels.Name> out = new ArrayList<>();
        double s = v.scale();
        if (s >= MapLabels.NAMES_FROM_SCALE || layout.maxRoomOffHosts() * s < GAP) {
            return out; // above: MapLabels.names names them all; below: no name fits between any two neighbours
        }
        List<double[]> taken = new ArrayList<>();
        for (MapLabels.Label l : groupLabels) {
            taken.add(new double[] {l.x() - l.width() / 2, l.y() - MapLabels.LINE / 2, l.x() + l.width() / 2,
                    l.y() + MapLabels.LINE / 2});
        }
        for (MapLabels.Name n : shown) {
            taken.add(box(n));
        }
        for (MapLabels.RowName r : MapLabels.rows(layout, v)) {
            double w = MapLabels.width(r.text(), true);
            taken.add(new double[] {r.x() - 3, r.y() - MapLabels.LINE / 2, r.x() + w + 3, r.y() + MapLabels.LINE / 2});
        }
        for (MapLayout.Item it : layout.itemsOffHosts()) {
            if (out.size() >= MapLabels.MAX_NAMES) {
                break;
            }
            double x = it.x() * s + v.tx();
            double y = (it.y() + it.height() / 2) * s + v.ty() + 8;
            // cheap refusals first (a name has some width, so these never fit): out of view, or no room at all;
            // at fit a large fabric has tens of thousands of glyphs, and this runs every frame
            if (x < 0 || x > v.width() || y < 0 || y > v.height() || layout.room(it.index()) * s < GAP) {
                continue;
            }
            String text = MapLabels.shortName(it.vertex());
            double w = MapLabels.width(text, false);
            if (w + GAP > layout.room(it.index()) * s || named(shown, text, it.y() * s + v.ty(), it.height() * s)) {
                continue;
            }
            MapLabels.Name n = new MapLabels.Name(text, x, y, w);
            double[] b = box(n);
            if (b[0] < 0 || b[2] > v.width() || b[1] < 0 || b[3] > v.height()
                    || taken.stream().anyMatch(t -> t[0] < b[2] && b[0] < t[2] && t[1] < b[3] && b[1] < t[3])) {
                continue;
            }
            taken.add(b);
            out.add(n);
        }
        return out;
    }

    /** Whether one of the {@code shown} names is this glyph's (its text, just above or below it; kept inside the view at an edge). */
    private static boolean named(List<MapLabels.Name> shown, String text, double cy, double h) {
        for (MapLabels.Name n : shown) {
            if (n.text().equals(text) && Math.abs(n.y() - cy) <= h / 2 + 12) {
                return true;
            }
        }
        return false;
    }

    private static double[] box(MapLabels.Name n) {
        return new double[] {n.x() - n.maxWidth() / 2, n.y() - MapLabels.LINE / 2, n.x() + n.maxWidth() / 2,
                n.y() + MapLabels.LINE / 2};
    }
}
