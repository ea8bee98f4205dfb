package org.fabricscope.app.render;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.fabricscope.model.core.Plural;
import org.fabricscope.model.layout.MapLayout;

/**
 * The map as a picture file, drawn as the app shows it, without JavaFX: the same layout, colouring,
 * problems-only filter and {@link Viewport} (the CLI's is the map's Fit, the window's what the user
 * zoomed and panned to). PNG is the rasteriser's int[] with the map's text ({@link PictureText})
 * written through {@code javax.imageio}; SVG is written as text (one path per cable colour and
 * thickness, a rect per glyph and mark, the names, row names, rank badges and group labels the map
 * prints), with what lies out of view left out.
 */
public final class MapPicture {
    private final MapLayout layout;
    private final MapColouring colouring;
    private final MapOverview overview;
    private final boolean problemsOnly;
    private final Viewport view;
    private final int width;
    private final int height;
    private final double scale;
    private final double tx;
    private final double ty;
    private final PictureCaption caption;

    public MapPicture(MapLayout layout, MapColouring colouring, int width, int height) {
        this(layout, colouring, width, height, false);
    }

    /** {@code problemsOnly}: healthy cables and bundles left out, as the map's Problems only filter does. */
    public MapPicture(MapLayout layout, MapColouring colouring, int width, int height, boolean problemsOnly) {
        this(layout, colouring, fitted(layout, width, height), problemsOnly);
    }

    /**
     * The map as a view shows it: that viewport's size, zoom and pan ({@link Viewport}), and
     * {@code problemsOnly} as its Problems only filter is set.
     */
    public MapPicture(MapLayout layout, MapColouring colouring, Viewport view, boolean problemsOnly) {
        this(layout, colouring, view, problemsOnly, null);
    }

    /**
     * The map through {@code view}, with {@code caption}'s title band at the top and its legend at the
     * bottom (null: the map alone), and the names of the finding subjects in view.
     */
    public MapPicture(MapLayout layout, MapColouring colouring, Viewport view, boolean problemsOnly, PictureCaption caption) {
        this.caption = caption;
        this.layout = layout;
        this.colouring = colouring;
        this.overview = new MapOverview(layout, colouring);
        this.problemsOnly = problemsOnly;
        this.view = view;
        this.width = view.width();
        this.height = view.height();
        this.scale = view.scale();
        this.tx = view.tx();
        this.ty = view.ty();
    }

    private static Viewport fitted(MapLayout layout, int width, int height) {
        if (width < 1 || height < 1) {
            throw new IllegalArgumentException("width and height must be positive");
        }
        return Viewport.fit(layout, width, height);
    }

    /** The part of the map drawn: size and transform. */
    public Viewport viewport() {
        return view;
    }

    public double scale() {
        return scale;
    }

    /** The fit's translation, x and y (world to picture pixels: {@code x * scale + tx}). */
    public double tx() {
        return tx;
    }

    public double ty() {
        return ty;
    }

    /** The overview the picture draws with. */
    public MapOverview overview() {
        return overview;
    }

    /** The frame, as the map's render thread draws it (the overview when the fabric is too big for detail). */
    public MapRasterizer raster() {
        return MapRasterizer.render(overview, width, height, scale, tx, ty, problemsOnly);
    }

    /** The overview's group labels in this viewport, placed as the map places them. */
    public List<MapLabels.Label> labels() {
        return MapLabels.place(overview, width, height, scale, tx, ty);
    }

    /** The names of the finding subjects in view that the glyph names leave out, clear of the caption's bands. */
    public List<MapLabels.Name> subjectNames() {
        return SubjectNames.place(layout, colouring, overview, view, caption == null ? 0 : PictureCaption.TOP,
                caption == null ? 0 : caption.legendHeight(width));
    }

    /**
     * The switch names that fit at this zoom ({@link FitNames}), as the window prints them, clear of the subject names
     * and of the caption's bands.
     */
    public List<MapLabels.Name> fitNames() {
        double top = caption == null ? 0 : PictureCaption.TOP;
        double bottom = height - (caption == null ? 0 : caption.legendHeight(width));
        return FitNames.place(layout, view, labels(), subjectNames()).stream()
                .filter(n -> n.y() - MapLabels.LINE / 2 >= top && n.y() + MapLabels.LINE / 2 <= bottom).toList();
    }

    /**
     * Why this picture is refused as {@code svg} or PNG ({@link OutputLimits}), or null: a PNG past
     * {@link OutputLimits#MAX_PIXELS}; an SVG drawn in detail (not the overview) of a layout with more
     * glyphs and cables than {@link OutputLimits#MAX_ELEMENTS}.
     */
    public String tooLarge(boolean svg) {
        if (!svg) {
            return OutputLimits.pictureProblem(width, height);
        }
        if (overview.detail(scale) < 0.5) {
            return null; // the overview: a box per group, a line per pair of groups
        }
        return OutputLimits.graphProblem("an SVG of every glyph and cable", (long) layout.items().size() + layout.links().size());
    }

    /** Writes the frame as PNG (opaque RGB), with the text the map prints over it ({@link PictureText}). */
    public void writePng(OutputStream out) throws IOException {
        String refused = tooLarge(false);
        if (refused != null) {
            throw new IOException(refused);
        }
        MapRasterizer r = raster();
        BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        img.setRGB(0, 0, width, height, r.pixels(), 0, width);
        PictureText.draw(img, layout, colouring, overview, view, subjectNames(), fitNames(), caption);
        PngEncoder.write(img, out);
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
        if (overview.detail(scale) < 0.5) {
            overviewSvg(b);
            problemsSvg(b);
            rowsSvg(b);
            return captionSvg(b).append("</svg>\n").toString();
        }
        // cables: one path per colour and thickness, thin ones first (as the rasteriser draws them)
        Map<Long, StringBuilder> paths = new LinkedHashMap<>();
        List<MapLayout.Link> links = layout.links();
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < links.size(); i++) {
                int thick = colouring.linkThickness(i);
                if ((pass == 0) == (thick > 1) || colouring.linkProblem(i) > 0 || problemsOnly) {
                    continue; // problems are drawn with their halos, after the rest
                }
                double[] e = MapRasterizer.ends(links.get(i));
                if (!inView(e)) {
                    continue;
                }
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
        b.append("</g>\n");
        problemsSvg(b);
        b.append("<g class=\"glyphs\">\n");
        for (MapLayout.Item it : layout.items()) {
            double iw = Math.max(1, it.width() * scale);
            double ih = Math.max(1, it.height() * scale);
            if (inView(it)) {
                rect(b, null, it.x() * scale + tx - iw / 2, it.y() * scale + ty - ih / 2, iw, ih, colouring.itemColour(it.index()),
                        it.vertex().displayName());
            }
        }
        b.append("</g>\n<g class=\"marks\">\n");
        for (MapLayout.Item it : layout.items()) {
            for (MapRasterizer.Mark m : inView(it) ? MapRasterizer.marks(it, colouring, scale, tx, ty) : new MapRasterizer.Mark[0]) {
                String cls = m.kind() == MapRasterizer.MarkKind.LOST_LINK ? "lost-link" : "off-fabric";
                rect(b, cls, m.x() - 1, m.y() - 1, m.width() + 2, m.height() + 2, p.badge(), null);
                rect(b, cls, m.x(), m.y(), m.width(), m.height(), m.argb(), it.vertex().displayName()
                        + (m.kind() == MapRasterizer.MarkKind.LOST_LINK ? ": " + Plural.of(colouring.itemDownPorts(it.index()), "port")
                        + (colouring.itemDownPorts(it.index()) == 1 ? " lost its link" : " lost their link") : ": ranks talk over " + colouring.itemOffFabric(it.index()).label()));
            }
        }
        b.append("</g>\n<g class=\"labels\" font-family=\"sans-serif\" font-size=\"11\" text-anchor=\"middle\" fill=\"")
                .append(hex(p.label())).append("\">\n");
        for (MapLabels.Name n : MapLabels.names(layout, view)) {
            b.append("<text x=\"").append(num(n.x())).append("\" y=\"").append(num(n.y() + 4)).append("\">")
                    .append(escape(n.text())).append("</text>\n");
        }
        for (MapLabels.Name n : fitNames()) {
            b.append("<rect x=\"").append(num(n.x() - n.maxWidth() / 2)).append("\" y=\"").append(num(n.y() - 7))
                    .append("\" width=\"").append(num(n.maxWidth())).append("\" height=\"14\" fill=\"")
                    .append(hex(p.background())).append("\" fill-opacity=\"0.85\"/>\n<text x=\"").append(num(n.x()))
                    .append("\" y=\"").append(num(n.y() + 4)).append("\" fill=\"").append(hex(p.labelMuted())).append("\">")
                    .append(escape(n.text())).append("</text>\n");
        }
        b.append("</g>\n");
        rowsSvg(b);
        rankBadgesSvg(b);
        groupLabelsSvg(b);
        return captionSvg(b).append("</svg>\n").toString();
    }

    /** The finding subjects' names, then the title and the legend over the map's edges. */
    private StringBuilder captionSvg(StringBuilder b) {
        MapPalette p = colouring.palette();
        List<MapLabels.Name> names = subjectNames();
        if (!names.isEmpty()) {
            b.append("<g class=\"subject-names\" font-family=\"sans-serif\" font-size=\"11\" font-weight=\"bold\" "
                    + "text-anchor=\"middle\">\n");
            for (MapLabels.Name n : names) {
                b.append("<rect x=\"").append(num(n.x() - n.maxWidth() / 2)).append("\" y=\"").append(num(n.y() - 7))
                        .append("\" width=\"").append(num(n.maxWidth())).append("\" height=\"14\" rx=\"3\" fill=\"")
                        .append(hex(p.background())).append("\" fill-opacity=\"0.85\"/>\n<text x=\"").append(num(n.x()))
                        .append("\" y=\"").append(num(n.y() + 4)).append("\" fill=\"").append(hex(p.label())).append("\">")
                        .append(escape(n.text())).append("</text>\n");
            }
            b.append("</g>\n");
        }
        if (caption != null) {
            caption.svg(b, width, height, p);
        }
        return b;
    }

    /** The rows' names at the left edge. */
    private void rowsSvg(StringBuilder b) {
        b.append("<g class=\"rows\" font-family=\"sans-serif\" font-size=\"11\" font-weight=\"bold\" fill=\"")
                .append(hex(colouring.palette().labelMuted())).append("\">\n");
        for (MapLabels.RowName r : MapLabels.rows(layout, view)) {
            b.append("<text x=\"").append(num(r.x())).append("\" y=\"").append(num(r.y() + 4)).append("\">").append(escape(r.text())).append("</text>\n");
        }
        b.append("</g>\n");
    }

    /** The transport mode's rank ranges over the glyphs that hold ranks. */
    private void rankBadgesSvg(StringBuilder b) {
        List<MapLabels.RankBadge> badges = MapLabels.rankBadges(layout, colouring, view);
        if (badges.isEmpty()) {
            return;
        }
        double h = MapLabels.RankBadge.HEIGHT;
        b.append("<g class=\"rank-badges\" font-family=\"sans-serif\" font-size=\"10\" font-weight=\"bold\" text-anchor=\"middle\">\n");
        for (MapLabels.RankBadge r : badges) {
            b.append("<rect x=\"").append(num(r.x() - r.width() / 2)).append("\" y=\"").append(num(r.y() - h / 2))
                    .append("\" width=\"").append(num(r.width())).append("\" height=\"").append(num(h))
                    .append("\" rx=\"3\" fill=\"").append(hex(colouring.palette().badge())).append("\"/>\n<text x=\"")
                    .append(num(r.x())).append("\" y=\"").append(num(r.y() + 3.5)).append("\" fill=\"").append(hex(r.argb()))
                    .append("\">").append(escape(r.text())).append("</text>\n");
        }
        b.append("</g>\n");
    }

    /** Whether a glyph, with room for its marks, meets the view. */
    private boolean inView(MapLayout.Item it) {
        double hw = Math.max(1, it.width() * scale) / 2 + 12;
        double hh = Math.max(1, it.height() * scale) / 2 + 12;
        double x = it.x() * scale + tx;
        double y = it.y() * scale + ty;
        return x + hw >= 0 && y + hh >= 0 && x - hw <= width && y - hh <= height;
    }

    /** Whether a segment's bounding box meets the view (a halo's width of slack). */
    private boolean inView(double[] e) {
        double x0 = Math.min(e[0], e[2]) * scale + tx;
        double x1 = Math.max(e[0], e[2]) * scale + tx;
        double y0 = Math.min(e[1], e[3]) * scale + ty;
        double y1 = Math.max(e[1], e[3]) * scale + ty;
        return x1 >= -10 && y1 >= -10 && x0 <= width + 10 && y0 <= height + 10;
    }

    /** The overview: group boxes, one bundle per pair of groups, the labels. */
    private void overviewSvg(StringBuilder b) {
        MapPalette p = colouring.palette();
        MapLayout.Level level = overview.level(scale);
        b.append("<g class=\"groups\">\n");
        for (MapLayout.Group g : layout.groups(level)) {
            double[] r = MapRasterizer.box(g, scale, tx, ty);
            int problem = overview.groupProblem(level, g.index());
            int tier = MapRasterizer.tierColour(p, g.row());
            int edge = problem == MapColouring.ERROR ? p.danger() : problem > 0 ? p.warning() : tier;
            if (problem > 0) {
                b.append("<rect class=\"halo\" x=\"").append(num(r[0] - 4)).append("\" y=\"").append(num(r[1] - 4))
                        .append("\" width=\"").append(num(r[2] + 8)).append("\" height=\"").append(num(r[3] + 8))
                        .append("\" fill=\"").append(hex(MapRasterizer.mix(edge, p.background(), 0.35))).append("\"/>\n");
            }
            b.append("<rect class=\"group\" x=\"").append(num(r[0])).append("\" y=\"").append(num(r[1])).append("\" width=\"")
                    .append(num(r[2])).append("\" height=\"").append(num(r[3])).append("\" fill=\"")
                    .append(hex(MapRasterizer.mix(tier, p.background(), 0.22))).append("\" stroke=\"").append(hex(edge))
                    .append("\" stroke-width=\"").append(problem > 0 ? 2 : 1).append("\"><title>").append(escape(g.label()))
                    .append(": ").append(g.size()).append(' ').append(g.row().label()).append("</title></rect>\n");
        }
        b.append("</g>\n<g class=\"bundles\" fill=\"none\">\n");
        for (MapOverview.Bundle k : overview.bundles(level)) {
            if (problemsOnly && k.problem() == 0) {
                continue;
            }
            double[] e = MapOverview.ends(k);
            b.append("<path stroke=\"").append(hex(k.argb())).append("\" stroke-width=\"").append(k.thickness()).append("\" d=\"M")
                    .append(num(e[0] * scale + tx)).append(' ').append(num(e[1] * scale + ty)).append('L')
                    .append(num(e[2] * scale + tx)).append(' ').append(num(e[3] * scale + ty)).append("\"><title>")
                    .append(escape(k.a().label() + " - " + k.b().label() + ": " + k.cables() + " cables")).append("</title></path>\n");
        }
        b.append("</g>\n");
        groupLabelsSvg(b);
    }

    private void groupLabelsSvg(StringBuilder b) {
        List<MapLabels.Label> labels = labels();
        if (labels.isEmpty()) {
            return;
        }
        b.append("<g class=\"group-labels\" font-family=\"sans-serif\" font-size=\"11\" text-anchor=\"middle\">\n");
        for (MapLabels.Label l : labels) {
            b.append("<text x=\"").append(num(l.x())).append("\" y=\"").append(num(l.y() + 4)).append("\" fill=\"")
                    .append(hex(l.argb())).append('"').append(l.bold() ? " font-weight=\"bold\"" : "").append('>')
                    .append(escape(l.text())).append("</text>\n");
        }
        b.append("</g>\n");
    }

    /** Problem cables (a halo, then the cable; one path per colour each) above the rest, as the rasteriser draws them. */
    private void problemsSvg(StringBuilder b) {
        MapPalette p = colouring.palette();
        b.append("<g class=\"problems\" fill=\"none\" stroke-linecap=\"round\">\n");
        List<MapLayout.Link> links = layout.links();
        Map<Integer, StringBuilder> byColour = new LinkedHashMap<>();
        for (int level = MapColouring.WARNING; level <= MapColouring.ERROR; level++) {
            for (int i = 0; i < links.size(); i++) {
                if (colouring.linkProblem(i) != level) {
                    continue;
                }
                double[] e = MapRasterizer.ends(links.get(i));
                if (!inView(e)) {
                    continue;
                }
                byColour.computeIfAbsent(colouring.linkColour(i), k -> new StringBuilder()).append('M')
                        .append(num(e[0] * scale + tx)).append(' ').append(num(e[1] * scale + ty)).append('L')
                        .append(num(e[2] * scale + tx)).append(' ').append(num(e[3] * scale + ty));
            }
        }
        for (var e : byColour.entrySet()) {
            b.append("<path class=\"halo\" stroke=\"").append(hex(MapRasterizer.mix(e.getKey(), p.background(), 0.35)))
                    .append("\" stroke-width=\"9\" d=\"").append(e.getValue()).append("\"/>\n");
        }
        for (var e : byColour.entrySet()) {
            b.append("<path class=\"problem\" stroke=\"").append(hex(e.getKey())).append("\" stroke-width=\"3\" d=\"")
                    .append(e.getValue()).append("\"/>\n");
        }
        b.append("</g>\n");
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

    static String num(double v) {
        double r = Math.round(v * 10) / 10.0;
        return r == Math.rint(r) ? Long.toString((long) r) : Double.toString(r);
    }

    /** Text from the inputs for the SVG: escaped, with the characters XML 1.0 forbids replaced ({@link XmlText}). */
    static String escape(String s) {
        return XmlText.escape(s);
    }
}
