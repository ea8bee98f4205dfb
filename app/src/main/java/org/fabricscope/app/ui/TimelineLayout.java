package org.fabricscope.app.ui;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.incident.reasoning.IncidentEvent;

/**
 * Where the timeline draws what, for one size, time window and scroll: the lane label column on the
 * left, the clock axis on top, the timed area (the window {@code [from, to]} scaled to its width) and,
 * when some events carry no time, the "no time" column at the right with those events in order. Marks
 * that would overlap in a lane (the same instant, or closer than a mark's width) are stacked in slots;
 * past {@link #MAX_SLOTS} the rest share the last slot and are counted. Pure geometry, no toolkit:
 * the chart paints it and picks from it.
 */
final class TimelineLayout {
    static final double AXIS_HEIGHT = 30;
    static final double LANE_PAD = 8;
    static final double SLOT = 13;
    static final int MAX_SLOTS = 6;
    /** Marks closer than this (px) in a lane are stacked. */
    static final double MARK_WIDTH = 11;
    static final double NO_TIME_WIDTH = 86;
    static final double RIGHT_PAD = 14;
    /** The row above the root cause's lane's marks that holds its label. */
    static final double LABEL_ROW = 18;
    /** How close (px) a pointer must be to a mark to pick it. */
    static final double PICK_RADIUS = 8;

    /** One event's mark. {@code inView}: inside the timed window (always, for the no-time column). */
    record Mark(IncidentEvent event, double x, double y, int lane, boolean inView) {
    }

    /** A lane's band: its index, top and height. */
    record Band(int lane, double top, double height) {
    }

    /** Marks hidden under a stack's last slot: where to print {@code +count}. */
    record Overflow(double x, double y, int count) {
    }

    private final TimelineData data;
    private final double width;
    private final double height;
    private final long from;
    private final long to;
    private final double labelWidth;
    private final double plotLeft;
    private final double plotRight;
    private final double noTimeLeft;
    private final double noTimeWidth;
    private final List<Mark> marks = new ArrayList<>();
    private final Map<Integer, Mark> bySeq = new HashMap<>();
    private final List<Band> bands = new ArrayList<>();
    private final List<Overflow> overflows = new ArrayList<>();
    private final double contentHeight;

    TimelineLayout(TimelineData data, double width, double height, long from, long to, double scrollY) {
        this.data = data;
        this.width = width;
        this.height = height;
        this.from = from;
        this.to = Math.max(from + 1, to);
        this.labelWidth = Math.max(110, Math.min(240, width * 0.3));
        boolean noTime = !data.untimed().isEmpty();
        this.plotLeft = labelWidth + 12;
        // without any time the "no time" column takes the whole width
        this.noTimeWidth = !noTime ? 0 : data.hasTimes() ? NO_TIME_WIDTH : Math.max(NO_TIME_WIDTH, width - RIGHT_PAD - plotLeft);
        this.noTimeLeft = width - RIGHT_PAD - noTimeWidth;
        this.plotRight = data.hasTimes() ? Math.max(plotLeft + 40, noTime ? noTimeLeft - 16 : width - RIGHT_PAD) : plotLeft;
        double top = AXIS_HEIGHT - scrollY;
        Map<Integer, Integer> untimedIndex = new HashMap<>();
        for (IncidentEvent e : data.untimed()) {
            untimedIndex.put(e.seq(), untimedIndex.size());
        }
        double total = 0;
        int rootLane = data.laneOf(data.incident().rootCause());
        for (int lane = 0; lane < data.lanes().size(); lane++) {
            double labelRow = lane == rootLane ? LABEL_ROW : 0;
            List<Mark> placed = new ArrayList<>();
            for (IncidentEvent e : data.lanes().get(lane).events()) {
                double x = e.stamp().known() ? x(e.stamp().millis()) : untimedX(untimedIndex.get(e.seq()));
                boolean inView = !e.stamp().known() || x >= plotLeft - 0.5 && x <= plotRight + 0.5;
                placed.add(new Mark(e, x, 0, lane, inView));
            }
            int slots = stack(placed, lane, top + labelRow);
            double h = 2 * LANE_PAD + Math.max(1, slots) * SLOT + labelRow;
            bands.add(new Band(lane, top, h));
            top += h;
            total += h;
        }
        this.contentHeight = AXIS_HEIGHT + total;
    }

    /** The window that shows every timed event with a margin; a second either side when they share one instant. */
    static long[] fullWindow(TimelineData d) {
        if (!d.hasTimes()) {
            return new long[] {0, 1};
        }
        long span = d.last() - d.first();
        long pad = span == 0 ? 1000 : Math.max(1, span / 25);
        return new long[] {d.first() - pad, d.last() + pad};
    }

    /** Stacks a lane's marks (in x order) into slots; returns the slots the lane needs. */
    private int stack(List<Mark> placed, int lane, double top) {
        placed.sort(Comparator.comparingDouble(Mark::x));
        int most = 0;
        int inBucket = 0;
        double bucketX = Double.NEGATIVE_INFINITY;
        int hidden = 0;
        Mark lastShown = null;
        for (Mark m : placed) {
            if (!m.inView()) {
                Mark off = new Mark(m.event(), m.x(), top + LANE_PAD + SLOT / 2, lane, false);
                add(off);
                continue;
            }
            if (m.x() - bucketX > MARK_WIDTH) {
                if (hidden > 0) {
                    overflows.add(new Overflow(lastShown.x(), lastShown.y(), hidden));
                }
                bucketX = m.x();
                inBucket = 0;
                hidden = 0;
            }
            int slot = Math.min(inBucket, MAX_SLOTS - 1);
            if (inBucket >= MAX_SLOTS) {
                hidden++;
            }
            inBucket++;
            most = Math.max(most, Math.min(inBucket, MAX_SLOTS));
            Mark at = new Mark(m.event(), m.x(), top + LANE_PAD + SLOT / 2 + slot * SLOT, lane, true);
            add(at);
            lastShown = at;
        }
        if (hidden > 0) {
            overflows.add(new Overflow(lastShown.x(), lastShown.y(), hidden));
        }
        return most;
    }

    private void add(Mark m) {
        marks.add(m);
        bySeq.put(m.event().seq(), m);
    }

    /** The x of a time in the window. */
    double x(long millis) {
        return plotLeft + (plotRight - plotLeft) * (millis - from) / (double) (to - from);
    }

    /** The time at an x of the timed area. */
    long time(double x) {
        return from + Math.round((x - plotLeft) / Math.max(1, plotRight - plotLeft) * (to - from));
    }

    private double untimedX(int index) {
        int n = data.untimed().size();
        double inner = noTimeWidth - 16;
        return noTimeLeft + 8 + (n == 1 ? inner / 2 : inner * index / (n - 1));
    }

    /** The mark nearest to a point within {@link #PICK_RADIUS}, or null; marks under the axis or outside the window are not picked. */
    Mark pick(double px, double py) {
        if (py < AXIS_HEIGHT) {
            return null;
        }
        Mark best = null;
        double bestD = PICK_RADIUS * PICK_RADIUS;
        for (Mark m : marks) {
            if (!m.inView()) {
                continue;
            }
            double dx = m.x() - px;
            double dy = m.y() - py;
            double d = dx * dx + dy * dy;
            if (d <= bestD) {
                best = m;
                bestD = d;
            }
        }
        return best;
    }

    /** The mark of an event, or null. */
    Mark markOf(IncidentEvent e) {
        return e == null ? null : bySeq.get(e.seq());
    }

    List<TimeAxis.Tick> ticks() {
        return TimeAxis.ticks(from, to, plotRight - plotLeft);
    }

    TimelineData data() {
        return data;
    }

    List<Mark> marks() {
        return marks;
    }

    List<Band> bands() {
        return bands;
    }

    List<Overflow> overflows() {
        return overflows;
    }

    double width() {
        return width;
    }

    double height() {
        return height;
    }

    double labelWidth() {
        return labelWidth;
    }

    double plotLeft() {
        return plotLeft;
    }

    double plotRight() {
        return plotRight;
    }

    /** The left edge of the "no time" column (the right margin when there is none). */
    double noTimeLeft() {
        return noTimeLeft;
    }

    double noTimeWidth() {
        return noTimeWidth;
    }

    boolean hasNoTimeColumn() {
        return !data.untimed().isEmpty();
    }

    long from() {
        return from;
    }

    long to() {
        return to;
    }

    /** The height of the axis and every lane, for the vertical scroll bar. */
    double contentHeight() {
        return contentHeight;
    }
}
