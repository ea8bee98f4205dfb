package org.fabricscope.app.ui;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * The ticks of the timeline's clock axis: a round step (1, 2 or 5 of a unit, or a clock's 15 s,
 * 30 s, 15 min...) that leaves about {@link #TICK_SPACING} pixels between labels, and labels that
 * show as much of the time as the step needs. Times print in UTC, as the incident's stamps do
 * ({@code Stamp.clock()}: a stamp without a zone is the log's own clock). No toolkit.
 */
final class TimeAxis {
    /** About how far apart labels are, in pixels. */
    static final double TICK_SPACING = 90;
    private static final long S = 1000;
    private static final long M = 60 * S;
    private static final long H = 60 * M;
    private static final long D = 24 * H;
    private static final long[] STEPS = {1, 2, 5, 10, 20, 50, 100, 200, 500, S, 2 * S, 5 * S, 10 * S, 15 * S, 30 * S, M,
        2 * M, 5 * M, 10 * M, 15 * M, 30 * M, H, 2 * H, 3 * H, 6 * H, 12 * H, D, 2 * D, 7 * D, 14 * D, 30 * D, 90 * D, 365 * D};
    private static final DateTimeFormatter MS = fmt("HH:mm:ss.SSS");
    private static final DateTimeFormatter SECONDS = fmt("HH:mm:ss");
    private static final DateTimeFormatter MINUTES = fmt("HH:mm");
    private static final DateTimeFormatter DAYS = fmt("MM-dd HH:mm");
    private static final DateTimeFormatter DATE = fmt("yyyy-MM-dd");

    /** One tick: its time and label. */
    record Tick(long millis, String label) {
    }

    private TimeAxis() {
    }

    private static DateTimeFormatter fmt(String pattern) {
        return DateTimeFormatter.ofPattern(pattern).withZone(ZoneOffset.UTC);
    }

    /** The step for a window of {@code span} ms drawn over {@code pixels}. */
    static long step(long span, double pixels) {
        double wanted = span / Math.max(1, pixels / TICK_SPACING);
        for (long s : STEPS) {
            if (s >= wanted) {
                return s;
            }
        }
        return STEPS[STEPS.length - 1];
    }

    /** The ticks inside {@code [from, to]}, at multiples of the step (UTC), labelled. */
    static List<Tick> ticks(long from, long to, double pixels) {
        List<Tick> out = new ArrayList<>();
        if (to <= from) {
            return out;
        }
        long step = step(to - from, pixels);
        DateTimeFormatter f = format(step, to - from);
        long t = Math.floorDiv(from, step) * step;
        if (t < from) {
            t += step;
        }
        for (; t <= to && out.size() < 1000; t += step) {
            out.add(new Tick(t, f.format(Instant.ofEpochMilli(t))));
        }
        return out;
    }

    /** The format that tells neighbouring ticks of this step apart. */
    static DateTimeFormatter format(long step, long span) {
        if (step >= D) {
            return DATE;
        }
        if (span >= D) {
            return DAYS;
        }
        return step < S ? MS : step < M ? SECONDS : MINUTES;
    }

    /** The date of a time, for the axis' corner ({@code 2026-11-21}). */
    static String date(long millis) {
        return DATE.format(Instant.ofEpochMilli(millis));
    }
}
