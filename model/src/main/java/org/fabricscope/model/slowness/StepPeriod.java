package org.fabricscope.model.slowness;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.IntToDoubleFunction;

/**
 * How long a training step is, from the collectives alone: a step repeats the same collectives (DDP's
 * gradient buckets, FSDP's all-gathers and reduce-scatters), so the sequence of collective names and
 * input shapes has a period, the number of collectives per step; a step's length is the median time from
 * one collective to the same one a period later.
 *
 * <p>When every collective looks the same (period 1) while their spacing has two scales (several buckets
 * close together, then the gap to the next step), a step is counted from one wide gap to the next: a
 * gap is wide when it is at least {@link #WIDE} of the 95th-percentile gap.
 *
 * @param ms      median step length in milliseconds, NaN when there is no pattern to read
 * @param perStep collectives per step, 0 when unknown
 */
record StepPeriod(double ms, int perStep) {
    /** Share of the 95th-percentile gap from which a gap separates two steps. */
    static final double WIDE = 0.5;
    /** Share of the compared pairs whose signatures must repeat at the period. */
    static final double REPEATS = 0.9;

    static final StepPeriod UNKNOWN = new StepPeriod(Double.NaN, 0);

    /**
     * @param valid     sequence indexes, ascending
     * @param signature each index's name and shapes
     * @param time      an index's time in nanoseconds (the ranks' median)
     */
    static StepPeriod of(int[] valid, Object[] signature, IntToDoubleFunction time) {
        int n = valid.length;
        if (n < 3) {
            return UNKNOWN;
        }
        double[] t = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = time.applyAsDouble(valid[i]);
        }
        int period = 0;
        for (int p = 1; p <= Math.min(64, n / 3) && period == 0; p++) {
            int pairs = 0;
            int same = 0;
            for (int i = 0; i + p < n; i++) {
                if (valid[i + p] - valid[i] == p) {
                    pairs++;
                    same += Objects.equals(signature[valid[i]], signature[valid[i + p]]) ? 1 : 0;
                }
            }
            if (pairs > 0 && same >= REPEATS * pairs) {
                period = p;
            }
        }
        if (period == 0) {
            return UNKNOWN;
        }
        double[] gaps = new double[n];
        int m = 0;
        for (int i = 0; i + period < n; i++) {
            if (valid[i + period] - valid[i] == period) {
                gaps[m++] = (t[i + period] - t[i]) / 1e6;
            }
        }
        if (m == 0) {
            return UNKNOWN;
        }
        if (period == 1) {
            StepPeriod wide = wideGaps(t);
            if (wide != null) {
                return wide;
            }
        }
        return new StepPeriod(Medians.of(gaps, m), period);
    }

    /** Steps from one wide gap to the next, when the gaps have two scales; null when they do not. */
    private static StepPeriod wideGaps(double[] t) {
        int n = t.length;
        double[] gaps = new double[n - 1];
        for (int i = 0; i + 1 < n; i++) {
            gaps[i] = t[i + 1] - t[i];
        }
        double[] sorted = gaps.clone();
        Arrays.sort(sorted);
        double p95 = sorted[(int) Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length))];
        double median = sorted[sorted.length / 2];
        if (p95 <= 0 || median >= WIDE * p95) {
            return null; // one scale: every collective is a step
        }
        double[] steps = new double[n];
        int m = 0;
        int wide = 0;
        int last = -1;
        for (int i = 0; i < gaps.length; i++) {
            if (gaps[i] >= WIDE * p95) {
                wide++;
                if (last >= 0) {
                    steps[m++] = (t[i + 1] - t[last + 1]) / 1e6;
                }
                last = i;
            }
        }
        if (m < 2) {
            return null;
        }
        return new StepPeriod(Medians.of(steps, m), Math.max(1, Math.round((float) (n - 1) / wide)));
    }
}
