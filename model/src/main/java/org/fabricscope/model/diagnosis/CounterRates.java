package org.fabricscope.model.diagnosis;

import java.util.Locale;

import org.fabricscope.model.core.Severity;
import org.fabricscope.model.fabric.CounterRate;
import org.fabricscope.model.fabric.Port;

/**
 * Port counters judged as a series (decision 0013). With two or more timed samples of a counter, its
 * growth per hour is judged against the same number as its count ({@link ErrorThresholds}: 10 symbol
 * errors, 10 link error recoveries, 10 link downs, 10 receive errors, 100 transmit discards, 1000
 * PortXmitWait, ... read as "per hour"): a link
 * that took 500 symbol errors last month and none since is quiet, one that gains 11 an hour is not.
 * With one sample, or samples without times, the count is judged as always.
 */
public final class CounterRates {
    private CounterRates() {
    }

    /** The severity of one counter of a port: by its rate per hour when it has one, else by its value. */
    public static Severity judge(Port p, String counter, long value, ErrorThresholds t) {
        CounterRate r = p.counterRate(counter);
        if (r == null) {
            return t.judge(counter, value);
        }
        double perHour = Math.ceil(r.perHour());
        // a rate past 2^63 an hour is over every threshold: judged as the largest long, shown as computed
        return t.judge(counter, perHour >= 0x1p63 ? Long.MAX_VALUE : (long) perHour);
    }

    /**
     * {@code SymbolErrorCounter=12 (threshold 10)}, or for a series
     * {@code SymbolErrorCounter +42 in 1.5 h = 28/h (threshold 10/h; 3 samples, now 1042)}.
     */
    public static String describe(Port p, String counter, long value, ErrorThresholds t) {
        CounterRate r = p.counterRate(counter);
        if (r == null) {
            return counter + "=" + Long.toUnsignedString(value) + " (threshold " + t.limit(counter) + ")";
        }
        return String.format(Locale.ROOT, "%s +%s in %s = %s/h (threshold %d/h; %d samples, now %s)", counter,
                Long.toUnsignedString(r.increase()), hours(r.over().toMillis()), number(r.perHour()), t.limit(counter),
                r.samples(), Long.toUnsignedString(value));
    }

    private static String hours(long millis) {
        double h = millis / 3_600_000.0;
        if (millis < 60_000) { // a watch polled every few seconds
            return String.format(Locale.ROOT, "%.0f s", millis / 1000.0);
        }
        return h >= 1 ? String.format(Locale.ROOT, "%.1f h", h) : String.format(Locale.ROOT, "%.0f min", millis / 60_000.0);
    }

    private static String number(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }
}
