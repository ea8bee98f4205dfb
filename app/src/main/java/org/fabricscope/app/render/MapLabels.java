package org.fabricscope.app.render;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.layout.MapLayout;
import org.fabricscope.model.layout.MapLayout.Group;
import org.fabricscope.model.layout.MapLayout.Level;

/**
 * The map's labels for one viewport, for the window and the picture export alike: the glyphs' names
 * when zoomed in ({@link #names}), and the overview's group labels, placed so that none overlaps another: boxes that
 * hold a problem first (in the problem's colour), then pods, then the rest from left to right; a
 * label that collides is tried one line further out and otherwise left out. Units and pods of the
 * host row are labelled under it, spine and core groups above theirs. Text widths are estimated
 * from the character count (11 px sans-serif), the same for the window and the picture export.
 */
public final class MapLabels {
    /** Height of a label line in pixels. */
    public static final double LINE = 14;
    private static final double CHAR_W = 6.6;

    /** A placed label: its text's centre x, baseline-centre y, box width, colour, and whether bold. */
    public record Label(String text, double x, double y, double width, int argb, boolean bold) {
    }

    private record Candidate(String text, double x, double y, double dy, int priority, int argb, boolean bold, boolean below) {
    }

    private MapLabels() {
    }

    /** Estimated pixel width of a label's text. */
    public static double width(String text, boolean bold) {
        return text.length() * (bold ? CHAR_W + 0.5 : CHAR_W) + 6;
    }

    /** From this scale on the map prints each switch's name; group labels give way to them. */
    public static final double NAMES_FROM_SCALE = 1.4;
    /** From this scale on the map prints each host glyph's name too (an HCA's device, a collapsed host's name). */
    public static final double HOST_NAMES_FROM_SCALE = 2.5;
    /** The most glyph names printed at once. */
    public static final int MAX_NAMES = 400;

    /** A glyph's name: its text centred at x, its line centred at y, squeezed into {@code maxWidth} when longer. */
    public record Name(String text, double x, double y, double maxWidth) {
    }

    /**
     * The glyph names the map prints in this viewport: switches from {@link #NAMES_FROM_SCALE}, host
     * glyphs from {@link #HOST_NAMES_FROM_SCALE}, under each glyph, those in view, at most {@link #MAX_NAMES}.
     */
    public static List<Name> names(MapLayout layout, Viewport v) {
        List<Name> out = new ArrayList<>();
        double s = v.scale();
        if (s < NAMES_FROM_SCALE) {
            return out;
        }
        for (MapLayout.Item it : layout.items()) {
            if (out.size() >= MAX_NAMES) {
                break;
            }
            boolean isSwitch = it.row() != MapLayout.Row.HOST;
            if (s < (isSwitch ? NAMES_FROM_SCALE : HOST_NAMES_FROM_SCALE)) {
                continue;
            }
            double sx = it.x() * s + v.tx();
            double sy = it.y() * s + v.ty();
            if (sx < -50 || sy < -20 || sx > v.width() + 50 || sy > v.height() + 20) {
                continue;
            }
            double room = Math.max(60, it.width() * s * 1.6);
            out.add(new Name(roomyName(it.vertex(), room), sx, sy + it.height() * s / 2 + 8, room));
        }
        return out;
    }

    /**
     * A row's name on the row's line (y), at x (its left end): the first place from the view's left edge where no glyph
     * of the row lies under it, searched over {@link #ROW_NAME_SEARCH} pixels. {@code onGlyphs}: no such place was found
     * and the name sits at the left edge over the row's glyphs, to be drawn on a band of the background.
     */
    public record RowName(String text, double x, double y, boolean onGlyphs) {
    }

    /** How far from the left edge a row's name may move to clear the row's glyphs, in pixels. */
    public static final double ROW_NAME_SEARCH = 320;
    private static final double ROW_NAME_LEFT = 6;

    /** The rows' names, for the rows whose line is in view, each clear of the row's glyphs where it can be. */
    public static List<RowName> rows(MapLayout layout, Viewport v) {
        List<RowName> out = new ArrayList<>();
        for (var e : layout.rowY().entrySet()) {
            double sy = e.getValue() * v.scale() + v.ty();
            if (sy > 0 && sy < v.height()) {
                String text = e.getKey().label();
                double x = clearOf(layout, e.getKey(), v, sy, width(text, true));
                out.add(new RowName(text, Double.isNaN(x) ? ROW_NAME_LEFT : x, sy, Double.isNaN(x)));
            }
        }
        return out;
    }

    /** The left end of the first stretch of {@code w} pixels on the line at {@code sy} that no glyph of the row covers. */
    private static double clearOf(MapLayout layout, MapLayout.Row row, Viewport v, double sy, double w) {
        double s = v.scale();
        double limit = ROW_NAME_LEFT + ROW_NAME_SEARCH;
        List<double[]> spans = new ArrayList<>();
        // only the stretch of the row that can reach the search window: the row's items are in order of x
        double widest = Math.max(1, layout.maxItemWidth() * s) / 2 + 3;
        List<MapLayout.Item> items = layout.rowItems(row);
        for (int i = layout.firstAtOrAfter(row, (ROW_NAME_LEFT - widest - v.tx()) / s); i < items.size(); i++) {
            MapLayout.Item it = items.get(i);
            if (it.x() * s + v.tx() - widest >= limit + w) {
                break;
            }
            double cy = it.y() * s + v.ty();
            double hh = Math.max(1, it.height() * s) / 2;
            if (cy + hh < sy - LINE / 2 || cy - hh > sy + LINE / 2) {
                continue;
            }
            double hw = Math.max(1, it.width() * s) / 2 + 3;
            double cx = it.x() * s + v.tx();
            if (cx + hw > ROW_NAME_LEFT && cx - hw < limit + w) {
                spans.add(new double[] {cx - hw, cx + hw});
            }
        }
        spans.sort(Comparator.comparingDouble(a -> a[0]));
        double x = ROW_NAME_LEFT;
        for (double[] sp : spans) {
            if (sp[0] >= x + w) {
                break;
            }
            x = Math.max(x, sp[1]);
        }
        return x <= limit && x + w <= v.width() ? x : Double.NaN;
    }

    /**
     * A glyph's rank range ({@code r8-15}) in the transport mode: a rounded badge of {@code width}
     * centred at x, y over the glyph, its text in {@code argb} (the ranks' transport, else the glyph's colour).
     */
    public record RankBadge(String text, double x, double y, double width, int argb) {
        /** Height of a badge in pixels. */
        public static final double HEIGHT = 14;
    }

    /** The rank badges over the glyphs in view that hold ranks (none outside the transport mode). */
    public static List<RankBadge> rankBadges(MapLayout layout, MapColouring c, Viewport v) {
        List<RankBadge> out = new ArrayList<>();
        if (c.ranks() == null || c.ranks().isEmpty()) {
            return out;
        }
        for (MapLayout.Item it : layout.items()) {
            String l = c.rankLabel(it.index());
            if (l == null) {
                continue;
            }
            double sx = it.x() * v.scale() + v.tx();
            double sy = (it.y() - it.height() / 2) * v.scale() + v.ty() - 8;
            if (sx < -40 || sx > v.width() + 40 || sy < -10 || sy > v.height() + 10) {
                continue;
            }
            var tr = c.itemRankTransport(it.index());
            out.add(new RankBadge(l, sx, sy, Math.max(22, l.length() * 6.2),
                    tr != null ? c.palette().transport(tr) : c.itemColour(it.index())));
        }
        return out;
    }

    /**
     * A glyph's name in {@code room} pixels: an HCA as {@code host mlx5_0} where that fits, so that
     * hosts are told apart without hovering, else its device alone ({@link #shortName}).
     */
    static String roomyName(Vertex v, double room) {
        String device = shortName(v);
        if (v instanceof FabricNode n && !n.isSwitch() && n.host() != null && !device.startsWith(n.host().name())) {
            String full = n.host().name() + " " + device;
            return width(full, false) <= room ? full : device;
        }
        return device;
    }

    /** The name a glyph carries: an HCA its device ({@code mlx5_0}, the host is the row's context), else its display name. */
    public static String shortName(Vertex v) {
        if (v instanceof FabricNode n && !n.isSwitch() && n.host() != null) {
            String d = n.description().strip();
            int sp = d.lastIndexOf(' ');
            return sp > 0 ? d.substring(sp + 1) : d;
        }
        return v.displayName();
    }

    /**
     * The group labels at this transform, none overlapping: in the overview and the cross-fade, and
     * at full detail until the switches' own names are printed.
     */
    public static List<Label> place(MapOverview o, int w, int h, double s, double tx, double ty) {
        if (o.detail(s) >= 1 && s >= NAMES_FROM_SCALE) {
            return List.of();
        }
        MapPalette p = o.colouring().palette();
        Level level = o.level(s);
        List<Candidate> cands = new ArrayList<>();
        add(o, level, w, h, s, tx, ty, p, cands, 0);
        if (level == Level.UNIT && o.hasPods()) {
            add(o, Level.POD, w, h, s, tx, ty, p, cands, 1);
        }
        cands.sort(Comparator.comparingInt(Candidate::priority).thenComparingDouble(Candidate::x));
        List<Label> placed = new ArrayList<>();
        List<double[]> taken = new ArrayList<>();
        java.util.Set<String> below = new java.util.HashSet<>();
        for (Candidate c : cands) {
            if (c.below()) {
                below.add(c.text());
            }
        }
        for (Candidate c : cands) {
            if (!c.below() && below.contains(c.text())) {
                continue; // a pod's spines: its name is under the map already
            }
            double lw = width(c.text(), c.bold());
            double cx = Math.max(lw / 2 + 1, Math.min(w - lw / 2 - 1, c.x())); // kept inside the view
            for (int attempt = 0; attempt < 4; attempt++) {
                double cy = c.y() + attempt * c.dy();
                double[] r = {cx - lw / 2, cy - LINE / 2, lw, LINE};
                if (r[0] < 0 || r[1] < 0 || r[0] + r[2] > w || r[1] + r[3] > h) {
                    continue;
                }
                if (taken.stream().noneMatch(t -> overlaps(t, r))) {
                    taken.add(r);
                    placed.add(new Label(c.text(), cx, cy, lw, c.argb(), c.bold()));
                    break;
                }
            }
        }
        return placed;
    }

    /**
     * Candidates for the boxes of a level: host-row boxes under the map, spine and core boxes above
     * theirs; {@code line}: 1 puts pods a line below the units.
     */
    private static void add(MapOverview o, Level level, int w, int h, double s, double tx, double ty, MapPalette p,
                            List<Candidate> out, int line) {
        // a group is as bad as its worst box in any row (a leaf-spine cable makes its pod's host-row label red too)
        java.util.Map<String, Integer> worst = new java.util.HashMap<>();
        for (Group g : o.layout().groups(level)) {
            if (g.row() != MapLayout.Row.OTHER) {
                worst.merge(g.label(), o.groupProblem(level, g.index()), Math::max);
            }
        }
        for (Group g : o.layout().groups(level)) {
            boolean below = g.row() == MapLayout.Row.HOST;
            boolean above = line == 0 && (g.row() == MapLayout.Row.SPINE || g.row() == MapLayout.Row.CORE);
            if (!below && !above || g.label().equals(g.row().label())) {
                continue; // a row's switches with no group: the row's name is printed on the left already
            }
            int problem = worst.get(g.label());
            double[] b = MapRasterizer.box(g, s, tx, ty);
            double y = below ? b[1] + b[3] + 4 + LINE / 2 + line * LINE : b[1] - 4 - LINE / 2;
            int priority = problem == MapColouring.ERROR ? 0 : problem > 0 ? 1 : line == 1 ? 2 : 3;
            int argb = problem == MapColouring.ERROR ? p.danger() : problem > 0 ? p.warning() : line == 1 ? p.label() : p.labelMuted();
            // centred on the part of the box in view; a box out of view gets no label
            double x0 = Math.max(0, b[0]);
            double x1 = Math.min(w, b[0] + b[2]);
            if (x1 <= x0) {
                continue;
            }
            double dy = below ? LINE : -LINE;
            // a row out of view keeps its labels at the view's edge, so a zoomed-in view still says where it is
            if (below && y + LINE / 2 > h) {
                y = h - LINE / 2 - 2 - line * LINE;
                dy = -LINE;
            } else if (!below && y - LINE / 2 < 0) {
                y = LINE / 2 + 2;
                dy = LINE;
            }
            if (!below && b[1] > h || below && b[1] + b[3] < 0) {
                continue; // the row itself is off the other edge
            }
            out.add(new Candidate(g.label(), (x0 + x1) / 2, y, dy, priority, argb, problem > 0 || line == 1, below));
        }
    }

    private static boolean overlaps(double[] a, double[] b) {
        return a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];
    }
}
