package org.fabricscope.app.cli;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Subject;

import org.fabricscope.model.core.Severity;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;

/** The one Jackson mapper the CLI writes with: indented, fields in declaration order, severities as error|warning|info. */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .registerModule(new SimpleModule().addSerializer(Severity.class, new JsonSerializer<>() {
                @Override
                public void serialize(Severity s, JsonGenerator g, SerializerProvider p) throws IOException {
                    g.writeString(s.label());
                }
            }));

    private Json() {
    }

    /**
     * A finding as {@code diagnose --json} publishes it: {@code id, severity, title, subjects} (the
     * labels), {@code evidence, remedies}, then {@code refs}, the subjects as typed keys
     * ({@code {"kind": "port", "guid": "0x...", "port": 23, "label": "..."}}). Fields only grow.
     */
    static Map<String, Object> finding(Finding f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", f.id());
        m.put("severity", f.severity());
        m.put("title", f.title());
        m.put("subjects", f.subjects());
        m.put("evidence", f.evidence());
        m.put("remedies", f.remedies());
        m.put("refs", f.refs().stream().map(Json::ref).toList());
        return m;
    }

    static Map<String, Object> ref(Subject s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", s.kind());
        m.putAll(s.keys());
        m.put("label", s.label());
        return m;
    }
}
