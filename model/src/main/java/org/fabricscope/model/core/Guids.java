package org.fabricscope.model.core;

/** GUID text helpers. GUIDs are 64-bit unsigned values printed in hex with or without 0x. */
public final class Guids {
    private Guids() {
    }

    /** Parses {@code 0x1c34da0300728866}, {@code 1c34da0300728866} or {@code S-1c34...}; -1 on bad input. */
    public static long parse(String text) {
        if (text == null) {
            return -1;
        }
        int n = text.length();
        if (n > 0 && n <= 16) { // the usual text, 1 to 16 ASCII hex digits: read without trimming or copying
            long v = 0;
            int i = 0;
            for (; i < n; i++) {
                int d = asciiHex(text.charAt(i));
                if (d < 0) {
                    break;
                }
                v = (v << 4) | d;
            }
            if (i == n) {
                return v == -1 ? -2 : v;
            }
        }
        String t = text.trim();
        if (t.length() > 2 && t.charAt(1) == '-' && "SHR?".indexOf(t.charAt(0)) >= 0) {
            t = t.substring(2);
        }
        if (t.startsWith("0x") || t.startsWith("0X")) {
            t = t.substring(2);
        }
        if (t.isEmpty() || t.length() > 16) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < t.length(); i++) {
            int d = Character.digit(t.charAt(i), 16);
            if (d < 0) {
                return -1;
            }
            v = (v << 4) | d;
        }
        return v == -1 ? -2 : v; // 0xffffffffffffffff is not a real GUID; keep -1 as the error value
    }

    private static int asciiHex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /**
     * Whether {@code guid} is a GUID {@link #parse} produced (not 0, not the -1 error value).
     * GUIDs are unsigned: those with the top bit set (e.g. 0xb8599f0300ed294a) are negative longs,
     * so never test validity with {@code > 0}.
     */
    public static boolean isValid(long guid) {
        return guid != 0 && guid != -1;
    }

    /** {@code 0x} and 16 lower-case hex digits. */
    public static String format(long guid) {
        String h = Long.toHexString(guid);
        return "0x" + "0000000000000000".substring(h.length()) + h;
    }
}
