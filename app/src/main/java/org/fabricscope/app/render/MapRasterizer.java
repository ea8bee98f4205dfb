package org.fabricscope.app.render;

import java.util.Arrays;
import java.util.List;

import org.fabricscope.model.layout.MapLayout;

/**
 * Draws the map's links and glyphs into a plain ARGB int buffer, so the whole fabric can be
 * rendered off the FX thread (the software pipeline costs about 50 us per antialiased line;
 * this costs a few ns per pixel). Lines are Bresenham, clipped to the viewport (Liang-Barsky);
 * glyphs are filled rectangles. No JavaFX types here.
 */
public final class MapRasterizer {
    private final int width;
    private final int height;
    private final int[] pixels;

    public MapRasterizer(int width, int height) {
        this.width = width;
        this.height = height;
        this.pixels = new int[width * height];
    }

    /** Renders every link and glyph (full detail, whatever the scale) for one viewport; pure function of its arguments. */
    public static MapRasterizer render(MapLayout l, MapColouring c, int w, int h, double s, double x, double y) {
        return detail(l, c, w, h, s, x, y, false, false);
    }

    /**
     * Renders the map as the window shows it at this scale (semantic zoom): zoomed out, the
     * overview's group boxes and one bundle per pair of groups; zoomed in, every cable and glyph; in
     * between the two cross-faded. Problem cables and glyphs are drawn last, with a halo, at every
     * scale. {@code problemsOnly}: healthy cables and bundles are left out.
     */
    public static MapRasterizer render(MapOverview o, int w, int h, double s, double x, double y, boolean problemsOnly) {
        double t = o.detail(s);
        MapRasterizer r;
        if (t >= 1) {
            r = detail(o.layout(), o.colouring(), w, h, s, x, y, problemsOnly, true);
        } else {
            r = overview(o, w, h, s, x, y, problemsOnly);
            if (t > 0) {
                r.blend(detail(o.layout(), o.colouring(), w, h, s, x, y, problemsOnly, true), t);
            }
        }
        r.problems(o, s, x, y);
        return r;
    }

    /** Group boxes and bundles of the level this scale shows. */
    private static MapRasterizer overview(MapOverview o, int w, int h, double s, double x, double y, boolean problemsOnly) {
        MapRasterizer r = new MapRasterizer(w, h);
        MapColouring c = o.colouring();
        MapPalette p = c.palette();
        r.clear(p.background());
        MapLayout.Level level = o.level(s);
        List<MapLayout.Group> groups = o.layout().groups(level);
        for (MapLayout.Group g : groups) {
            double[] b = box(g, s, x, y);
            int problem = o.groupProblem(level, g.index());
            if (problem > 0) {
                int alarm = problem == MapColouring.ERROR ? p.danger() : p.warning();
                r.fillRect(b[0] - 4, b[1] - 4, b[2] + 8, b[3] + 8, mix(alarm, p.background(), 0.35));
            }
            int tier = tierColour(p, g.row());
            r.fillRect(b[0], b[1], b[2], b[3], mix(tier, p.background(), 0.22));
            int edge = problem == MapColouring.ERROR ? p.danger() : problem > 0 ? p.warning() : tier;
            r.strokeRect(b[0], b[1], b[2], b[3], edge);
            if (problem > 0) {
                r.strokeRect(b[0] + 1, b[1] + 1, b[2] - 2, b[3] - 2, edge);
            }
        }
        for (MapOverview.Bundle b : o.bundles(level)) {
            if (problemsOnly && b.problem() == 0) {
                continue;
            }
            double[] e = MapOverview.ends(b);
            r.line(e[0] * s + x, e[1] * s + y, e[2] * s + x, e[3] * s + y, b.argb(), b.thickness());
        }
        for (MapLayout.Item it : o.layout().items()) {
            if (it.row() == MapLayout.Row.OTHER) {
                r.glyph(it, c, s, x, y);
            }
        }
        return r;
    }

    /** A group's box on screen (x, y, width, height), at least 3 px each way and 2 px of margin. */
    public static double[] box(MapLayout.Group g, double s, double x, double y) {
        double bx = g.minX() * s + x - 2;
        double by = g.minY() * s + y - 2;
        double bw = Math.max(3, (g.maxX() - g.minX()) * s + 4);
        double bh = Math.max(3, (g.maxY() - g.minY()) * s + 4);
        return new double[] {bx, by, bw, bh};
    }

    /** The tier colour a row's glyphs have in the error and speed modes. */
    public static int tierColour(MapPalette p, MapLayout.Row row) {
        return switch (row) {
            case CORE -> p.core();
            case SPINE -> p.spine();
            case LEAF -> p.leaf();
            case OTHER -> p.other();
            case HOST -> p.hca();
        };
    }

    /** Problem cables and glyphs, on top of everything, each with a halo so it shows at any scale. */
    private void problems(MapOverview o, double s, double x, double y) {
        MapLayout l = o.layout();
        MapColouring c = o.colouring();
        MapPalette p = c.palette();
        List<MapLayout.Link> links = l.links();
        for (int level = MapColouring.WARNING; level <= MapColouring.ERROR; level++) {
            for (int i = 0; i < links.size(); i++) {
                if (c.linkProblem(i) != level) {
                    continue;
                }
                double[] e = ends(links.get(i));
                int col = c.linkColour(i);
                line(e[0] * s + x, e[1] * s + y, e[2] * s + x, e[3] * s + y, mix(col, p.background(), 0.35), 9);
            }
            for (int i = 0; i < links.size(); i++) {
                if (c.linkProblem(i) != level) {
                    continue;
                }
                double[] e = ends(links.get(i));
                line(e[0] * s + x, e[1] * s + y, e[2] * s + x, e[3] * s + y, c.linkColour(i), 3);
            }
        }
        for (MapLayout.Item it : l.items()) {
            int problem = c.itemProblem(it.index());
            if (problem == 0) {
                continue;
            }
            double iw = Math.max(5, it.width() * s);
            double ih = Math.max(5, it.height() * s);
            double ix = it.x() * s + x - iw / 2;
            double iy = it.y() * s + y - ih / 2;
            if (ix > width || iy > height || ix + iw < 0 || iy + ih < 0) {
                continue;
            }
            int alarm = problem == MapColouring.ERROR ? p.danger() : p.warning();
            fillRect(ix - 4, iy - 4, iw + 8, ih + 8, mix(alarm, p.background(), 0.35));
            fillRect(ix, iy, iw, ih, c.itemColour(it.index()));
            for (Mark m : marks(it, c, s, x, y)) {
                fillRect(m.x() - 1, m.y() - 1, m.width() + 2, m.height() + 2, p.badge());
                fillRect(m.x(), m.y(), m.width(), m.height(), m.argb());
            }
        }
    }

    /** Every link and glyph; {@code skipProblems}: problem links are left for the problem pass. */
    private static MapRasterizer detail(MapLayout l, MapColouring c, int w, int h, double s, double x, double y,
                                        boolean problemsOnly, boolean skipProblems) {
        MapRasterizer r = new MapRasterizer(w, h);
        r.clear(c.palette().background());
        List<MapLayout.Link> links = l.links();
        // thin links first, emphasised (errors, degraded) last so they stay on top
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < links.size(); i++) {
                int thick = c.linkThickness(i);
                if ((pass == 0) == (thick > 1)) {
                    continue;
                }
                if ((skipProblems || problemsOnly) && c.linkProblem(i) > 0 || problemsOnly && c.linkProblem(i) == 0) {
                    continue;
                }
                MapLayout.Link k = links.get(i);
                double[] e = ends(k);
                r.line(e[0] * s + x, e[1] * s + y, e[2] * s + x, e[3] * s + y, c.linkColour(i), thick);
            }
        }
        for (MapLayout.Item it : l.items()) {
            r.glyph(it, c, s, x, y);
        }
        // marks last, so a neighbour's glyph never hides them
        for (MapLayout.Item it : l.items()) {
            Mark[] marks = marks(it, c, s, x, y);
            for (Mark m : marks) {
                if (m.x() > w || m.y() > h || m.x() + m.width() < 0 || m.y() + m.height() < 0) {
                    continue;
                }
                r.fillRect(m.x() - 1, m.y() - 1, m.width() + 2, m.height() + 2, c.palette().badge());
                r.fillRect(m.x(), m.y(), m.width(), m.height(), m.argb());
            }
        }
        return r;
    }

    private void glyph(MapLayout.Item it, MapColouring c, double s, double x, double y) {
        double iw = Math.max(1, it.width() * s);
        double ih = Math.max(1, it.height() * s);
        double ix = it.x() * s + x - iw / 2;
        double iy = it.y() * s + y - ih / 2;
        if (ix > width || iy > height || ix + iw < 0 || iy + ih < 0) {
            return;
        }
        fillRect(ix, iy, iw, ih, c.itemColour(it.index()));
    }

    /** {@code a} over {@code b} with opacity {@code t} (0..1), channel by channel; opaque. */
    public static int mix(int a, int b, double t) {
        int r = (int) Math.round(((a >> 16) & 0xFF) * t + ((b >> 16) & 0xFF) * (1 - t));
        int g = (int) Math.round(((a >> 8) & 0xFF) * t + ((b >> 8) & 0xFF) * (1 - t));
        int bl = (int) Math.round((a & 0xFF) * t + (b & 0xFF) * (1 - t));
        return 0xFF000000 | (r << 16) | (g << 8) | bl;
    }

    /** This frame with {@code other} laid over it at opacity {@code t}: the cross-fade between overview and detail. */
    void blend(MapRasterizer other, double t) {
        int k = (int) Math.round(t * 256);
        int[] o = other.pixels;
        for (int i = 0; i < pixels.length; i++) {
            int a = o[i];
            int b = pixels[i];
            if (a == b) {
                continue;
            }
            int rb = ((((a & 0xFF00FF) * k) + ((b & 0xFF00FF) * (256 - k))) >>> 8) & 0xFF00FF;
            int g = ((((a & 0x00FF00) * k) + ((b & 0x00FF00) * (256 - k))) >>> 8) & 0x00FF00;
            pixels[i] = 0xFF000000 | rb | g;
        }
    }

    /** What a mark on a glyph says. */
    public enum MarkKind {
        /** A red badge on the glyph's top-right corner: ports of this switch (or host's HCAs) lost their link. */
        LOST_LINK,
        /** A bar under the glyph, in the transport's colour: its ranks talk over sockets or another non-IB network. */
        OFF_FABRIC
    }

    /** A mark drawn over a glyph, in screen coordinates (a white outline of 1 px is drawn around it). */
    public record Mark(MarkKind kind, double x, double y, double width, double height, int argb) {
    }

    private static final Mark[] NO_MARKS = {};

    /** The marks on one item's glyph for this viewport transform; the rasteriser and the SVG export draw the same. */
    public static Mark[] marks(MapLayout.Item it, MapColouring c, double s, double x, double y) {
        int lost = c.marksDownPorts() ? c.itemDownPorts(it.index()) : 0;
        var off = c.itemOffFabric(it.index());
        if (lost == 0 && off == null) {
            return NO_MARKS;
        }
        double iw = Math.max(1, it.width() * s);
        double ih = Math.max(1, it.height() * s);
        double ix = it.x() * s + x - iw / 2;
        double iy = it.y() * s + y - ih / 2;
        Mark[] out = new Mark[(lost > 0 ? 1 : 0) + (off != null ? 1 : 0)];
        int n = 0;
        if (lost > 0) {
            double b = Math.max(6, Math.min(12, ih * 0.8));
            out[n++] = new Mark(MarkKind.LOST_LINK, ix + iw - b / 2, iy - b / 2, b, b, c.palette().danger());
        }
        if (off != null) {
            double bw = Math.max(8, iw);
            double bh = Math.max(3, Math.min(6, ih * 0.4));
            out[n] = new Mark(MarkKind.OFF_FABRIC, ix + iw / 2 - bw / 2, iy + ih + 2, bw, bh, c.palette().transport(off));
        }
        return out;
    }

    /** A link runs from the lower edge of the upper glyph to the upper edge of the lower one. */
    public static double[] ends(MapLayout.Link k) {
        MapLayout.Item a = k.a();
        MapLayout.Item b = k.b();
        if (a.y() == b.y()) {
            return new double[] {a.x(), a.y(), b.x(), b.y()};
        }
        MapLayout.Item top = a.y() < b.y() ? a : b;
        MapLayout.Item bottom = top == a ? b : a;
        return new double[] {top.x(), top.y() + top.height() / 2, bottom.x(), bottom.y() - bottom.height() / 2};
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    public int[] pixels() {
        return pixels;
    }

    public void clear(int argb) {
        Arrays.fill(pixels, argb);
    }

    /** A line of the given thickness (1 or more pixels) in screen coordinates. */
    public void line(double x0, double y0, double x1, double y1, int argb, int thickness) {
        double[] c = clip(x0, y0, x1, y1);
        if (c == null) {
            return;
        }
        int ax = (int) Math.round(c[0]);
        int ay = (int) Math.round(c[1]);
        int bx = (int) Math.round(c[2]);
        int by = (int) Math.round(c[3]);
        boolean steep = Math.abs(by - ay) > Math.abs(bx - ax);
        int dx = Math.abs(bx - ax);
        int dy = Math.abs(by - ay);
        int sx = ax < bx ? 1 : -1;
        int sy = ay < by ? 1 : -1;
        int err = dx - dy;
        int half = (thickness - 1) / 2;
        while (true) {
            if (thickness <= 1) {
                set(ax, ay, argb);
            } else {
                for (int k = -half; k < thickness - half; k++) {
                    if (steep) {
                        set(ax + k, ay, argb);
                    } else {
                        set(ax, ay + k, argb);
                    }
                }
            }
            if (ax == bx && ay == by) {
                break;
            }
            int e2 = 2 * err;
            if (e2 > -dy) {
                err -= dy;
                ax += sx;
            }
            if (e2 < dx) {
                err += dx;
                ay += sy;
            }
        }
    }

    public void fillRect(double x, double y, double w, double h, int argb) {
        int x0 = (int) Math.max(0, Math.floor(x));
        int y0 = (int) Math.max(0, Math.floor(y));
        int x1 = (int) Math.min(width, Math.ceil(x + Math.max(1, w)));
        int y1 = (int) Math.min(height, Math.ceil(y + Math.max(1, h)));
        for (int yy = y0; yy < y1; yy++) {
            int row = yy * width;
            for (int xx = x0; xx < x1; xx++) {
                pixels[row + xx] = argb;
            }
        }
    }

    public void strokeRect(double x, double y, double w, double h, int argb) {
        line(x, y, x + w, y, argb, 1);
        line(x + w, y, x + w, y + h, argb, 1);
        line(x + w, y + h, x, y + h, argb, 1);
        line(x, y + h, x, y, argb, 1);
    }

    private void set(int x, int y, int argb) {
        if (x >= 0 && y >= 0 && x < width && y < height) {
            pixels[y * width + x] = argb;
        }
    }

    /** Liang-Barsky clipping to [0,w-1]x[0,h-1]; null when the segment is outside. */
    private double[] clip(double x0, double y0, double x1, double y1) {
        double t0 = 0;
        double t1 = 1;
        double dx = x1 - x0;
        double dy = y1 - y0;
        double[] p = {-dx, dx, -dy, dy};
        double[] q = {x0, width - 1 - x0, y0, height - 1 - y0};
        for (int i = 0; i < 4; i++) {
            if (p[i] == 0) {
                if (q[i] < 0) {
                    return null;
                }
            } else {
                double r = q[i] / p[i];
                if (p[i] < 0) {
                    if (r > t1) {
                        return null;
                    }
                    if (r > t0) {
                        t0 = r;
                    }
                } else {
                    if (r < t0) {
                        return null;
                    }
                    if (r < t1) {
                        t1 = r;
                    }
                }
            }
        }
        return new double[] {x0 + t0 * dx, y0 + t0 * dy, x0 + t1 * dx, y0 + t1 * dy};
    }
}
