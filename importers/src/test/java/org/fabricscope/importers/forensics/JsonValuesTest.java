package org.fabricscope.importers.forensics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;

/**
 * {@link JsonValues} gives what {@code ObjectMapper.readerFor(JsonNode.class).readValues} gives, on random texts
 * of several top-level values (JSON lines, documents one after another, one array of them) and on their cuts and
 * mutations: the same trees, one by one, then the same end or the same error at the same place.
 */
class JsonValuesTest {

    /** What a reader gave: the values, then "end" or the error's message and location. */
    private record Read(List<JsonNode> values, String end) {
    }

    private static String ended(JsonProcessingException e) {
        var at = e.getLocation();
        return e.getClass().getSimpleName() + ": " + e.getOriginalMessage() + (at == null ? "" : " @" + at.getLineNr() + ":" + at.getColumnNr());
    }

    private static Read mapper(byte[] text) {
        List<JsonNode> out = new ArrayList<>();
        try (MappingIterator<JsonNode> it = new com.fasterxml.jackson.databind.ObjectMapper(Jsons.FACTORY.copy()).readerFor(JsonNode.class).readValues(new ByteArrayInputStream(text))) {
            while (it.hasNextValue()) {
                out.add(it.nextValue());
            }
            return new Read(out, "end");
        } catch (JsonProcessingException e) {
            return new Read(out, ended(e));
        } catch (IOException e) {
            return new Read(out, e.toString());
        }
    }

    private static Read streamed(byte[] text) {
        List<JsonNode> out = new ArrayList<>();
        try (JsonValues it = new JsonValues(Jsons.FACTORY.createParser(new ByteArrayInputStream(text)))) {
            for (JsonNode n = it.next(); n != null; n = it.next()) {
                out.add(n);
            }
            return new Read(out, "end");
        } catch (JsonProcessingException e) {
            return new Read(out, ended(e));
        } catch (IOException e) {
            return new Read(out, e.toString());
        }
    }

    private static String value(Random r, int depth) {
        int k = depth > 3 ? 4 + r.nextInt(6) : r.nextInt(10);
        switch (k) {
            case 0, 1: {
                StringBuilder b = new StringBuilder("{");
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    b.append(i > 0 ? "," : "").append("\"k").append(r.nextInt(3)).append("\":").append(value(r, depth + 1));
                }
                return b.append('}').toString();
            }
            case 2, 3: {
                StringBuilder b = new StringBuilder("[");
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    b.append(i > 0 ? ", " : "").append(value(r, depth + 1));
                }
                return b.append(']').toString();
            }
            case 4:
                return List.of("0", "-1", "2147483648", "9223372036854775808", "12").get(r.nextInt(5));
            case 5:
                return List.of("1.5", "-0.0", "1e400", "3E-2").get(r.nextInt(4));
            case 6:
                return List.of("\"a\"", "\"\"", "\"\\u00e9 \\n\"", "\"nccl_version\"").get(r.nextInt(4));
            case 7:
                return List.of("true", "false").get(r.nextInt(2));
            case 8:
                return "null";
            default:
                return "\"s" + r.nextInt(100) + "\"";
        }
    }

    private static String text(Random r) {
        StringBuilder b = new StringBuilder();
        int n = r.nextInt(5);
        boolean array = r.nextInt(3) == 0;
        if (array) {
            b.append('[');
        }
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : array ? ",\n" : List.of("\n", " ", "\r\n", "").get(r.nextInt(4)));
            b.append(value(r, 0));
        }
        if (array) {
            b.append(']');
            if (r.nextBoolean()) {
                b.append(" {\"after\": 1}"); // what follows the array is not read
            }
        }
        return b.toString();
    }

    private static void same(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        assertEquals(mapper(bytes), streamed(bytes), text);
    }

    @Test
    void readsWhatTheMapperReadsOnRandomTextsTheirCutsAndMutations() {
        Random r = new Random(2711);
        String junk = "{}[],:\"x 1-";
        for (int i = 0; i < 1_500; i++) {
            String t = text(r);
            same(t);
            if (!t.isEmpty()) {
                same(t.substring(0, r.nextInt(t.length())));
                int at = r.nextInt(t.length());
                same(t.substring(0, at) + junk.charAt(r.nextInt(junk.length())) + t.substring(at + 1));
            }
        }
    }

    @Test
    void theEdgesOfATextOfValues() {
        for (String t : new String[] {"", "   ", "[]", "[] 1", "[[1], [2]]", "1 2 3", "{} ]", "] 1", "[1, 2", "{\"a\":1}{\"a\":2}",
                "{\"a\":1,\"a\":2}", "[" + "[".repeat(70) + "]".repeat(70) + "]"}) {
            same(t);
        }
    }
}
