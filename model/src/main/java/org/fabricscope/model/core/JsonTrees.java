package org.fabricscope.model.core;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * JSON text read into a Jackson tree by the streaming parser alone, as {@code ObjectMapper.readTree} reads it
 * with its defaults: an empty text is a {@link MissingNode}, the first value is read and what follows it is not,
 * integers are int, long or big-integer nodes by size, other numbers double nodes, and of a key given twice in
 * one object the last value is kept (unless {@code strictDuplicates}: then the parser refuses the text). Errors
 * are the parser's own, with their location. {@link #value} builds a tree from any parser (YAML's too).
 * <p>
 * Why not the {@code ObjectMapper}: the bundled flows and signature catalogue are read on every {@code diagnose},
 * and an {@code ObjectMapper}'s first use initialises its date format, locale data and introspection, about 45 ms
 * of a CLI run on two cores that reading a tree never needs (BENCHMARKS.md, issue 27).
 */
public final class JsonTrees {
    private static final JsonFactory PLAIN = new JsonFactory();
    private static final JsonFactory STRICT = JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private JsonTrees() {
    }

    /** The tree of {@code content}; a key repeated in an object is refused when {@code strictDuplicates}. */
    public static JsonNode read(byte[] content, boolean strictDuplicates) throws IOException {
        try (JsonParser p = (strictDuplicates ? STRICT : PLAIN).createParser(content)) {
            return readNext(p);
        }
    }

    /**
     * The value that starts at the parser's next token, as {@code readTree} reads a text's first value (a
     * {@link MissingNode} when the text ends first): for a parser made by a factory with other settings
     * (stream constraints on untrusted input).
     */
    public static JsonNode readNext(JsonParser p) throws IOException {
        JsonToken t = p.nextToken();
        return t == null ? MissingNode.getInstance() : value(p, t);
    }

    /** The next token inside an object or array: the text may not end there (the parser says so first; this is its guard). */
    public static JsonToken next(JsonParser p) throws IOException {
        JsonToken t = p.nextToken();
        if (t == null) {
            throw new com.fasterxml.jackson.core.io.JsonEOFException(p, null, "unexpected end of input inside a value");
        }
        return t;
    }

    /**
     * The value starting at token {@code t}, the parser's current one; the parser is left on its last token.
     * Recursive: the depth is bounded by the parser's own nesting limit
     * ({@code StreamReadConstraints}), which refuses deeper text before this could run out of stack.
     */
    public static JsonNode value(JsonParser p, JsonToken t) throws IOException {
        switch (t) {
            case START_OBJECT: {
                ObjectNode o = NODES.objectNode();
                for (JsonToken k = next(p); k != JsonToken.END_OBJECT; k = next(p)) {
                    String name = p.currentName();
                    o.set(name, value(p, next(p)));
                }
                return o;
            }
            case START_ARRAY: {
                ArrayNode a = NODES.arrayNode();
                for (JsonToken e = next(p); e != JsonToken.END_ARRAY; e = next(p)) {
                    a.add(value(p, e));
                }
                return a;
            }
            case VALUE_STRING:
                return NODES.textNode(p.getText());
            case VALUE_NUMBER_INT:
                switch (p.getNumberType()) {
                    case INT:
                        return NODES.numberNode(p.getIntValue());
                    case LONG:
                        return NODES.numberNode(p.getLongValue());
                    default:
                        return NODES.numberNode(p.getBigIntegerValue());
                }
            case VALUE_NUMBER_FLOAT:
                return NODES.numberNode(p.getDoubleValue());
            case VALUE_TRUE:
                return NODES.booleanNode(true);
            case VALUE_FALSE:
                return NODES.booleanNode(false);
            case VALUE_NULL:
                return NODES.nullNode();
            case VALUE_EMBEDDED_OBJECT:
                return embedded(p.getEmbeddedObject());
            default:
                // FIELD_NAME, END_* or an embedded object: not at the start of a value of JSON text
                throw new com.fasterxml.jackson.core.JsonParseException(p, "unexpected token " + t);
        }
    }

    /**
     * What a parser of another format hands over whole (YAML's {@code !!binary}), as the mapper's tree
     * reader takes it: bytes as a binary node, a tree as itself, anything else wrapped.
     */
    private static JsonNode embedded(Object o) {
        if (o == null) {
            return NODES.nullNode();
        }
        if (o instanceof byte[] bytes) {
            return NODES.binaryNode(bytes);
        }
        if (o instanceof com.fasterxml.jackson.databind.util.RawValue raw) {
            return NODES.rawValueNode(raw);
        }
        if (o instanceof JsonNode node) {
            return node;
        }
        return NODES.pojoNode(o);
    }
}
