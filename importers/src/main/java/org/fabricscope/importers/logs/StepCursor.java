package org.fabricscope.importers.logs;

/**
 * A cursor over one step line for the numbers the trainers print: integers (with {@code ,} thousands
 * separators, as torchtitan's {@code tps: 5,432}), decimals with an exponent ({@code 6.9688e+00}), and
 * Python's {@code inf} / {@code nan}. Any unexpected character sets {@code ok} false and the caller
 * drops the line; nothing here throws on what a log holds.
 */
final class StepCursor {
    /** Digits past this many make an integer no step counter reaches: the line is dropped. */
    private static final int MAX_DIGITS = 18;

    final String s;
    int i;
    boolean ok = true;

    StepCursor(String s, int from) {
        this.s = s;
        this.i = Math.max(0, Math.min(from, s.length()));
    }

    /** A non-negative integer, {@code ,} separators allowed between digit groups; -1 (and {@code ok} false) when none. */
    long integer() {
        long v = 0;
        int digits = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                if (++digits > MAX_DIGITS) {
                    ok = false;
                    return -1;
                }
                v = v * 10 + (c - '0');
                i++;
            } else if (c == ',' && digits > 0 && i + 1 < s.length() && isDigit(s.charAt(i + 1))) {
                i++;
            } else {
                break;
            }
        }
        if (digits == 0) {
            ok = false;
            return -1;
        }
        return v;
    }

    /**
     * A decimal number ({@code -1.5}, {@code 1,234.5}, {@code 6.9688e+00}, {@code inf}, {@code nan}); NaN (and
     * {@code ok} false) when none.
     */
    double decimal() {
        int start = i;
        if (i < s.length() && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
            i++;
        }
        if (s.startsWith("inf", i) || s.startsWith("nan", i)) {
            boolean inf = s.charAt(i) == 'i';
            i += 3;
            return inf ? (s.charAt(start) == '-' ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY) : Double.NaN;
        }
        StringBuilder b = new StringBuilder(16);
        if (start < i) {
            b.append(s.charAt(start));
        }
        int digits = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (isDigit(c)) {
                b.append(c);
                digits++;
            } else if (c == ',' && digits > 0 && i + 1 < s.length() && isDigit(s.charAt(i + 1)) && b.indexOf(".") < 0) {
                // a thousands separator: "1,234.5" (but "1.5, 2" ends at the comma)
                if (!groupOfThree(i + 1)) {
                    break;
                }
            } else if (c == '.' && b.indexOf(".") < 0 && b.indexOf("e") < 0) {
                b.append(c);
            } else if ((c == 'e' || c == 'E') && digits > 0 && b.indexOf("e") < 0 && exponentFollows(i + 1)) {
                b.append('e');
                if (s.charAt(i + 1) == '+' || s.charAt(i + 1) == '-') {
                    b.append(s.charAt(++i));
                }
            } else {
                break;
            }
            i++;
        }
        if (digits == 0 || digits > 40) {
            ok = false;
            i = start;
            return Double.NaN;
        }
        try {
            return Double.parseDouble(b.toString());
        } catch (NumberFormatException e) {
            ok = false;
            i = start;
            return Double.NaN;
        }
    }

    private boolean groupOfThree(int at) {
        int n = 0;
        while (at + n < s.length() && isDigit(s.charAt(at + n))) {
            n++;
        }
        return n == 3;
    }

    private boolean exponentFollows(int at) {
        if (at < s.length() && (s.charAt(at) == '+' || s.charAt(at) == '-')) {
            at++;
        }
        return at < s.length() && isDigit(s.charAt(at));
    }

    /** Skips {@code lit} exactly; sets {@code ok} false when it is not there. */
    void lit(String lit) {
        if (s.startsWith(lit, i)) {
            i += lit.length();
        } else {
            ok = false;
        }
    }

    /** Whether {@code lit} is next; skips it when it is. */
    boolean skip(String lit) {
        if (s.startsWith(lit, i)) {
            i += lit.length();
            return true;
        }
        return false;
    }

    /** Skips spaces and tabs; returns how many. */
    int spaces() {
        int n = 0;
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
            n++;
        }
        return n;
    }

    char peek() {
        return i < s.length() ? s.charAt(i) : '\0';
    }

    boolean atEnd() {
        return i >= s.length();
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
