package org.fabricscope.importers.forensics;

import org.fabricscope.importers.core.Numbers;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Numeric fields of the forensics readers' JSON, range-checked like the text readers' ({@link Numbers}):
 * Jackson's {@code asInt} wraps {@code 4294967296} onto 0 and {@code 2147483648} onto a negative int, so a
 * hostile rank past 2^32 would land on a real rank. A number outside its field's range raises
 * {@link Numbers.OutOfRange}, which the reader turns into a diagnostic that skips the record; a field
 * that is absent or not a number reads as the default (as before).
 */
final class JsonNumbers {
    private JsonNumbers() {
    }

    /** {@code parent.name} as an int in {@code [min, max]}; {@code dflt} when absent or not a number. */
    static int intField(JsonNode parent, String name, int dflt, long min, long max) {
        return (int) longField(parent, name, dflt, min, max);
    }

    /** {@code parent.name} as a long in {@code [min, max]}; {@code dflt} when absent or not a number. */
    static long longField(JsonNode parent, String name, long dflt, long min, long max) {
        return value(parent.path(name), name, dflt, min, max);
    }

    /** The node as a long in {@code [min, max]}; {@code dflt} when missing, null or not a number. */
    static long value(JsonNode n, String name, long dflt, long min, long max) {
        if (n == null || n.isMissingNode() || n.isNull()) {
            return dflt;
        }
        if (n.isNumber()) {
            if (n.isIntegralNumber() ? !n.canConvertToLong() : !wholeLong(n.asDouble())) {
                throw new Numbers.OutOfRange(name, n.asText(), min + ".." + max);
            }
            long v = n.isIntegralNumber() ? n.longValue() : (long) n.asDouble();
            if (v < min || v > max) {
                throw new Numbers.OutOfRange(name, n.asText(), min + ".." + max);
            }
            return v;
        }
        if (n.isTextual() && Numbers.isDecimal(n.asText().strip())) {
            return Numbers.decimal(n.asText(), min, max, name);
        }
        return dflt;
    }

    private static boolean wholeLong(double d) {
        return Double.isFinite(d) && d == Math.rint(d) && d >= -0x1p63 && d < 0x1p63;
    }

    /**
     * The line of the first occurrence of the digits {@code literal} standing alone in {@code text}
     * (a tree has no locations; a number that does not fit its field is rare enough to name its line
     * this way), or 0 when it is not found.
     */
    static int lineOf(String text, String literal) {
        if (text == null || literal == null || literal.isEmpty()) {
            return 0;
        }
        int from = 0;
        while (true) {
            int at = text.indexOf(literal, from);
            if (at < 0) {
                return 0;
            }
            int end = at + literal.length();
            boolean alone = (at == 0 || !Character.isDigit(text.charAt(at - 1)))
                    && (end >= text.length() || !Character.isDigit(text.charAt(end)));
            if (alone) {
                int line = 1;
                for (int i = 0; i < at; i++) {
                    if (text.charAt(i) == '\n') {
                        line++;
                    }
                }
                return line;
            }
            from = at + 1;
        }
    }
}
