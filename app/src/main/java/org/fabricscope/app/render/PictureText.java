package org.fabricscope.app.render;

import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;

import org.fabricscope.model.layout.MapLayout;

/**
 * The map's text drawn with {@code java.awt} onto a PNG frame, as the window draws it over its
 * frame ({@link MapLabels}): the overview's group labels on a background band, the glyphs' names,
 * the rows' names at the left edge, the rank badges of the transport mode, the finding subjects'
 * names and the caption (title and legend) when there is one.
 */
final class PictureText {
    private PictureText() {
    }

    static void draw(BufferedImage img, MapLayout layout, MapColouring colouring, MapOverview overview, Viewport v,
                     java.util.List<MapLabels.Name> subjects, java.util.List<MapLabels.Name> fitNames, PictureCaption caption) {
        MapPalette p = colouring.palette();
        Graphics2D g = img.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            Font plain = new Font(Font.SANS_SERIF, Font.PLAIN, 11);
            Font bold = plain.deriveFont(Font.BOLD);
            for (MapLabels.Label l : MapLabels.place(overview, v.width(), v.height(), v.scale(), v.tx(), v.ty())) {
                g.setFont(l.bold() ? bold : plain);
                g.setColor(new Color(p.background()));
                int tw = g.getFontMetrics().stringWidth(l.text());
                g.fillRect((int) (l.x() - tw / 2.0) - 2, (int) (l.y() - MapLabels.LINE / 2), tw + 4, (int) MapLabels.LINE);
                g.setColor(new Color(l.argb()));
                g.drawString(l.text(), (float) (l.x() - tw / 2.0), (float) (l.y() + 4));
            }
            g.setFont(plain);
            g.setColor(new Color(p.label()));
            for (MapLabels.Name n : MapLabels.names(layout, v)) {
                centred(g, n.text(), n.x(), n.y());
            }
            for (MapLabels.Name n : fitNames) {
                g.setColor(new Color(p.background()));
                g.fillRect((int) Math.round(n.x() - n.maxWidth() / 2), (int) Math.round(n.y() - 7), (int) Math.round(n.maxWidth()), 14);
                g.setColor(new Color(p.labelMuted()));
                centred(g, n.text(), n.x(), n.y());
            }
            g.setFont(bold);
            g.setColor(new Color(p.labelMuted()));
            for (MapLabels.RowName r : MapLabels.rows(layout, v)) {
                g.drawString(r.text(), (float) r.x(), (float) (r.y() + 4));
            }
            g.setFont(bold.deriveFont(10f));
            double h = MapLabels.RankBadge.HEIGHT;
            for (MapLabels.RankBadge b : MapLabels.rankBadges(layout, colouring, v)) {
                g.setColor(new Color(p.badge()));
                g.fillRoundRect((int) Math.round(b.x() - b.width() / 2), (int) Math.round(b.y() - h / 2), (int) Math.round(b.width()),
                        (int) h, 6, 6);
                g.setColor(new Color(b.argb()));
                centred(g, b.text(), b.x(), b.y());
            }
            g.setFont(bold);
            for (MapLabels.Name n : subjects) {
                g.setColor(new Color(p.background()));
                g.fillRoundRect((int) Math.round(n.x() - n.maxWidth() / 2), (int) Math.round(n.y() - 7), (int) Math.round(n.maxWidth()),
                        14, 6, 6);
                g.setColor(new Color(p.label()));
                centred(g, n.text(), n.x(), n.y());
            }
            if (caption != null) {
                caption.draw(g, v.width(), v.height(), p);
            }
        } finally {
            g.dispose();
        }
    }

    /** Text centred on x, its line centred on y. */
    private static void centred(Graphics2D g, String text, double x, double y) {
        FontMetrics m = g.getFontMetrics();
        g.drawString(text, (float) (x - m.stringWidth(text) / 2.0), (float) (y + (m.getAscent() - m.getDescent()) / 2.0));
    }
}
