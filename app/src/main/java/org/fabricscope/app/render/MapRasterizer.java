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

    /** Renders links and glyphs for one viewport, in the colouring's palette; pure function of its arguments. */
    public static MapRasterizer render(MapLayout l, MapColouring c, int w, int h, double s, double x, double y) {
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
                MapLayout.Link k = links.get(i);
                double[] e = ends(k);
                r.line(e[0] * s + x, e[1] * s + y, e[2] * s + x, e[3] * s + y, c.linkColour(i), thick);
            }
        }
        for (MapLayout.Item it : l.items()) {
            double iw = Math.max(1, it.width() * s);
            double ih = Math.max(1, it.height() * s);
            double ix = it.x() * s + x - iw / 2;
            double iy = it.y() * s + y - ih / 2;
            if (ix > w || iy > h || ix + iw < 0 || iy + ih < 0) {
                continue;
            }
            r.fillRect(ix, iy, iw, ih, c.itemColour(it.index()));
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
