package org.fabricscope.app.render;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.fabricscope.model.layout.MapLayout;

/**
 * What an exported picture carries for a ticket besides the map: a title band at the top (the
 * capture's name, its files' time, the colour mode and whether the whole fabric or the view as
 * shown) and the legend in a band at the bottom ({@link PictureLegend}), drawn the same in SVG and
 * PNG. {@link #fit} fits the whole fabric between the two bands.
 */
public record PictureCaption(String title, List<PictureLegend.Entry> legend) {
    /** Height of the title band. */
    public static final double TOP = 26;
    private static final double LEGEND_LINE = 18;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    public PictureCaption {
        legend = List.copyOf(legend);
    }

    /**
     * The title: {@code capture · files of 2026-11-26 22:38 UTC · Error counters · whole fabric};
     * {@code time} null leaves the time out (nothing dated was read).
     */
    public static String title(String capture, Instant time, ColourMode mode, boolean wholeFabric) {
        StringBuilder b = new StringBuilder(capture == null || capture.isBlank() ? "FabricScope map" : capture);
        if (time != null) {
            b.append(" \u00b7 files of ").append(TIME.format(time));
        }
        b.append(" \u00b7 ").append(mode).append(" \u00b7 ").append(wholeFabric ? "whole fabric" : "view as shown");
        return b.toString();
    }

    /**
     * When the capture was taken, as its files tell: the newest modification time of the paths and of
     * the files directly in a folder given; empty when none can be read. Reads the file system: not
     * on the UI thread.
     */
    public static Optional<Instant> filesTime(List<Path> paths) {
        Instant newest = null;
        for (Path p : paths) {
            try {
                List<Path> files;
                if (Files.isDirectory(p)) {
                    try (Stream<Path> s = Files.list(p)) {
                        files = s.filter(Files::isRegularFile).toList();
                    }
                } else {
                    files = List.of(p);
                }
                for (Path f : files) {
                    FileTime t = Files.getLastModifiedTime(f);
                    if (newest == null || t.toInstant().isAfter(newest)) {
                        newest = t.toInstant();
                    }
                }
            } catch (IOException | UncheckedIOException e) {
                // an unreadable path dates nothing
            }
        }
        return Optional.ofNullable(newest);
    }

    /** The whole fabric fitted into {@code width x height} below the title and above the legend. */
    public Viewport fit(MapLayout layout, int width, int height) {
        double top = TOP;
        double bottom = legendHeight(width);
        Viewport inner = Viewport.fit(layout, width, Math.max(16, height - top - bottom));
        return new Viewport(width, height, inner.scale(), inner.tx(), inner.ty() + top);
    }

    /**
     * The view as shown with the title band above it and the legend below: the same zoom and pan,
     * the picture taller by the two bands, so that they cover nothing of the view.
     */
    public Viewport around(Viewport v) {
        return new Viewport(v.width(), (int) Math.ceil(v.height() + TOP + legendHeight(v.width())), v.scale(), v.tx(), v.ty() + TOP);
    }

    /** The legend's band height at this width (its entries wrap). */
    public double legendHeight(int width) {
        return rows(width).size() * LEGEND_LINE + 8;
    }

    /** A legend entry placed: the sample's left x and the line's centre y. */
    record Placed(PictureLegend.Entry entry, double x, double y) {
    }

    private static double entryWidth(PictureLegend.Entry e) {
        return 20 + MapLabels.width(e.text(), false) + 10;
    }

    private List<List<PictureLegend.Entry>> rows(int width) {
        List<List<PictureLegend.Entry>> rows = new ArrayList<>();
        List<PictureLegend.Entry> row = new ArrayList<>();
        double x = 10;
        for (PictureLegend.Entry e : legend) {
            double w = entryWidth(e);
            if (!row.isEmpty() && x + w > width - 10) {
                rows.add(row);
                row = new ArrayList<>();
                x = 10;
            }
            row.add(e);
            x += w;
        }
        if (!row.isEmpty()) {
            rows.add(row);
        }
        return rows;
    }

    List<Placed> placed(int width, int height) {
        List<Placed> out = new ArrayList<>();
        List<List<PictureLegend.Entry>> rows = rows(width);
        double y = height - legendHeight(width) + 4 + LEGEND_LINE / 2;
        for (List<PictureLegend.Entry> row : rows) {
            double x = 10;
            for (PictureLegend.Entry e : row) {
                out.add(new Placed(e, x, y));
                x += entryWidth(e);
            }
            y += LEGEND_LINE;
        }
        return out;
    }

    /** The sample's box: x, y, width, height. */
    static double[] sample(Placed p) {
        return switch (p.entry().shape()) {
            case SWATCH -> new double[] {p.x(), p.y() - 3, 14, 6};
            case BAR -> new double[] {p.x(), p.y() - 1.5, 14, 3};
            case BADGE -> new double[] {p.x() + 3, p.y() - 4, 8, 8};
        };
    }

    /** The title and the legend as SVG groups, on bands of the background colour. */
    void svg(StringBuilder b, int width, int height, MapPalette p) {
        b.append("<g class=\"title\" font-family=\"sans-serif\" font-size=\"13\" font-weight=\"bold\">\n<rect x=\"0\" y=\"0\" width=\"")
                .append(width).append("\" height=\"").append((int) TOP).append("\" fill=\"").append(MapPicture.hex(p.background()))
                .append("\"/>\n<text x=\"10\" y=\"18\" fill=\"").append(MapPicture.hex(p.label())).append("\">")
                .append(MapPicture.escape(title)).append("</text>\n</g>\n");
        double band = legendHeight(width);
        b.append("<g class=\"legend\" font-family=\"sans-serif\" font-size=\"11\">\n<rect x=\"0\" y=\"")
                .append(MapPicture.num(height - band)).append("\" width=\"").append(width).append("\" height=\"")
                .append(MapPicture.num(band)).append("\" fill=\"").append(MapPicture.hex(p.background())).append("\"/>\n");
        for (Placed e : placed(width, height)) {
            double[] r = sample(e);
            b.append("<rect x=\"").append(MapPicture.num(r[0])).append("\" y=\"").append(MapPicture.num(r[1]))
                    .append("\" width=\"").append(MapPicture.num(r[2])).append("\" height=\"").append(MapPicture.num(r[3]))
                    .append("\" fill=\"").append(MapPicture.hex(e.entry().argb())).append("\"/>\n<text x=\"")
                    .append(MapPicture.num(e.x() + 20)).append("\" y=\"").append(MapPicture.num(e.y() + 4)).append("\" fill=\"")
                    .append(MapPicture.hex(p.label())).append("\">").append(MapPicture.escape(e.entry().text())).append("</text>\n");
        }
        b.append("</g>\n");
    }

    /** The title and the legend drawn onto a PNG frame. */
    void draw(Graphics2D g, int width, int height, MapPalette p) {
        Font plain = new Font(Font.SANS_SERIF, Font.PLAIN, 11);
        g.setColor(new Color(p.background()));
        g.fillRect(0, 0, width, (int) TOP);
        double band = legendHeight(width);
        g.fillRect(0, (int) Math.floor(height - band), width, (int) Math.ceil(band));
        g.setColor(new Color(p.label()));
        g.setFont(plain.deriveFont(Font.BOLD, 13f));
        g.drawString(title, 10f, 18f);
        g.setFont(plain);
        for (Placed e : placed(width, height)) {
            double[] r = sample(e);
            g.setColor(new Color(e.entry().argb()));
            g.fillRect((int) Math.round(r[0]), (int) Math.round(r[1]), (int) Math.round(r[2]), (int) Math.round(r[3]));
            g.setColor(new Color(p.label()));
            g.drawString(e.entry().text(), (float) (e.x() + 20), (float) (e.y() + 4));
        }
    }
}
