package org.fabricscope.app.ui;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.fabricscope.model.fabric.Port;

/**
 * A port's counters over time as text sparklines for the inspector's cable text ({@code SymbolErrorCounter
 * ▁▁▂▄▆█ +150 in 1.0 h}): one line per error counter that rose over its samples (the series of
 * {@link PortTrend#all}, whose growth counts a counter cleared mid-way from 0 again), {@link #COLUMNS} columns
 * over that time, each the counter's value at the column's end (the last sample at or before it). The port
 * table draws the same series as a line ({@link Sparkline}). Ports read once (every file format) have none.
 */
public final class CounterSparkline {
    /** Columns of a sparkline. */
    public static final int COLUMNS = 24;
    private static final char[] BARS = {'▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'};

    private CounterSparkline() {
    }

    /** The lines for {@code p}, empty without two timed samples or without a counter that rose ({@link PortTrend#all}). */
    public static List<String> lines(Port p) {
        List<String> out = new ArrayList<>();
        for (PortTrend t : PortTrend.all(p)) {
            long rise = t.increase();
            long first = t.times().get(0).toEpochMilli();
            long span = t.times().get(t.times().size() - 1).toEpochMilli() - first;
            if (rise == 0 || span <= 0) {
                continue;
            }
            long[] col = new long[COLUMNS];
            int i = 0;
            long value = t.values().get(0);
            long lo = value;
            long hi = value;
            for (int c = 0; c < COLUMNS; c++) {
                long end = first + span * (c + 1) / COLUMNS;
                while (i < t.times().size() && t.times().get(i).toEpochMilli() <= end) {
                    value = t.values().get(i++);
                }
                col[c] = value;
                lo = Long.compareUnsigned(value, lo) < 0 ? value : lo;
                hi = Long.compareUnsigned(value, hi) > 0 ? value : hi;
            }
            out.add(String.format(Locale.ROOT, "%s %s +%s in %s", t.counter(), bars(col, lo, hi),
                    Long.toUnsignedString(rise), hours(span)));
        }
        return out;
    }

    private static String bars(long[] col, long lo, long hi) {
        StringBuilder b = new StringBuilder(col.length);
        double range = Math.max(1, (double) (hi - lo));
        for (long v : col) {
            int k = (int) Math.round((Math.max(lo, Math.min(hi, v)) - lo) / range * (BARS.length - 1));
            b.append(BARS[k]);
        }
        return b.toString();
    }

    private static String hours(long millis) {
        double h = millis / 3_600_000.0;
        return h >= 1 ? String.format(Locale.ROOT, "%.1f h", h) : String.format(Locale.ROOT, "%.0f min", millis / 60_000.0);
    }
}
