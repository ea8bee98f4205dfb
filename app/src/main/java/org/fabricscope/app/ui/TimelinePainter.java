package org.fabricscope.app.ui;

import java.util.Map;

import org.fabricscope.app.render.MapPalette;
import org.fabricscope.model.incident.reasoning.IncidentEvent;
import org.fabricscope.model.incident.Role;

import javafx.geometry.VPos;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.Text;
import javafx.scene.text.TextAlignment;

/**
 * Paints a {@link TimelineLayout}: lanes with their labels, the clock axis and its grid, the "no time"
 * column, a line from each consequence to the cause it follows, and the marks (cause: diamond,
 * consequence: circle, context: small grey dot; coloured by severity), the root cause ringed and
 * labelled, the selection ringed with a guide at its time. Colours are the stylesheet's
 * ({@link UiPalette}); nothing here holds one. FX thread.
 */
final class TimelinePainter {
    /** Past this many cause lines only those of the selected or hovered event are drawn (each costs ~50 us in software). */
    static final int MAX_LINES = 300;
    private static final Font PLAIN = Font.font(11);
    private static final Font BOLD = Font.font(null, FontWeight.BOLD, 11);
    private static final Font SMALL = Font.font(10);

    private final MapPalette palette;
    private final Color background;
    private final Color band;
    private final Color grid;
    private final Color label;
    private final Color muted;
    private final Color selection;
    private final Color danger;
    private final Color context;

    TimelinePainter(MapPalette palette) {
        this.palette = palette;
        this.background = UiPalette.fx(palette.background());
        this.band = UiPalette.fx(palette.badge());
        this.grid = UiPalette.fx(palette.faint());
        this.label = UiPalette.fx(palette.label());
        this.muted = UiPalette.fx(palette.labelMuted());
        this.selection = UiPalette.fx(palette.selection());
        this.danger = UiPalette.fx(palette.danger());
        this.context = UiPalette.fx(palette.unknown());
    }

    void paint(GraphicsContext g, TimelineLayout l, IncidentEvent selected, IncidentEvent hovered) {
        double w = l.width();
        double h = l.height();
        g.setFill(background);
        g.fillRect(0, 0, w, h);
        TimelineData d = l.data();
        if (d.isEmpty()) {
            g.setFill(muted);
            g.setFont(PLAIN);
            g.setTextAlign(TextAlignment.CENTER);
            g.setTextBaseline(VPos.CENTER);
            g.fillText("No events to show", w / 2, h / 2);
            return;
        }
        lanes(g, l);
        g.save();
        g.beginPath();
        g.rect(l.labelWidth(), TimelineLayout.AXIS_HEIGHT, w - l.labelWidth(), h - TimelineLayout.AXIS_HEIGHT);
        g.clip();
        grid(g, l);
        TimelineLayout.Mark sel = l.markOf(selected);
        if (sel != null && sel.event().stamp().known() && sel.inView()) {
            g.setStroke(UiPalette.fx(palette.selection(), 0.35));
            g.setLineWidth(1);
            g.strokeLine(snap(sel.x()), TimelineLayout.AXIS_HEIGHT, snap(sel.x()), h);
        }
        causeLines(g, l, selected, hovered);
        for (TimelineLayout.Mark m : l.marks()) {
            if (m.inView()) {
                mark(g, m.event(), m.x(), m.y());
            }
        }
        overflows(g, l);
        TimelineLayout.Mark hov = l.markOf(hovered);
        if (hov != null && hov.inView() && hovered != selected) {
            ring(g, hov.x(), hov.y(), 8, UiPalette.fx(palette.selection(), 0.6), 1.5);
        }
        if (sel != null && sel.inView()) {
            ring(g, sel.x(), sel.y(), 9, selection, 2.5);
        }
        root(g, l);
        g.restore();
        axis(g, l);
    }

    private static double snap(double v) {
        return Math.floor(v) + 0.5;
    }

    private void lanes(GraphicsContext g, TimelineLayout l) {
        TimelineData d = l.data();
        IncidentEvent root = d.incident().rootCause();
        int rootLane = d.laneOf(root);
        g.setTextBaseline(VPos.CENTER);
        g.setTextAlign(TextAlignment.LEFT);
        for (TimelineLayout.Band b : l.bands()) {
            if (b.top() + b.height() < TimelineLayout.AXIS_HEIGHT || b.top() > l.height()) {
                continue;
            }
            g.setFill(b.lane() % 2 == 0 ? band : background);
            g.fillRect(0, b.top(), l.width(), b.height());
            g.setStroke(grid);
            g.setLineWidth(1);
            g.strokeLine(0, snap(b.top() + b.height()), l.width(), snap(b.top() + b.height()));
            boolean isRoot = b.lane() == rootLane;
            g.setFont(isRoot ? BOLD : PLAIN);
            g.setFill(isRoot ? danger : label);
            String text = fit(d.lanes().get(b.lane()).label(), isRoot ? BOLD : PLAIN, l.labelWidth() - 12);
            double y = Math.max(b.top() + TimelineLayout.LANE_PAD + TimelineLayout.SLOT / 2, TimelineLayout.AXIS_HEIGHT + 8);
            g.fillText(text, 6, Math.min(y, b.top() + b.height() - 6));
        }
        g.setStroke(grid);
        g.strokeLine(snap(l.labelWidth()), TimelineLayout.AXIS_HEIGHT, snap(l.labelWidth()), l.height());
    }

    private void grid(GraphicsContext g, TimelineLayout l) {
        g.setStroke(grid);
        g.setLineWidth(1);
        if (l.data().hasTimes()) {
            for (TimeAxis.Tick t : l.ticks()) {
                double x = snap(l.x(t.millis()));
                g.strokeLine(x, TimelineLayout.AXIS_HEIGHT, x, l.height());
            }
        }
        if (l.hasNoTimeColumn()) {
            g.setFill(UiPalette.fx(palette.unknown(), 0.12));
            g.fillRect(l.noTimeLeft(), TimelineLayout.AXIS_HEIGHT, l.noTimeWidth(), l.height());
            g.setStroke(muted);
            g.setLineDashes(4, 4);
            g.strokeLine(snap(l.noTimeLeft()), TimelineLayout.AXIS_HEIGHT, snap(l.noTimeLeft()), l.height());
            g.setLineDashes();
        }
    }

    private void axis(GraphicsContext g, TimelineLayout l) {
        g.setFill(background);
        g.fillRect(0, 0, l.width(), TimelineLayout.AXIS_HEIGHT);
        g.setStroke(muted);
        g.setLineWidth(1);
        g.strokeLine(0, snap(TimelineLayout.AXIS_HEIGHT), l.width(), snap(TimelineLayout.AXIS_HEIGHT));
        g.setFont(SMALL);
        g.setTextBaseline(VPos.CENTER);
        TimelineData d = l.data();
        if (d.hasTimes()) {
            g.setFill(muted);
            g.setTextAlign(TextAlignment.LEFT);
            g.fillText(TimeAxis.date(l.from()) + " (time as logged)", 6, TimelineLayout.AXIS_HEIGHT / 2);
            g.setTextAlign(TextAlignment.CENTER);
            g.setFill(label);
            for (TimeAxis.Tick t : l.ticks()) {
                double x = l.x(t.millis());
                g.strokeLine(snap(x), TimelineLayout.AXIS_HEIGHT - 5, snap(x), TimelineLayout.AXIS_HEIGHT);
                g.fillText(t.label(), x, TimelineLayout.AXIS_HEIGHT / 2 - 2);
            }
        }
        if (l.hasNoTimeColumn()) {
            g.setTextAlign(TextAlignment.CENTER);
            g.setFill(muted);
            g.fillText("no time", l.noTimeLeft() + l.noTimeWidth() / 2, TimelineLayout.AXIS_HEIGHT / 2 - 2);
        }
    }

    private void causeLines(GraphicsContext g, TimelineLayout l, IncidentEvent selected, IncidentEvent hovered) {
        Map<Integer, Integer> causeOf = l.data().incident().causeOf();
        boolean all = causeOf.size() <= MAX_LINES;
        Integer sel = selected == null ? null : selected.seq();
        Integer hov = hovered == null ? null : hovered.seq();
        for (Map.Entry<Integer, Integer> e : causeOf.entrySet()) {
            boolean mine = e.getKey().equals(sel) || e.getValue().equals(sel) || e.getKey().equals(hov) || e.getValue().equals(hov);
            if (!all && !mine) {
                continue;
            }
            TimelineLayout.Mark a = l.markOf(l.data().incident().event(e.getKey()));
            TimelineLayout.Mark b = l.markOf(l.data().incident().event(e.getValue()));
            if (a == null || b == null || !a.inView() && !b.inView()) {
                continue;
            }
            boolean partly = !a.inView() || !b.inView();
            if (partly) { // towards a mark outside the zoomed window: kept to the timed area, off the no-time column
                g.save();
                g.beginPath();
                g.rect(l.plotLeft() - 8, TimelineLayout.AXIS_HEIGHT, l.plotRight() - l.plotLeft() + 16, l.height());
                g.clip();
            }
            g.setStroke(mine ? UiPalette.fx(palette.selection(), 0.85) : UiPalette.fx(palette.labelMuted(), 0.3));
            g.setLineWidth(mine ? 1.6 : 1);
            g.strokeLine(a.x(), a.y(), b.x(), b.y());
            if (partly) {
                g.restore();
            }
        }
    }

    /** One event's mark at (x, y): cause a diamond, consequence a circle, context a small grey dot. */
    void mark(GraphicsContext g, IncidentEvent e, double x, double y) {
        Color fill = UiPalette.fx(palette.severity(e.severity()));
        g.setLineWidth(1);
        if (e.role() == Role.CAUSE) {
            double r = 6.5;
            double[] xs = {x, x + r, x, x - r};
            double[] ys = {y - r, y, y + r, y};
            g.setFill(fill);
            g.fillPolygon(xs, ys, 4);
            g.setStroke(label);
            g.strokePolygon(xs, ys, 4);
        } else if (e.role() == Role.CONSEQUENCE) {
            double r = 4.5;
            g.setFill(fill);
            g.fillOval(x - r, y - r, 2 * r, 2 * r);
            g.setStroke(UiPalette.fx(palette.label(), 0.5));
            g.strokeOval(x - r, y - r, 2 * r, 2 * r);
        } else {
            double r = 2.5;
            g.setFill(context);
            g.fillOval(x - r, y - r, 2 * r, 2 * r);
        }
    }

    private static void ring(GraphicsContext g, double x, double y, double r, Color c, double width) {
        g.setStroke(c);
        g.setLineWidth(width);
        g.strokeOval(x - r, y - r, 2 * r, 2 * r);
    }

    private void overflows(GraphicsContext g, TimelineLayout l) {
        g.setFont(SMALL);
        g.setFill(muted);
        g.setTextAlign(TextAlignment.LEFT);
        g.setTextBaseline(VPos.CENTER);
        for (TimelineLayout.Overflow o : l.overflows()) {
            g.fillText("+" + o.count(), o.x() + 8, o.y());
        }
    }

    /**
     * The root cause: a ring, and {@code root cause: <title>} on a badge in the row its lane keeps
     * above the marks ({@link TimelineLayout#LABEL_ROW}), on whichever side has room, so it hides no mark.
     */
    private void root(GraphicsContext g, TimelineLayout l) {
        TimelineLayout.Mark m = l.markOf(l.data().incident().rootCause());
        if (m == null || !m.inView()) {
            return;
        }
        ring(g, m.x(), m.y(), 12, danger, 2);
        double roomRight = l.width() - m.x() - 16;
        double roomLeft = m.x() - l.labelWidth() - 16;
        String text = fit("root cause: " + m.event().title(), BOLD, Math.max(80, Math.max(roomRight, roomLeft)));
        double tw = width(text, BOLD);
        double x = tw <= roomRight || roomRight >= roomLeft ? m.x() - 6 : m.x() + 6 - tw;
        double y = l.bands().get(m.lane()).top() + 3 + TimelineLayout.LABEL_ROW / 2;
        g.setFill(UiPalette.fx(palette.badge(), 0.95));
        g.fillRoundRect(x - 4, y - 8, tw + 8, 16, 6, 6);
        g.setStroke(danger);
        g.setLineWidth(1);
        g.strokeRoundRect(x - 4, y - 8, tw + 8, 16, 6, 6);
        g.setFill(danger);
        g.setFont(BOLD);
        g.setTextAlign(TextAlignment.LEFT);
        g.setTextBaseline(VPos.CENTER);
        g.fillText(text, x, y);
    }

    private static double width(String s, Font f) {
        Text t = new Text(s);
        t.setFont(f);
        return t.getLayoutBounds().getWidth();
    }

    /** The text cut with an ellipsis to fit {@code max} pixels. */
    static String fit(String s, Font f, double max) {
        if (width(s, f) <= max) {
            return s;
        }
        int lo = 0;
        int hi = s.length();
        while (lo < hi) {
            int mid = (lo + hi + 1) / 2;
            if (width(s.substring(0, mid) + "…", f) <= max) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return s.substring(0, lo) + "…";
    }
}
