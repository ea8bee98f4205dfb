package org.fabricscope.app.cli;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.flows.FactCall;
import org.fabricscope.model.flows.Flow;
import org.fabricscope.model.flows.FlowResult;

import org.fabricscope.model.core.Severity;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;

/** The one Jackson mapper the CLI writes with: indented, fields in declaration order, severities as error|warning|info. */
final class Json {
    /**
     * The mapper, made on first use (its class initialises a date format, locale data and serializer caches: about
     * 50 ms of a CLI run), so that building a document here costs none of that; {@link JsonDocs} writes the documents
     * it can without it.
     */
    static ObjectMapper mapper() {
        return Holder.MAPPER;
    }

    private static final class Holder {
        static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                .registerModule(new SimpleModule().addSerializer(Severity.class, new JsonSerializer<>() {
                    @Override
                    public void serialize(Severity s, JsonGenerator g, SerializerProvider p) throws IOException {
                        g.writeString(s.label());
                    }
                }).addSerializer(Evidence.class, new JsonSerializer<>() {
                    @Override
                    public void serialize(Evidence e, JsonGenerator g, SerializerProvider p) throws IOException {
                        writeEvidence(e, g);
                    }
                }));
    }

    private Json() {
    }

    /**
     * Evidence as it always was ({@code source}, {@code line}, {@code text}; line 0 for a query), then its
     * {@code kind} ({@code file}, {@code query}, {@code stream}) and the kind's fields: a query's
     * {@code query} and {@code time}, a stream line's {@code time} (ISO-8601; null when not known).
     */
    static void writeEvidence(Evidence e, JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeStringField("source", e.source());
        g.writeNumberField("line", e.line());
        g.writeStringField("text", e.text());
        g.writeStringField("kind", e.kind());
        if (e instanceof Evidence.Query q) {
            g.writeStringField("query", q.query());
            g.writeStringField("time", q.time() == null ? null : q.time().toString());
        } else if (e instanceof Evidence.StreamLine l) {
            g.writeStringField("time", l.time() == null ? null : l.time().toString());
        }
        g.writeEndObject();
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

    /**
     * A walked flow as {@code diagnose --json} publishes it: {@code id, title, status}
     * ({@code concluded|needs-input|not-applicable}), {@code reason} (why it needs input or does not
     * apply), {@code symptoms}, {@code conclusion} ({@code id, finding, text, remedies, evidence}; null
     * unless concluded) and {@code steps} ({@code id, question, kind, answer, detail, command, expect}
     * for manual steps, {@code answeredBy}, {@code evidence, refs}). Fields only grow.
     */
    static Map<String, Object> flow(FlowResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", r.flow().id());
        m.put("title", r.flow().title());
        m.put("status", r.status().label());
        m.put("reason", r.reason());
        m.put("symptoms", r.symptoms());
        Map<String, Object> c = null;
        if (r.conclusion() != null) {
            c = new LinkedHashMap<>();
            c.put("id", r.conclusion().id());
            c.put("finding", r.conclusion().finding());
            c.put("text", r.conclusion().text());
            c.put("remedies", r.conclusion().remedies());
            c.put("evidence", r.conclusion().evidence());
        }
        m.put("conclusion", c);
        m.put("steps", r.steps().stream().map(s -> {
            Map<String, Object> sm = new LinkedHashMap<>();
            sm.put("id", s.id());
            sm.put("question", s.question());
            sm.put("kind", s.kind().label());
            sm.put("answer", s.answer().verdict().label());
            sm.put("detail", s.answer().detail());
            sm.put("command", s.command());
            if (s.kind() == Flow.Kind.MANUAL) {
                sm.put("expect", s.expect());
            }
            sm.put("answeredBy", s.given() ? "user" : "model");
            sm.put("evidence", s.answer().evidence());
            sm.put("refs", s.answer().subjects().stream().map(Json::ref).toList());
            return sm;
        }).toList());
        return m;
    }

    /** A fact as a flow file writes it: {@code {"fact": "env-set", "name": "NCCL_IB_HCA"}}. */
    static Map<String, Object> fact(FactCall call) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("fact", call.fact());
        m.putAll(call.args());
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
