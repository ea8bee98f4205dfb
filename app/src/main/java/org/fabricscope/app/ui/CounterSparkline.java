package org.fabricscope.app.ui;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.fabricscope.model.fabric.CounterSample;
import org.fabricscope.model.fabric.Port;

/**
 * A port's counters over time as text sparklines for the inspector ({@code SymbolErrorCounter ▁▁▂▄▆█ +150 in
 * 1.0 h}): one line per counter that rose between the first and last timed sample, {@link #COLUMNS} columns
 * over that time, each the counter's value at the column's end (the last sample at or before it). Ports read
 * once (every file format) have none.
 */
public final class CounterSparkline {
    /** Columns of a sparkline. */
    public static final int COLUMNS = 24;
    private static final char[] BARS = {'▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'};

    private CounterSparkline() {
    }

    /** The lines for {@code p}, empty without two timed samples or without a counter that rose. */
    public static List<String> lines(Port p) {
        List<CounterSample> timed = p.counterSamples().stream().filter(s -> s.time() != null).toList();
        List<String> out = new ArrayList<>();
        if (timed.size() < 2) {
            return out;
        }
        Instant first = timed.get(0).time();
        Instant last = timed.get(timed.size() - 1).time();
        long span = last.toEpochMilli() - first.toEpochMilli();
        if (span <= 0) {
            return out;
        }
        for (String counter : p.counters().keySet()) {
            Long v0 = timed.get(0).counters().get(counter);
            Long v1 = timed.get(timed.size() - 1).counters().get(counter);
            if (v0 == null || v1 == null || Long.compareUnsigned(v1, v0) <= 0) {
                continue;
            }
            long[] col = new long[COLUMNS];
            int i = 0;
            long value = v0;
            for (int c = 0; c < COLUMNS; c++) {
                long end = first.toEpochMilli() + span * (c + 1) / COLUMNS;
                while (i < timed.size() && timed.get(i).time().toEpochMilli() <= end) {
                    Long v = timed.get(i).counters().get(counter);
                    value = v == null ? value : v;
                    i++;
                }
                col[c] = value;
            }
            out.add(String.format(Locale.ROOT, "%s %s +%s in %s", counter, bars(col, v0, v1),
                    Long.toUnsignedString(v1 - v0), hours(span)));
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
