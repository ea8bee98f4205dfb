package org.fabricscope.importers.forensics;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.JsonTrees;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;

/**
 * A JSON document read into plain Java values by the streaming parser, as {@code ObjectMapper.readValue(bytes,
 * Object.class)} binds it with {@code FAIL_ON_TRAILING_TOKENS}: objects are {@link LinkedHashMap}s, arrays
 * {@link ArrayList}s, integers {@code Integer}, {@code Long} or {@code BigInteger} by size, other numbers
 * {@code Double}; no content, or anything after the document, is an error with the mapper's words and place.
 * For the flight recorder's JSON dumps: the mapper's first use cost more than reading a dump.
 */
final class PlainJson {
    private PlainJson() {
    }

    /** The document in {@code bytes[0, length)}, with {@link Jsons#STRICT_FACTORY} (a repeated key is refused). */
    static Object readStrict(byte[] bytes, int length) throws IOException {
        try (JsonParser p = Jsons.STRICT_FACTORY.createParser(bytes, 0, length)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                throw MismatchedInputException.from(p, Object.class, "No content to map due to end-of-input");
            }
            Object value = value(p, t);
            JsonToken after = p.nextToken();
            if (after != null) {
                throw MismatchedInputException.from(p, Object.class, "Trailing token (of type " + after
                        + ") found after value (bound as `java.lang.Object`): not allowed as per "
                        + "`DeserializationFeature.FAIL_ON_TRAILING_TOKENS`");
            }
            return value;
        }
    }

    /**
     * The value starting at token {@code t}. Recursive: the depth is bounded by the parser's nesting limit
     * ({@link Jsons#MAX_DEPTH}), which refuses deeper text first.
     */
    private static Object value(JsonParser p, JsonToken t) throws IOException {
        switch (t) {
            case START_OBJECT: {
                Map<String, Object> map = new LinkedHashMap<>();
                for (JsonToken k = JsonTrees.next(p); k != JsonToken.END_OBJECT; k = JsonTrees.next(p)) {
                    String name = p.currentName();
                    map.put(name, value(p, JsonTrees.next(p)));
                }
                return map;
            }
            case START_ARRAY: {
                List<Object> list = new ArrayList<>();
                for (JsonToken e = JsonTrees.next(p); e != JsonToken.END_ARRAY; e = JsonTrees.next(p)) {
                    list.add(value(p, e));
                }
                return list;
            }
            case VALUE_STRING:
                return p.getText();
            case VALUE_NUMBER_INT:
                return p.getNumberValue();
            case VALUE_NUMBER_FLOAT:
                return p.getDoubleValue();
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            case VALUE_NULL:
                return null;
            default:
                throw new com.fasterxml.jackson.core.JsonParseException(p, "unexpected token " + t);
        }
    }
}
