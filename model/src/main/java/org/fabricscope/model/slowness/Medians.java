package org.fabricscope.model.slowness;

import java.util.Arrays;

/** Medians of the first {@code n} values of an array (sorted in place). */
final class Medians {
    private Medians() {
    }

    /** The median of {@code v[0..n)}, NaN when n is 0; sorts that part of {@code v}. */
    static double of(double[] v, int n) {
        if (n == 0) {
            return Double.NaN;
        }
        Arrays.sort(v, 0, n);
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }
}
