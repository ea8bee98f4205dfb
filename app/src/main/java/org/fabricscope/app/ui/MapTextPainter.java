package org.fabricscope.app.ui;

import java.util.BitSet;
import java.util.List;

import org.fabricscope.app.render.FitNames;
import org.fabricscope.app.render.MapColouring;
import org.fabricscope.app.render.MapLabels;
import org.fabricscope.app.render.MapOverview;
import org.fabricscope.app.render.MapPalette;
import org.fabricscope.app.render.SubjectNames;
import org.fabricscope.app.render.Viewport;
import org.fabricscope.model.layout.MapLayout;

import javafx.geometry.VPos;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.TextAlignment;

/**
 * The text the map prints over its frame, in this order so that each gives way to the ones before it: the overview's
 * group labels, the glyph names of the zoom, the names of the devices with a problem (at every zoom), the switch names
 * that fit at this zoom, the row names (off the glyphs), and in the transport mode the rank badges. Placement is
 * {@link MapLabels}' and {@link SubjectNames}', shared with the picture export; this class only paints.
 */
final class MapTextPainter {
    /** What was placed, for tests and the picture export's "view as shown". */
    record Placed(List<MapLabels.Label> groupLabels, List<MapLabels.Name> fitNames) {
        static final Placed NONE = new Placed(List.of(), List.of());
    }

    private final MapPalette palette;
    private final Color label;
    private final Color labelMuted;
    private final Color band;
    private final Font plain = Font.font(11);
    private final Font bold = Font.font(null, FontWeight.BOLD, 11);

    MapTextPainter(MapPalette palette) {
        this.palette = palette;
        this.label = UiPalette.fx(palette.label());
        this.labelMuted = UiPalette.fx(palette.labelMuted());
        this.band = UiPalette.fx(palette.background(), 0.85);
    }

    Placed paint(GraphicsContext g, MapLayout layout, MapOverview overview, MapColouring colouring, BitSet subjects, Viewport view) {
        if (view == null) {
            return Placed.NONE;
        }
        g.setTextBaseline(VPos.CENTER);
        g.setTextAlign(TextAlignment.CENTER);
        List<MapLabels.Label> groups = overview == null ? List.of()
                : MapLabels.place(overview, view.width(), view.height(), view.scale(), view.tx(), view.ty());
        for (MapLabels.Label l : groups) {
            g.setFill(band);
            g.fillRect(l.x() - l.width() / 2, l.y() - MapLabels.LINE / 2, l.width(), MapLabels.LINE);
            g.setFont(l.bold() ? bold : plain);
            g.setFill(UiPalette.fx(l.argb()));
            g.fillText(l.text(), l.x(), l.y());
        }
        // names of the glyphs big enough to read, in view
        g.setFont(plain);
        g.setFill(label);
        List<MapLabels.Name> names = MapLabels.names(layout, view);
        for (MapLabels.Name n : names) {
            g.fillText(n.text(), n.x(), n.y(), n.maxWidth());
        }
        // the devices with a problem, named at every zoom, clear of the other labels
        g.setFont(bold);
        List<MapLabels.Name> subjectNames = SubjectNames.place(layout, subjects, groups, names, view, 0, 0);
        for (MapLabels.Name n : subjectNames) {
            g.setFill(band);
            g.fillRoundRect(n.x() - n.maxWidth() / 2, n.y() - MapLabels.LINE / 2, n.maxWidth(), MapLabels.LINE, 6, 6);
            g.setFill(label);
            g.fillText(n.text(), n.x(), n.y());
        }
        // at fit, the other switches named where their names fit between their neighbours
        g.setFont(plain);
        List<MapLabels.Name> fit = FitNames.place(layout, view, groups, subjectNames);
        for (MapLabels.Name n : fit) {
            g.setFill(band);
            g.fillRect(n.x() - n.maxWidth() / 2, n.y() - MapLabels.LINE / 2, n.maxWidth(), MapLabels.LINE);
            g.setFill(labelMuted);
            g.fillText(n.text(), n.x(), n.y());
        }
        rows(g, layout, view);
        rankBadges(g, layout, colouring, view);
        return new Placed(groups, fit);
    }

    private void rows(GraphicsContext g, MapLayout layout, Viewport view) {
        g.setTextAlign(TextAlignment.LEFT);
        g.setFont(bold);
        for (MapLabels.RowName r : MapLabels.rows(layout, view)) {
            if (r.onGlyphs()) {
                g.setFill(band);
                g.fillRect(r.x() - 3, r.y() - MapLabels.LINE / 2, MapLabels.width(r.text(), true), MapLabels.LINE);
            }
            g.setFill(labelMuted);
            g.fillText(r.text(), r.x(), r.y());
        }
    }

    /** Transport mode: the rank-range badges on the glyphs that hold ranks. */
    private void rankBadges(GraphicsContext g, MapLayout layout, MapColouring colouring, Viewport view) {
        if (colouring == null || colouring.ranks() == null || colouring.ranks().isEmpty()) {
            return;
        }
        g.setFont(Font.font(null, FontWeight.BOLD, 10));
        g.setTextAlign(TextAlignment.CENTER);
        double bh = MapLabels.RankBadge.HEIGHT;
        for (MapLabels.RankBadge b : MapLabels.rankBadges(layout, colouring, view)) {
            g.setFill(UiPalette.fx(palette.badge(), 0.9));
            g.fillRoundRect(b.x() - b.width() / 2, b.y() - bh / 2, b.width(), bh, 6, 6);
            g.setFill(UiPalette.fx(b.argb()));
            g.fillText(b.text(), b.x(), b.y());
        }
    }
}
