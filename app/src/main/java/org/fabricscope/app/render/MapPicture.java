package org.fabricscope.app.render;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import javax.imageio.ImageIO;

import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.layout.MapLayout;

/**
 * The map as a picture file, drawn as the app shows it fitted into its window: the same layout,
 * colouring and transform as the map's Fit, without JavaFX. PNG is the rasteriser's int[] written
 * through {@code javax.imageio}; SVG is written as text (one path per cable colour and thickness,
 * a rect per glyph and mark, switch names where the map would print them, the row names).
 */
public final class MapPicture {
    /** Room the map leaves on the left for the row labels, as FabricMapView's fit does. */
    private static final double LABEL_MARGIN = 48;
    /** The map prints switch names from this scale up (FabricMapView). */
    private static final double SWITCH_LABEL_SCALE = 1.4;
    private static final int MAX_LABELS = 400;

    private final MapLayout layout;
    private final MapColouring colouring;
    private final int width;
    private final int height;
    private final double scale;
    private final double tx;
    private final double ty;

    public MapPicture(MapLayout layout, MapColouring colouring, int width, int height) {
        if (width < 1 || height < 1) {
            throw new IllegalArgumentException("width and height must be positive");
        }
        this.layout = layout;
        this.colouring = colouring;
        this.width = width;
        this.height = height;
        double w = layout.maxX() - layout.minX();
        double h = layout.maxY() - layout.minY();
        double s = Math.min((width - 40 - LABEL_MARGIN) / Math.max(1, w), (height - 40) / Math.max(1, h));
        scale = Math.max(s, 1e-4);
        tx = LABEL_MARGIN + (width - LABEL_MARGIN - w * scale) / 2 - layout.minX() * scale;
        ty = (height - h * scale) / 2 - layout.minY() * scale;
    }

    public double scale() {
        return scale;
    }

    /** The frame, as the map's render thread draws it. */
    public MapRasterizer raster() {
        return MapRasterizer.render(layout, colouring, width, height, scale, tx, ty);
    }

    /** Writes the frame as PNG (opaque RGB). */
    public void writePng(OutputStream out) throws IOException {
        MapRasterizer r = raster();
        BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        img.setRGB(0, 0, width, height, r.pixels(), 0, width);
        if (!ImageIO.write(img, "png", out)) {
            throw new IOException("no PNG writer in this Java runtime");
        }
    }

    /** The picture as an SVG document. */
    public String svg() {
        StringBuilder b = new StringBuilder(1 << 16);
        MapPalette p = colouring.palette();
        b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        b.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(width).append(' ').append(height).append("\">\n");
        b.append("<rect class=\"background\" x=\"0\" y=\"0\" width=\"").append(width).append("\" height=\"").append(height)
                .append("\" fill=\"").append(hex(p.background())).append("\"/>\n");
        // cables: one path per colour and thickness, thin ones first (as the rasteriser draws them)
        Map<Long, StringBuilder> paths = new LinkedHashMap<>();
        List<MapLayout.Link> links = layout.links();
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < links.size(); i++) {
                int thick = colouring.linkThickness(i);
                if ((pass == 0) == (thick > 1)) {
                    continue;
                }
                double[] e = MapRasterizer.ends(links.get(i));
                long key = ((long) thick << 32) | (colouring.linkColour(i) & 0xFFFFFFFFL);
                StringBuilder d = paths.computeIfAbsent(key, k -> new StringBuilder());
                d.append('M').append(num(e[0] * scale + tx)).append(' ').append(num(e[1] * scale + ty))
                        .append('L').append(num(e[2] * scale + tx)).append(' ').append(num(e[3] * scale + ty));
            }
        }
        b.append("<g class=\"cables\" fill=\"none\" stroke-linecap=\"square\">\n");
        for (Map.Entry<Long, StringBuilder> e : paths.entrySet()) {
            int colour = (int) (e.getKey() & 0xFFFFFFFFL);
            long thick = e.getKey() >>> 32;
            b.append("<path stroke=\"").append(hex(colour)).append("\" stroke-width=\"").append(thick).append("\" d=\"")
                    .append(e.getValue()).append("\"/>\n");
        }
        b.append("</g>\n<g class=\"glyphs\">\n");
        for (MapLayout.Item it : layout.items()) {
            double iw = Math.max(1, it.width() * scale);
            double ih = Math.max(1, it.height() * scale);
            rect(b, null, it.x() * scale + tx - iw / 2, it.y() * scale + ty - ih / 2, iw, ih, colouring.itemColour(it.index()),
                    it.vertex().displayName());
        }
        b.append("</g>\n<g class=\"marks\">\n");
        for (MapLayout.Item it : layout.items()) {
            for (MapRasterizer.Mark m : MapRasterizer.marks(it, colouring, scale, tx, ty)) {
                String cls = m.kind() == MapRasterizer.MarkKind.LOST_LINK ? "lost-link" : "off-fabric";
                rect(b, cls, m.x() - 1, m.y() - 1, m.width() + 2, m.height() + 2, p.badge(), null);
                rect(b, cls, m.x(), m.y(), m.width(), m.height(), m.argb(), it.vertex().displayName()
                        + (m.kind() == MapRasterizer.MarkKind.LOST_LINK ? ": " + colouring.itemDownPorts(it.index())
                        + " port(s) lost their link" : ": ranks talk over " + colouring.itemOffFabric(it.index()).label()));
            }
        }
        b.append("</g>\n<g class=\"labels\" font-family=\"sans-serif\" font-size=\"11\" text-anchor=\"middle\" fill=\"")
                .append(hex(p.label())).append("\">\n");
        int labels = 0;
        for (MapLayout.Item it : layout.items()) {
            if (labels >= MAX_LABELS || scale < SWITCH_LABEL_SCALE || !(it.vertex() instanceof FabricNode n && n.isSwitch())) {
                continue;
            }
            b.append("<text x=\"").append(num(it.x() * scale + tx)).append("\" y=\"")
                    .append(num(it.y() * scale + ty + it.height() * scale / 2 + 12)).append("\">")
                    .append(escape(it.vertex().displayName())).append("</text>\n");
            labels++;
        }
        b.append("</g>\n<g class=\"rows\" font-family=\"sans-serif\" font-size=\"11\" font-weight=\"bold\" fill=\"")
                .append(hex(p.labelMuted())).append("\">\n");
        for (var e : layout.rowY().entrySet()) {
            double sy = e.getValue() * scale + ty;
            if (sy > 0 && sy < height) {
                b.append("<text x=\"6\" y=\"").append(num(sy + 4)).append("\">").append(escape(e.getKey().label()))
                        .append("</text>\n");
            }
        }
        return b.append("</g>\n</svg>\n").toString();
    }

    private static void rect(StringBuilder b, String cls, double x, double y, double w, double h, int argb, String title) {
        b.append("<rect");
        if (cls != null) {
            b.append(" class=\"").append(cls).append('"');
        }
        b.append(" x=\"").append(num(x)).append("\" y=\"").append(num(y)).append("\" width=\"").append(num(w))
                .append("\" height=\"").append(num(h)).append("\" fill=\"").append(hex(argb)).append('"');
        if (title == null) {
            b.append("/>\n");
        } else {
            b.append("><title>").append(escape(title)).append("</title></rect>\n");
        }
    }

    /** {@code #rrggbb}; an SVG fill takes its alpha separately, and the map's colours are opaque. */
    static String hex(int argb) {
        return String.format(Locale.ROOT, "#%06x", argb & 0xFFFFFF);
    }

    private static String num(double v) {
        double r = Math.round(v * 10) / 10.0;
        return r == Math.rint(r) ? Long.toString((long) r) : Double.toString(r);
    }

    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                default -> {
                    if (c >= 0x20 || c == '\t') {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }
}
