package org.fabricscope.importers.lldp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON read into a tree whose every value knows its line, so that a reader of JSON configuration
 * ({@code config_db.json}, {@code ip -j}) can cite the line of each entry it takes. Limits: nesting at most
 * {@link #MAX_DEPTH}, at most {@link #MAX_VALUES} values per document, a string at most 1 MiB and a number at
 * most 64 digits; past any of them the document is refused with a message naming the limit and the line.
 */
final class JsonTree {
    static final int MAX_DEPTH = 64;
    /** Values in one document (a 512-port SONiC config_db.json holds about 60,000). */
    static final int MAX_VALUES = 2_000_000;
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH)
                    .maxStringLength(1024 * 1024).maxNumberLength(64).build())
            .build();

    /** A JSON value: an object's fields, an array's items or a scalar's text, and the 1-based line it starts on. */
    record Node(Map<String, Node> fields, List<Node> items, String text, boolean isNumber, int line) {
        boolean isObject() {
            return fields != null;
        }

        boolean isArray() {
            return items != null;
        }

        boolean isScalar() {
            return fields == null && items == null;
        }

        /** A field of an object, or null. */
        Node get(String name) {
            return fields == null ? null : fields.get(name);
        }

        /** A scalar field's text, or {@code ""} when absent or not a scalar. */
        String str(String name) {
            Node n = get(name);
            return n == null || !n.isScalar() || n.text == null ? "" : n.text;
        }
    }

    /** The text was not JSON, or past a limit: the message says what, {@code line} where. */
    static final class Malformed extends Exception {
        private static final long serialVersionUID = 1L;
        final int line;

        Malformed(String message, int line) {
            super(message);
            this.line = line;
        }
    }

    private JsonTree() {
    }

    /** Parses one JSON document; lines are numbered from {@code firstLine}. */
    static Node parse(String text, int firstLine) throws Malformed {
        try (JsonParser p = FACTORY.createParser(text)) {
            int[] count = {0};
            if (p.nextToken() == null) {
                throw new Malformed("no JSON value", firstLine);
            }
            Node root = value(p, firstLine, count);
            JsonToken after = p.nextToken();
            if (after != null) {
                throw new Malformed("more text after the JSON value", line(p, firstLine));
            }
            return root;
        } catch (JsonProcessingException e) {
            int line = e.getLocation() == null ? firstLine : firstLine + e.getLocation().getLineNr() - 1;
            String m = e.getOriginalMessage() == null ? "malformed JSON" : e.getOriginalMessage().replace('\n', ' ');
            if (m.contains("nesting depth")) {
                m = "nested deeper than " + MAX_DEPTH + " levels (JsonTree.MAX_DEPTH)";
            } else if (m.contains("String value length")) {
                m = "a string longer than 1 MiB (JsonTree's string limit)";
            } else if (m.contains("Number value length")) {
                m = "a number longer than 64 digits (JsonTree's number limit)";
            }
            m = m.replaceAll("\\(?[^()]*`[^`]*`[^()]*\\)?", "").strip(); // Jackson's hints name its Java methods
            throw new Malformed("not valid JSON: " + (m.length() > 160 ? m.substring(0, 157) + "..." : m), line);
        } catch (IOException e) {
            throw new Malformed("not valid JSON", firstLine);
        }
    }

    private static int line(JsonParser p, int firstLine) {
        return firstLine + Math.max(1, p.currentTokenLocation().getLineNr()) - 1;
    }

    private static Node value(JsonParser p, int firstLine, int[] count) throws IOException, Malformed {
        int line = line(p, firstLine);
        if (++count[0] > MAX_VALUES) {
            throw new Malformed("more than " + MAX_VALUES + " JSON values (JsonTree.MAX_VALUES): not read", line);
        }
        JsonToken t = p.currentToken();
        if (t == JsonToken.START_OBJECT) {
            Map<String, Node> fields = new LinkedHashMap<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                fields.put(name, value(p, firstLine, count));
            }
            return new Node(fields, null, null, false, line);
        }
        if (t == JsonToken.START_ARRAY) {
            List<Node> items = new ArrayList<>();
            while (p.nextToken() != JsonToken.END_ARRAY) {
                items.add(value(p, firstLine, count));
            }
            return new Node(null, items, null, false, line);
        }
        boolean number = t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT;
        String text = t == JsonToken.VALUE_NULL ? null : p.getText();
        return new Node(null, null, text, number, line);
    }
}
