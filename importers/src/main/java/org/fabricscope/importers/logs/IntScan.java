package org.fabricscope.importers.logs;

import org.fabricscope.importers.core.Numbers;

/**
 * A cursor over one line for the all-number NCCL lines that come by the thousand (ring orders,
 * ring and tree places): cheaper than a regular expression, and strict: any unexpected character
 * makes the caller drop the line.
 */
final class IntScan {
    private final String s;
    private int i;
    boolean ok = true;

    IntScan(String s, int from) {
        this.s = s;
        this.i = from;
    }

    /**
     * A possibly negative decimal number; sets {@code ok} false when there is none. A number past
     * the range of a C int is no reason to drop the line quietly: it raises
     * {@link Numbers.OutOfRange} naming {@code field}, which the parser reports.
     */
    int num(String field) {
        int start = i;
        boolean neg = i < s.length() && s.charAt(i) == '-';
        if (neg) {
            i++;
        }
        int from = i;
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
        }
        if (i == from) {
            ok = false;
            i = start;
            return 0;
        }
        if (i - from <= 9) { // fits an int whatever the digits: no range to check
            int v = digits(s, from, i);
            return neg ? -v : v;
        }
        return Numbers.checkedInt(s.substring(start, i), field);
    }

    /** The value of the decimal digits {@code s[from, to)}, at most 9 of them (the caller has checked they are digits). */
    static int digits(String s, int from, int to) {
        int v = 0;
        for (int k = from; k < to; k++) {
            v = v * 10 + (s.charAt(k) - '0');
        }
        return v;
    }

    /** Skips {@code lit} exactly; sets {@code ok} false when it is not there. */
    void lit(String lit) {
        if (s.startsWith(lit, i)) {
            i += lit.length();
        } else {
            ok = false;
        }
    }

    /** Skips spaces; returns how many. */
    int spaces() {
        int n = 0;
        while (i < s.length() && s.charAt(i) == ' ') {
            i++;
            n++;
        }
        return n;
    }

    boolean atEnd() {
        return i >= s.length();
    }
}
