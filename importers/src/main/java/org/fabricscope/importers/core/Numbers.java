package org.fabricscope.importers.core;

/**
 * Numeric fields read by the importers, each checked against the range of the field it fills:
 * a value outside it is never wrapped, cut or saturated but raises {@link OutOfRange}, which the
 * reader turns into a diagnostic with the file and line while it skips the record. The ranges are
 * those of the tools that print the values (InfiniBand LIDs are 16 bits, port numbers 8 bits, PMA
 * counters 64 bits unsigned; NCCL ranks, Linux pids and exit codes are C {@code int}s).
 */
public final class Numbers {
    /** InfiniBand LIDs: 16 bits (0 is "no LID yet"). */
    public static final long MAX_LID = 0xFFFF;
    /** InfiniBand port numbers: 8 bits (255 is perfquery's "all ports"). */
    public static final long MAX_PORT = 0xFF;
    /** The LMC of a port: 3 bits. */
    public static final long MAX_LMC = 7;

    private Numbers() {
    }

    /** A number that does not fit its field. Its message names the field, the text and the range. */
    public static final class OutOfRange extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String text;

        public OutOfRange(String field, String text, String range) {
            super(field + " " + shorten(text) + " is out of range (" + range + ")", null, false, false);
            this.text = text;
        }

        /** The text that did not fit, whole. */
        public String text() {
            return text;
        }
    }

    /** A decimal number ({@code -} allowed when {@code min < 0}) in {@code [min, max]}; {@link OutOfRange} otherwise. */
    public static long decimal(String text, long min, long max, String field) {
        String t = text == null ? "" : stripped(text);
        long v = parseDecimal(t);
        if (v == Long.MIN_VALUE || v < min || v > max) {
            throw new OutOfRange(field, t, min + ".." + max);
        }
        return v;
    }

    /** A decimal {@code int} (any sign). */
    public static int checkedInt(String text, String field) {
        return (int) decimal(text, Integer.MIN_VALUE, Integer.MAX_VALUE, field);
    }

    /** A decimal {@code int} that cannot be negative (ranks, pids, counts, indexes). */
    public static int nonNegativeInt(String text, String field) {
        return (int) decimal(text, 0, Integer.MAX_VALUE, field);
    }

    /** An InfiniBand LID, 0..65535. */
    public static int lid(String text) {
        return (int) decimal(text, 0, MAX_LID, "LID");
    }

    /** An InfiniBand port number, 0..255. */
    public static int port(String text) {
        return (int) decimal(text, 0, MAX_PORT, "port");
    }

    /**
     * A 64-bit unsigned decimal (PMA counters, sequence numbers), as the bits of a long: values past
     * {@link Long#MAX_VALUE} read as negative longs and compare with {@link Long#compareUnsigned}.
     */
    public static long unsigned64(String text, String field) {
        String t = text == null ? "" : stripped(text);
        if (t.isEmpty() || t.length() > 20) {
            throw new OutOfRange(field, t, "0..18446744073709551615");
        }
        for (int i = 0; i < t.length(); i++) {
            if (t.charAt(i) < '0' || t.charAt(i) > '9') {
                throw new OutOfRange(field, t, "0..18446744073709551615");
            }
        }
        try {
            return Long.parseUnsignedLong(t);
        } catch (NumberFormatException e) {
            throw new OutOfRange(field, t, "0..18446744073709551615");
        }
    }

    /** Whether the text is decimal digits (an optional leading {@code -}) with no other character. */
    public static boolean isDecimal(String text) {
        if (text == null || text.isEmpty()) {
            return false;
        }
        int i = text.charAt(0) == '-' ? 1 : 0;
        if (i == text.length()) {
            return false;
        }
        for (; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /**
     * {@link String#strip()}, without its scan of both ends when neither end can be white space (the
     * usual case: a field cut out of a line): the same string either way.
     */
    static String stripped(String text) {
        int n = text.length();
        if (n == 0) {
            return text;
        }
        char a = text.charAt(0);
        char z = text.charAt(n - 1);
        // every character Character.isWhitespace accepts is at most ' ' or outside ASCII
        return a > ' ' && a < 0x80 && z > ' ' && z < 0x80 ? text : text.strip();
    }

    /** The value of a decimal, or {@link Long#MIN_VALUE} when it is not one or does not fit a long. */
    private static long parseDecimal(String t) {
        int n = t.length();
        int i = n > 0 && t.charAt(0) == '-' ? 1 : 0;
        if (n - i > 0 && n - i <= 18) { // up to 18 digits cannot overflow: read in one pass
            long v = 0;
            for (int k = i; k < n; k++) {
                char c = t.charAt(k);
                if (c < '0' || c > '9') {
                    return Long.MIN_VALUE;
                }
                v = v * 10 + (c - '0');
            }
            return i == 1 ? -v : v;
        }
        if (!isDecimal(t) || t.length() > 20) {
            return Long.MIN_VALUE;
        }
        try {
            long v = Long.parseLong(t);
            return v == Long.MIN_VALUE ? Long.MIN_VALUE + 1 : v;
        } catch (NumberFormatException e) {
            return Long.MIN_VALUE;
        }
    }

    private static String shorten(String s) {
        return s.length() > 40 ? s.substring(0, 37) + "..." : s;
    }
}
