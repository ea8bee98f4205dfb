package org.fabricscope.app.render;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.PairKey;
import org.fabricscope.model.layout.MapLayout;
import org.fabricscope.model.layout.MapLayout.Group;
import org.fabricscope.model.layout.MapLayout.Level;

/**
 * The map's structure for the zoomed-out view (semantic zoom): the group boxes of a level
 * ({@link MapLayout#groups(Level)}), one bundle per pair of boxes that cables join (its size the
 * number of cables, its colour the colour of its worst member) and how bad the worst problem in
 * each box is. Which level and how much detail a scale shows is decided here too, so the window and
 * the picture export agree. Built lazily, once per level, from a layout and its colouring; safe to
 * share between threads. No JavaFX.
 */
public final class MapOverview {
    /** Below this many pixels a glyph is a speck: the overview is drawn alone. */
    static final double OVERVIEW_GLYPH_PX = 2.5;
    /** From this many pixels on a glyph reads: full detail alone; in between the two cross-fade. */
    static final double DETAIL_GLYPH_PX = 6;
    /** Unit boxes narrower than this on screen are too small to read: the pods are shown instead. */
    static final double MIN_UNIT_PX = 36;

    /** Cables between two boxes, drawn once. {@code problem}: the worst member's level (MapColouring). */
    public record Bundle(Group a, Group b, int cables, int argb, int problem) {
        /** The pixel width of the bundle: one for a single cable, growing with the log of the count, at most 12. */
        public int thickness() {
            return (int) Math.max(1, Math.min(12, Math.round(1 + 0.9 * Math.log(cables) / Math.log(2))));
        }
    }

    private final MapLayout layout;
    private final MapColouring colouring;
    private final Map<Level, List<Bundle>> bundles = new EnumMap<>(Level.class);
    private final Map<Level, int[]> groupProblem = new EnumMap<>(Level.class);
    private final double glyphWidth;
    private final boolean pods;

    public MapOverview(MapLayout layout, MapColouring colouring) {
        this.layout = layout;
        this.colouring = colouring;
        double gw = Double.MAX_VALUE;
        for (MapLayout.Item it : layout.items()) {
            gw = Math.min(gw, it.width());
        }
        glyphWidth = gw == Double.MAX_VALUE ? 1 : gw;
        pods = !sameBoxes(layout.groups(Level.UNIT), layout.groups(Level.POD));
    }

    public MapLayout layout() {
        return layout;
    }

    public MapColouring colouring() {
        return colouring;
    }

    /** Whether pods differ from units (so both can be labelled). */
    public boolean hasPods() {
        return pods;
    }

    /**
     * How much of full detail a scale shows: 0 the overview alone, 1 every cable and glyph, in
     * between a cross-fade. Decided by the pixel width of the smallest glyph.
     */
    public double detail(double scale) {
        double px = glyphWidth * scale;
        if (px <= OVERVIEW_GLYPH_PX) {
            return 0;
        }
        if (px >= DETAIL_GLYPH_PX) {
            return 1;
        }
        double t = (px - OVERVIEW_GLYPH_PX) / (DETAIL_GLYPH_PX - OVERVIEW_GLYPH_PX);
        return t * t * (3 - 2 * t); // smoothstep: no jump at either end
    }

    /** The boxes to show at this scale: units when they are wide enough to read, else pods. */
    public Level level(double scale) {
        List<Group> units = layout.groups(Level.UNIT);
        double sum = 0;
        int n = 0;
        for (Group g : units) {
            if (g.row() == MapLayout.Row.LEAF) {
                sum += g.maxX() - g.minX();
                n++;
            }
        }
        return n == 0 || sum / n * scale >= MIN_UNIT_PX ? Level.UNIT : Level.POD;
    }

    /** The worst problem (MapColouring's levels) among the cables and glyphs of box {@code g} of a level. */
    public synchronized int groupProblem(Level level, int g) {
        compute(level);
        return groupProblem.get(level)[g];
    }

    /** One bundle per pair of boxes joined by cables, the worst last (so they are drawn on top). */
    public synchronized List<Bundle> bundles(Level level) {
        compute(level);
        return bundles.get(level);
    }

    private void compute(Level level) {
        if (bundles.containsKey(level)) {
            return;
        }
        List<Group> groups = layout.groups(level);
        int[] problem = new int[groups.size()];
        Map<Long, int[]> acc = new HashMap<>(); // count, worst problem, worst link, then colour histogram by first link
        Map<Long, Map<Integer, Integer>> colours = new HashMap<>();
        List<MapLayout.Link> links = layout.links();
        for (int i = 0; i < links.size(); i++) {
            MapLayout.Link k = links.get(i);
            int ga = layout.groupOf(level, k.a().index());
            int gb = layout.groupOf(level, k.b().index());
            int p = colouring.linkProblem(i);
            if (p > 0) {
                problem[ga] = Math.max(problem[ga], p);
                problem[gb] = Math.max(problem[gb], p);
            }
            if (ga == gb) {
                continue;
            }
            long key = PairKey.unordered(ga, gb);
            int[] a = acc.get(key);
            if (a == null) {
                a = new int[] {0, -1, i};
                acc.put(key, a);
            }
            a[0] += k.cables().size();
            if (p > a[1]) {
                a[1] = p;
                a[2] = i;
            }
            if (p == 0) {
                colours.computeIfAbsent(key, x -> new HashMap<>()).merge(colouring.linkColour(i), k.cables().size(), Integer::sum);
            }
        }
        for (MapLayout.Item it : layout.items()) {
            int p = colouring.itemProblem(it.index());
            int g = layout.groupOf(level, it.index());
            problem[g] = Math.max(problem[g], p);
        }
        List<Bundle> out = new ArrayList<>(acc.size());
        for (var e : acc.entrySet()) {
            int[] a = e.getValue();
            int colour;
            if (a[1] > 0) {
                colour = colouring.linkColour(a[2]);
            } else {
                // no problem in it: the colour most of its cables have
                colour = colouring.linkColour(a[2]);
                int best = -1;
                for (var c : colours.getOrDefault(e.getKey(), Map.of()).entrySet()) {
                    if (c.getValue() > best || (c.getValue() == best && c.getKey() < colour)) {
                        best = c.getValue();
                        colour = c.getKey();
                    }
                }
            }
            Group ga = groups.get(PairKey.first(e.getKey()));
            Group gb = groups.get(PairKey.second(e.getKey()));
            out.add(new Bundle(ga, gb, a[0], colour, Math.max(0, a[1])));
        }
        out.sort((x, y) -> x.problem() != y.problem() ? Integer.compare(x.problem(), y.problem())
                : x.a().index() != y.a().index() ? Integer.compare(x.a().index(), y.a().index())
                : Integer.compare(x.b().index(), y.b().index()));
        bundles.put(level, List.copyOf(out));
        groupProblem.put(level, problem);
    }

    /**
     * Where a bundle meets a box: on the edge that faces the other box, at the other box's centre
     * clamped into this box, so bundles run nearly vertically and fan out along wide boxes.
     */
    public static double[] ends(Bundle b) {
        Group top = b.a().minY() <= b.b().minY() ? b.a() : b.b();
        Group bottom = top == b.a() ? b.b() : b.a();
        double tx = clamp(bottom.centreX(), top.minX(), top.maxX());
        double bx = clamp(top.centreX(), bottom.minX(), bottom.maxX());
        return new double[] {tx, top.maxY(), bx, bottom.minY()};
    }

    private static double clamp(double v, double lo, double hi) {
        return Math.max(lo, Math.min(hi, v));
    }

    private static boolean sameBoxes(List<Group> a, List<Group> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i).minX() != b.get(i).minX() || a.get(i).maxX() != b.get(i).maxX() || a.get(i).row() != b.get(i).row()) {
                return false;
            }
        }
        return true;
    }
}
