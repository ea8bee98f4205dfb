package org.fabricscope.model.fabric;

import java.time.Duration;
import java.util.List;

/**
 * How fast one counter of a port grew between its first and last timed samples: the increase
 * (a counter that went backwards was reset, and counts from 0 again from there), the time between,
 * and the increase per hour. Only made from two or more samples with times and some time between them.
 */
public record CounterRate(String counter, long increase, Duration over, int samples) {
    /** The increase per hour. */
    public double perHour() {
        return increase * 3_600_000.0 / Math.max(1, over.toMillis());
    }

    /** The rate of {@code counter} over {@code samples} (in time order), or null with fewer than two timed samples of it. */
    public static CounterRate of(String counter, List<CounterSample> samples) {
        CounterSample first = null;
        CounterSample last = null;
        Long previous = null;
        long increase = 0;
        int n = 0;
        for (CounterSample s : samples) {
            Long v = s.counters().get(counter);
            if (s.time() == null || v == null) {
                continue;
            }
            if (previous != null) {
                // 64-bit unsigned; a value below the one before means the counter was cleared (perfquery -R)
                increase += Long.compareUnsigned(v, previous) >= 0 ? v - previous : v;
            }
            previous = v;
            first = first == null ? s : first;
            last = s;
            n++;
        }
        if (n < 2 || !last.time().isAfter(first.time())) {
            return null;
        }
        return new CounterRate(counter, increase, Duration.between(first.time(), last.time()), n);
    }
}
