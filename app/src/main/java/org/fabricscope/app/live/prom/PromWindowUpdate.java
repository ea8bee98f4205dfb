package org.fabricscope.app.live.prom;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A window that ends now, read again: only the steps past the last read are asked for, and the samples
 * read before are kept while they are inside the window. A refresh of an hour's window at a 15 s step then
 * asks the server for the one or two new steps of each series instead of all 240 of them again.
 *
 * <p>The new steps lie on the previous read's grid ({@code previous.start + k * step}), so a series'
 * samples stay evenly spaced across reads. A whole read is made instead when nothing can be kept: the first
 * read, a window at a fixed time, another step, a previous read that is older than the window, or one in
 * which a kind of series failed (its series would be missing from what is kept).
 */
final class PromWindowUpdate {
    private PromWindowUpdate() {
    }

    /**
     * The first instant to ask for when the window {@code [start, end]} at {@code step} follows
     * {@code previous}, or null when the window must be read whole.
     */
    static Instant resumeAt(PromSnapshot previous, Instant start, Instant end, Duration step) {
        if (previous == null || !previous.failures().isEmpty() || !previous.step().equals(step)
                || !previous.end().isAfter(start) || previous.end().isAfter(end)) {
            return null;
        }
        long stepMs = step.toMillis();
        long done = Duration.between(previous.start(), previous.end()).toMillis() / stepMs; // last step read
        return previous.start().plusMillis((done + 1) * stepMs);
    }

    /**
     * The series of each kind: those of {@code previous} without their samples before {@code start}, each
     * followed by the samples of the same series (same labels) in {@code fresh}; series only in
     * {@code fresh} after them. A series left with no sample in the window is dropped.
     */
    static Map<String, List<PromSeries>> merge(PromSnapshot previous, Map<String, List<PromSeries>> fresh, Instant start) {
        long from = start.toEpochMilli();
        Map<String, List<PromSeries>> out = new LinkedHashMap<>();
        for (String kind : PromRead.KINDS) {
            Map<Map<String, String>, PromSeries> added = new LinkedHashMap<>();
            for (PromSeries s : fresh.getOrDefault(kind, List.of())) {
                added.put(s.labels(), s);
            }
            List<PromSeries> merged = new ArrayList<>();
            for (PromSeries old : previous.of(kind)) {
                PromSeries joined = join(old, added.remove(old.labels()), from);
                if (joined.size() > 0) {
                    merged.add(joined);
                }
            }
            merged.addAll(added.values());
            out.put(kind, merged);
        }
        return out;
    }

    /** {@code old}'s samples from {@code from} on, then {@code later}'s past the last of them; capped as a reply is. */
    private static PromSeries join(PromSeries old, PromSeries later, long from) {
        int keepFrom = 0;
        while (keepFrom < old.size() && old.millis()[keepFrom] < from) {
            keepFrom++;
        }
        long last = old.size() > keepFrom ? old.millis()[old.size() - 1] : Long.MIN_VALUE;
        int laterFrom = 0;
        int laterSize = later == null ? 0 : later.size();
        while (laterFrom < laterSize && later.millis()[laterFrom] <= last) {
            laterFrom++; // a step the server answered twice: the first reading stands
        }
        int n = old.size() - keepFrom + laterSize - laterFrom;
        int skip = Math.max(0, n - PromLimits.MAX_POINTS); // the oldest go first, as the window moves
        long[] millis = new long[n - skip];
        double[] values = new double[n - skip];
        int w = 0;
        for (int i = keepFrom; i < old.size(); i++, skip--) {
            if (skip <= 0) {
                millis[w] = old.millis()[i];
                values[w++] = old.values()[i];
            }
        }
        for (int i = laterFrom; i < laterSize; i++, skip--) {
            if (skip <= 0) {
                millis[w] = later.millis()[i];
                values[w++] = later.values()[i];
            }
        }
        return new PromSeries(old.labels(), Arrays.copyOf(millis, w), Arrays.copyOf(values, w));
    }
}
