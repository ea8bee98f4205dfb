package org.fabricscope.app.cli;

import java.io.IOException;

import org.fabricscope.model.Severity;

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
}
