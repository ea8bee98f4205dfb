package org.fabricscope.app.render;

import java.util.List;

import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.layout.MapLayout;

/**
 * Finds the cable under the pointer: the drawn link ({@link MapRasterizer#ends}) nearest to a world
 * point within a tolerance, and of its cables (parallel cables, or a collapsed host's) the one with
 * the most error counts, so hovering a bundle shows its worst member. A scan of the links' segments
 * (kept in one array) with a bounding-box reject each: nothing to rebuild when the layout changes;
 * its cost per hover is measured by {@code fabricscope bench} (see BENCHMARKS.md). No toolkit.
 */
public final class CablePicker {
    /** A picked cable, the link that draws it, its index in {@link MapLayout#links()} and how far the point was. */
    public record Hit(MapLayout.Link link, int linkIndex, Cable cable, double distance) {
    }

    private static final ErrorThresholds ERRORS = ErrorThresholds.defaults();

    private final MapLayout layout;
    private final double[] segments;

    public CablePicker(MapLayout layout) {
        this.layout = layout;
        List<MapLayout.Link> links = layout.links();
        segments = new double[links.size() * 4];
        for (int i = 0; i < links.size(); i++) {
            System.arraycopy(MapRasterizer.ends(links.get(i)), 0, segments, i * 4, 4);
        }
    }

    public MapLayout layout() {
        return layout;
    }

    /** The cable nearest to ({@code wx}, {@code wy}) within {@code tolerance} world units, or null. */
    public Hit pick(double wx, double wy, double tolerance) {
        int best = -1;
        double bestD = tolerance;
        for (int i = 0, n = segments.length / 4; i < n; i++) {
            double x0 = segments[i * 4];
            double y0 = segments[i * 4 + 1];
            double x1 = segments[i * 4 + 2];
            double y1 = segments[i * 4 + 3];
            if (wx < Math.min(x0, x1) - bestD || wx > Math.max(x0, x1) + bestD
                    || wy < Math.min(y0, y1) - bestD || wy > Math.max(y0, y1) + bestD) {
                continue;
            }
            double d = distance(wx, wy, x0, y0, x1, y1);
            if (d <= bestD) {
                bestD = d;
                best = i;
            }
        }
        if (best < 0) {
            return null;
        }
        MapLayout.Link k = layout.links().get(best);
        return k.cables().isEmpty() ? null : new Hit(k, best, worst(k.cables()), bestD);
    }

    /** Distance from a point to the segment (x0,y0)-(x1,y1). */
    static double distance(double px, double py, double x0, double y0, double x1, double y1) {
        double dx = x1 - x0;
        double dy = y1 - y0;
        double len2 = dx * dx + dy * dy;
        double t = len2 == 0 ? 0 : Math.max(0, Math.min(1, ((px - x0) * dx + (py - y0) * dy) / len2));
        double cx = x0 + t * dx - px;
        double cy = y0 + t * dy - py;
        return Math.sqrt(cx * cx + cy * cy);
    }

    /** The cable whose two ports count the most errors (error counters only, unsigned, saturating); the first on a tie. */
    public static Cable worst(List<Cable> cables) {
        Cable best = cables.get(0);
        long most = errors(best);
        for (Cable c : cables) {
            long e = errors(c);
            if (Long.compareUnsigned(e, most) > 0) {
                best = c;
                most = e;
            }
        }
        return best;
    }

    private static long errors(Cable c) {
        long sum = 0;
        for (Port p : new Port[] {c.a(), c.b()}) {
            for (var e : p.counters().entrySet()) {
                if (ERRORS.limit(e.getKey()) < 0) {
                    continue; // data and packet counts are traffic, not errors
                }
                long s = sum + e.getValue();
                sum = Long.compareUnsigned(s, sum) < 0 ? -1L : s;
            }
        }
        return sum;
    }
}
