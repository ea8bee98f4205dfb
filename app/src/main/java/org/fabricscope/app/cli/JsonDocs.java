package org.fabricscope.app.cli;

import java.io.IOException;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Severity;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;

/**
 * A JSON document made of maps, lists, records (diagnostics among them), strings, ints, longs, doubles, booleans,
 * nulls, severities and evidence, written with Jackson's streaming generator exactly as {@link Json#mapper()} writes
 * it (the same indentation, field order and forms). {@code diagnose --json} and {@code summary --json} are what
 * scripts call again and again, and an {@code ObjectMapper}'s first use (its date format, locale data, serializer
 * and record introspection) was 70-200 ms of each such run on two cores (BENCHMARKS.md, issue 27). A document holding
 * anything else is written by {@link Json#mapper()}, so the output is the same either way ({@code JsonDocsTest}).
 */
final class JsonDocs {
    private static final JsonFactory FACTORY = new JsonFactory();

    private JsonDocs() {
    }

    /** Thrown where the document holds a value this writer does not know. */
    private static final class Unknown extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unknown() {
            super(null, null, false, false);
        }
    }

    /** The document as {@code Json.mapper().writeValueAsString(doc)} gives it. */
    static String write(Object doc) throws JsonProcessingException {
        String s = streamed(doc);
        return s != null ? s : Json.mapper().writeValueAsString(doc);
    }

    /** The document written by the generator alone; null when it holds a value this writer does not know. */
    static String streamed(Object doc) throws JsonProcessingException {
        StringWriter w = new StringWriter(8192);
        try (JsonGenerator g = FACTORY.createGenerator(w)) {
            g.useDefaultPrettyPrinter();
            value(doc, g);
        } catch (Unknown e) {
            return null;
        } catch (JsonProcessingException e) {
            throw e;
        } catch (IOException e) { // a StringWriter does not fail
            throw new java.io.UncheckedIOException(e);
        }
        return w.toString();
    }

    private static void value(Object v, JsonGenerator g) throws IOException {
        if (v == null) {
            g.writeNull();
        } else if (v instanceof String s) {
            g.writeString(s);
        } else if (v instanceof Map<?, ?> m) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!(e.getKey() instanceof String k)) {
                    throw new Unknown();
                }
                g.writeFieldName(k);
                value(e.getValue(), g);
            }
            g.writeEndObject();
        } else if (v instanceof List<?> l) {
            g.writeStartArray();
            for (Object o : l) {
                value(o, g);
            }
            g.writeEndArray();
        } else if (v instanceof Integer i) {
            g.writeNumber(i);
        } else if (v instanceof Long n) {
            g.writeNumber(n);
        } else if (v instanceof Double d) {
            g.writeNumber(d.doubleValue());
        } else if (v instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (v instanceof Severity s) {
            g.writeString(s.label());
        } else if (v instanceof Evidence e) {
            Json.writeEvidence(e, g);
        } else if (v instanceof Record r) { // a Diagnostic among them: severity, source, line, message
            value(fields(r), g);
        } else {
            throw new Unknown();
        }
    }

    /**
     * Whether a record class has a method the mapper would also write as a property: public, not static, no
     * parameters, named {@code getX} or {@code isX} (returning a boolean). Such a record is left to the mapper.
     */
    private static final ClassValue<Boolean> HAS_GETTERS = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            for (java.lang.reflect.Method m : type.getMethods()) {
                String n = m.getName();
                boolean getter = n.length() > 3 && n.startsWith("get") && !n.equals("getClass") && m.getReturnType() != void.class
                        || n.length() > 2 && n.startsWith("is") && (m.getReturnType() == boolean.class || m.getReturnType() == Boolean.class);
                if (getter && m.getParameterCount() == 0 && !java.lang.reflect.Modifier.isStatic(m.getModifiers())) {
                    return true;
                }
            }
            return false;
        }
    };

    /**
     * A record's components by name, in declaration order, as a map to add to or trim before {@link #write}; when
     * this writer cannot read the record as the mapper would ({@code get}/{@code is} methods, an accessor it may not
     * call), the map the mapper makes of it.
     */
    static Map<String, Object> fieldsOf(Record r) {
        try {
            return fields(r);
        } catch (Unknown e) {
            return Json.mapper().convertValue(r, new com.fasterxml.jackson.core.type.TypeReference<java.util.LinkedHashMap<String, Object>>() {
            });
        }
    }

    /**
     * A record's components by name, in declaration order: the properties the mapper writes for a record of the
     * model (none of which has Jackson annotations or {@code get}/{@code is} methods besides its components).
     */
    private static Map<String, Object> fields(Record r) {
        if (HAS_GETTERS.get(r.getClass())) {
            throw new Unknown();
        }
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        for (java.lang.reflect.RecordComponent c : r.getClass().getRecordComponents()) {
            try {
                m.put(c.getName(), c.getAccessor().invoke(r));
            } catch (ReflectiveOperationException | RuntimeException e) { // not public: the mapper's to write
                throw new Unknown();
            }
        }
        return m;
    }
}
