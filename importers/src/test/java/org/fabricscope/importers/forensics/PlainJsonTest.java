package org.fabricscope.importers.forensics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * {@link PlainJson#readStrict} reads what the strict mapper the flight recorder reader used before read
 * ({@code readValue(bytes, Object.class)}, {@code FAIL_ON_TRAILING_TOKENS}, duplicate keys refused): the same
 * values of the same classes, or the same error at the same place, on random documents, their cuts and
 * mutations, and a second document after the first.
 */
class PlainJsonTest {
    private static final ObjectMapper STRICT = new ObjectMapper(Jsons.STRICT_FACTORY.copy())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    /** A value written with the class of every part, so that 1 (Integer) and 1L (Long) differ. */
    private static String typed(Object o) {
        if (o instanceof Map<?, ?> m) {
            StringBuilder b = new StringBuilder(m.getClass().getSimpleName()).append('{');
            m.forEach((k, v) -> b.append(k).append('=').append(typed(v)).append(';'));
            return b.append('}').toString();
        }
        if (o instanceof List<?> l) {
            StringBuilder b = new StringBuilder(l.getClass().getSimpleName()).append('[');
            l.forEach(v -> b.append(typed(v)).append(';'));
            return b.append(']').toString();
        }
        return o == null ? "null" : o.getClass().getSimpleName() + ":" + o;
    }

    private static String error(Exception e) {
        if (e instanceof JsonProcessingException j) {
            var at = j.getLocation();
            return j.getClass().getSimpleName() + ": " + j.getOriginalMessage()
                    + (at == null ? "" : " @" + at.getLineNr() + ":" + at.getColumnNr() + ":" + at.getCharOffset());
        }
        return e.toString();
    }

    private static void same(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        String mapper;
        try {
            mapper = typed(STRICT.readValue(bytes, 0, bytes.length, Object.class));
        } catch (Exception e) {
            mapper = error(e);
        }
        String plain;
        try {
            plain = typed(PlainJson.readStrict(bytes, bytes.length));
        } catch (Exception e) {
            plain = error(e);
        }
        assertEquals(mapper, plain, text);
    }

    private static String value(Random r, int depth) {
        int k = depth > 3 ? 3 + r.nextInt(5) : r.nextInt(8);
        switch (k) {
            case 0, 1: {
                StringBuilder b = new StringBuilder("{");
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    b.append(i > 0 ? "," : "").append("\"k").append(r.nextInt(5)).append("\": ").append(value(r, depth + 1));
                }
                return b.append('}').toString();
            }
            case 2:
                return "[" + value(r, depth + 1) + ", " + value(r, depth + 1) + "]";
            case 3:
                return List.of("0", "-1", "2147483647", "2147483648", "-9223372036854775808", "9223372036854775808",
                        "123456789012345678901234567890").get(r.nextInt(7));
            case 4:
                return List.of("1.0", "-0.0", "1e400", "2.5E-3", "0.1").get(r.nextInt(5));
            case 5:
                return List.of("\"\"", "\"nccl\"", "\"\\u00e9\\t\"", "\"entries\"").get(r.nextInt(4));
            case 6:
                return List.of("true", "false", "null").get(r.nextInt(3));
            default:
                return "[]";
        }
    }

    @Test
    void readsWhatTheStrictMapperReads() {
        Random r = new Random(36);
        String junk = "{}[],:\"x 1-";
        for (int i = 0; i < 2_000; i++) {
            String t = value(r, 0);
            same(t);
            same(t.substring(0, r.nextInt(t.length() + 1)));
            int at = r.nextInt(t.length());
            same(t.substring(0, at) + junk.charAt(r.nextInt(junk.length())) + t.substring(at + 1));
            same(t + List.of(" ", "\n{}", " 1", " x", "]", "  \n ").get(r.nextInt(6)));
        }
    }

    @Test
    void theEdges() {
        for (String t : new String[] {"", "  \n", "null", "{\"a\":1,\"a\":2}", "{} {}", "[1] ]", "[" + "[".repeat(70)
                + "]".repeat(71)}) {
            same(t);
        }
    }
}
