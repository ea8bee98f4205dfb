package org.fabricscope.model.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** {@link JsonTrees} reads every text as {@code ObjectMapper.readTree} does: the same tree, or the same error at the same place. */
class JsonTreesTest {
    private static final ObjectMapper PLAIN = new ObjectMapper();
    private static final ObjectMapper STRICT = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    /** Both readers on one text, strict and not: equal trees of the same node classes, or the same error. */
    private static void same(String text) {
        for (boolean strict : new boolean[] {false, true}) {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            JsonNode expected;
            try {
                expected = (strict ? STRICT : PLAIN).readTree(bytes);
            } catch (JsonProcessingException e) {
                JsonProcessingException got = assertThrows(JsonProcessingException.class, () -> JsonTrees.read(bytes, strict),
                        "should fail as readTree does: " + text);
                assertEquals(e.getOriginalMessage(), got.getOriginalMessage(), text);
                assertEquals(e.getClass(), got.getClass(), text);
                assertEquals(e.getLocation() == null, got.getLocation() == null, text);
                if (e.getLocation() != null) { // none on a limit the parser's constraints set (nesting depth)
                    assertEquals(e.getLocation().getLineNr(), got.getLocation().getLineNr(), text);
                    assertEquals(e.getLocation().getColumnNr(), got.getLocation().getColumnNr(), text);
                }
                continue;
            } catch (IOException e) {
                throw new AssertionError(e);
            }
            try {
                JsonNode got = JsonTrees.read(bytes, strict);
                assertNotNull(got);
                assertEquals(expected, got, text);
                assertSameClasses(expected, got, text);
            } catch (IOException e) {
                throw new AssertionError("readTree read it, JsonTrees did not: " + text, e);
            }
        }
    }

    /** Node classes too: an int node is not a long node that happens to be equal. */
    private static void assertSameClasses(JsonNode a, JsonNode b, String text) {
        assertEquals(a.getClass(), b.getClass(), text);
        if (a.isObject()) {
            a.fieldNames().forEachRemaining(n -> assertSameClasses(a.get(n), b.get(n), text));
            List<String> an = new ArrayList<>();
            List<String> bn = new ArrayList<>();
            a.fieldNames().forEachRemaining(an::add);
            b.fieldNames().forEachRemaining(bn::add);
            assertEquals(an, bn, "key order: " + text);
        } else if (a.isArray()) {
            for (int i = 0; i < a.size(); i++) {
                assertSameClasses(a.get(i), b.get(i), text);
            }
        }
    }

    @Test
    void readsWhatReadTreeReads() {
        Stream.of("", "   \n ", "null", "true", "false", "0", "-1", "2147483647", "2147483648", "-9223372036854775808",
                "9223372036854775808", "123456789012345678901234567890", "1.5", "-0.0", "1e3", "1E-7", "\"\"",
                "\"a\\u00e9\\n\\\"b\\\"\"", "\"caf\u00e9 \u4e2d\"", "[]", "{}", "[1,[2,[3,{}]]]",
                "{\"a\":1,\"b\":[true,null,\"x\"],\"c\":{\"d\":{\"e\":[]}}}", "{\"z\":1,\"a\":2,\"m\":3}",
                "{\"a\":1,\"a\":2}", "{\"a\":{\"b\":1},\"a\":[1]}", "[{\"a\":1,\"a\":1}]",
                "{\"a\":1} trailing", "[1] [2]", "{\"a\":1}}", " \t{\"a\" : \"b\"}\r\n")
                .forEach(JsonTreesTest::same);
    }

    @Test
    void failsWhereReadTreeFails() {
        Stream.of("{", "[", "{\"a\"", "{\"a\":", "{\"a\":1", "[1,", "[1 2]", "{\"a\" 1}", "{a:1}", "{'a':1}", "[01]",
                "[1.]", "[-]", "[NaN]", "[tru]", "\"abc", "\"a\\x\"", "[1,]", "{\"a\":1,}", "]", "}", ",",
                "{\"a\":1,\n\"b\":\n}", "[\n1,\n2\n", "\u0000", "[\"\u0001\"]")
                .forEach(JsonTreesTest::same);
    }

    @Test
    void nestingPastTheParsersLimitIsAnErrorNotAStackOverflow() {
        String deep = "[".repeat(5000) + "]".repeat(5000);
        assertThrows(JsonProcessingException.class, () -> JsonTrees.read(deep.getBytes(StandardCharsets.UTF_8), false));
        same(deep);
        String ok = "[".repeat(200) + "]".repeat(200);
        same(ok);
    }

    @Test
    void readsTheBundledFlowsAndSignaturesAlike() throws IOException {
        Path resources = Path.of("src/main/resources");
        List<Path> files;
        try (Stream<Path> s = Files.walk(resources)) {
            files = s.filter(p -> p.toString().endsWith(".json")).toList();
        }
        assertTrue(files.size() >= 10, "the bundled catalogue and flows: " + files);
        for (Path f : files) {
            same(Files.readString(f));
        }
    }

    @Test
    void randomTreesAndTheirCutsReadAlike() {
        Random r = new Random(27);
        for (int i = 0; i < 1500; i++) {
            StringBuilder b = new StringBuilder();
            write(b, r, 0);
            String text = b.toString();
            same(text);
            // cut short, or one character changed: errors (or a shorter value) in the same place
            same(text.substring(0, r.nextInt(text.length() + 1)));
            if (!text.isEmpty()) {
                char[] c = text.toCharArray();
                c[r.nextInt(c.length)] = "{}[],:\"x1 \\".charAt(r.nextInt(11));
                same(new String(c));
            }
        }
    }

    private static void write(StringBuilder b, Random r, int depth) {
        int kind = depth > 5 ? 2 + r.nextInt(6) : r.nextInt(8);
        switch (kind) {
            case 0 -> {
                b.append('{');
                int n = r.nextInt(5);
                for (int k = 0; k < n; k++) {
                    if (k > 0) {
                        b.append(',');
                    }
                    b.append('"').append((char) ('a' + r.nextInt(4))).append("\":"); // few names: duplicates happen
                    write(b, r, depth + 1);
                }
                b.append('}');
            }
            case 1 -> {
                b.append('[');
                int n = r.nextInt(5);
                for (int k = 0; k < n; k++) {
                    if (k > 0) {
                        b.append(", ");
                    }
                    write(b, r, depth + 1);
                }
                b.append(']');
            }
            case 2 -> b.append('"').append(Long.toString(r.nextLong(), 36)).append(r.nextBoolean() ? "\\u00e9\\t" : "").append('"');
            case 3 -> b.append(r.nextInt());
            case 4 -> b.append(r.nextBoolean() ? Long.toString(r.nextLong()) : r.nextLong() + "000000");
            case 5 -> b.append(r.nextDouble() * 1e6).append(r.nextBoolean() ? "e-3" : "");
            case 6 -> b.append(r.nextBoolean());
            default -> b.append("null");
        }
    }
}
