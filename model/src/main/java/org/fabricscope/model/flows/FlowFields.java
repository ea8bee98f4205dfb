package org.fabricscope.model.flows;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The typed fields of a flow file's JSON objects: required and optional strings, arrays, string lists,
 * ids and unknown field names. Each problem goes to the error sink as a JSON pointer and a message;
 * a field that is wrong reads as null (or an empty list), so that the loader reports every error of a
 * file at once.
 */
final class FlowFields {
    private static final Pattern ID = Pattern.compile("[a-z0-9]+(?:-[a-z0-9]+)*");

    private final BiConsumer<String, String> error;

    FlowFields(BiConsumer<String, String> error) {
        this.error = error;
    }

    void unknownFields(JsonNode n, String at, Set<String> known, String what) {
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!known.contains(f)) {
                error.accept(at + "/" + escape(f), "unknown field '" + f + "' in " + what + " (fields: "
                        + String.join(", ", known.stream().sorted().toList()) + ")");
            }
        }
    }

    String id(JsonNode n, String at) {
        String id = text(n, at, "id", true);
        if (id != null && !ID.matcher(id).matches()) {
            error.accept(at + "/id", "'" + id + "' is not an id: lower-case words and digits joined by '-'");
            return null;
        }
        return id;
    }

    String text(JsonNode n, String at, String field, boolean required) {
        JsonNode v = n.get(field);
        if (v == null) {
            if (required) {
                error.accept(at + "/" + field, "missing: " + field + " is required");
            }
            return null;
        }
        if (!v.isTextual() || v.asText().isBlank()) {
            error.accept(at + "/" + field, "must be a non-empty string, not " + kind(v));
            return null;
        }
        return v.asText();
    }

    JsonNode array(JsonNode n, String at, String field, boolean required) {
        JsonNode v = n.get(field);
        if (v == null) {
            if (required) {
                error.accept(at + "/" + field, "missing: " + field + " is required");
            }
            return null;
        }
        if (!v.isArray()) {
            error.accept(at + "/" + field, "must be an array, not " + kind(v));
            return null;
        }
        return v;
    }

    List<String> strings(JsonNode n, String at, String field, boolean required) {
        JsonNode v = array(n, at, field, required);
        List<String> out = new ArrayList<>();
        if (v == null) {
            return out;
        }
        for (int i = 0; i < v.size(); i++) {
            JsonNode x = v.get(i);
            if (!x.isTextual() || x.asText().isBlank()) {
                error.accept(at + "/" + field + "/" + i, "must be a non-empty string, not " + kind(x));
            } else {
                out.add(x.asText());
            }
        }
        return out;
    }

    /**
     * How a JSON value reads in a message: {@code a number (3)}, {@code an object}, {@code an empty string};
     * a long string is cut at {@link #QUOTED} characters, saying so, so that one message never holds a whole file.
     */
    static String kind(JsonNode v) {
        if (v == null || v.isMissingNode()) {
            return "nothing";
        }
        if (v.isNull()) {
            return "null";
        }
        if (v.isTextual()) {
            return v.asText().isBlank() ? "an empty string" : "a string (\"" + quoted(v.asText()) + "\")";
        }
        if (v.isNumber()) {
            return "a number (" + quoted(v.asText()) + ")";
        }
        if (v.isBoolean()) {
            return "a boolean (" + v.asText() + ")";
        }
        if (v.isArray()) {
            return "an array";
        }
        return "an object";
    }

    /** How many characters of a value a message quotes. */
    static final int QUOTED = 200;

    static String quoted(String s) {
        return s.length() <= QUOTED ? s : s.substring(0, QUOTED) + "... (" + s.length() + " characters)";
    }

    /** RFC 6901: '~' is written "~0" and '/' "~1" in a pointer. */
    static String escape(String field) {
        return field.replace("~", "~0").replace("/", "~1");
    }
}
