package org.fabricscope.model.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;

import org.junit.jupiter.api.Test;

/** GUID text read as it always was, whichever way {@link Guids#parse} takes to read it. */
class GuidsTest {

    /** The reading as it stood before plain hex took a path of its own: trim, type prefix, 0x, then digits. */
    private static long reference(String text) {
        if (text == null) {
            return -1;
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
        return v == -1 ? -2 : v;
    }

    @Test
    void examples() {
        assertEquals(0x1c34da0300728866L, Guids.parse("1c34da0300728866"));
        assertEquals(0x1c34da0300728866L, Guids.parse("0x1c34da0300728866"));
        assertEquals(0x1c34da0300728866L, Guids.parse("S-1c34da0300728866"));
        assertEquals(0xb8599f0300ed294aL, Guids.parse("B8599F0300ED294A"));
        assertEquals(-2, Guids.parse("ffffffffffffffff"), "all ones is no GUID, and not the error value");
        assertEquals(-1, Guids.parse("10000000000000000"), "past 64 bits");
        assertEquals(-1, Guids.parse(""));
        assertEquals(-1, Guids.parse(null));
        assertEquals(0x3L, Guids.parse("\u0663"), "other scripts' digits, as Character.digit reads them");
    }

    @Test
    void randomTextsReadAsBefore() {
        Random r = new Random(27);
        String alphabet = "0123456789abcdefABCDEFxX- \tSHR?g\u0663\uff10";
        for (int i = 0; i < 200_000; i++) {
            int n = r.nextInt(20);
            StringBuilder b = new StringBuilder();
            for (int k = 0; k < n; k++) {
                b.append(r.nextInt(4) == 0 ? alphabet.charAt(r.nextInt(alphabet.length())) : alphabet.charAt(r.nextInt(22)));
            }
            String t = b.toString();
            assertEquals(reference(t), Guids.parse(t), "\"" + t + "\"");
        }
    }
}
