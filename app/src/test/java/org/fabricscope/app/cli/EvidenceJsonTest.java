package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;

import org.fabricscope.model.core.Evidence;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/** Evidence in the CLI's JSON: the fields it always had, then its kind and the kind's own fields (decision 0013). */
class EvidenceJsonTest {
    private static JsonNode json(Evidence e) throws Exception {
        return Json.mapper().readTree(Json.mapper().writeValueAsString(List.of(e))).get(0);
    }

    @Test
    void eachKindKeepsSourceLineTextAndSaysWhatItIs() throws Exception {
        JsonNode file = json(Evidence.at("a.txt", 3, "x"));
        assertEquals(List.of("source", "line", "text", "kind"), fields(file));
        assertEquals("a.txt", file.get("source").asText());
        assertEquals(3, file.get("line").asInt());
        assertEquals("file", file.get("kind").asText());

        JsonNode query = json(Evidence.query("kube://p/ns/pods", "list pods in namespace ns", Instant.parse("2026-11-27T00:00:00Z"),
                "pod ns/a Running"));
        assertEquals(List.of("source", "line", "text", "kind", "query", "time"), fields(query));
        assertEquals(0, query.get("line").asInt());
        assertEquals("list pods in namespace ns", query.get("query").asText());
        assertEquals("2026-11-27T00:00:00Z", query.get("time").asText());

        JsonNode stream = json(Evidence.stream("kube://p/ns/pods/a/c", 9, null, "NCCL WARN"));
        assertEquals(List.of("source", "line", "text", "kind", "time"), fields(stream));
        assertEquals("stream", stream.get("kind").asText());
        assertEquals(true, stream.get("time").isNull(), "a stream line without a time says so");
    }

    private static List<String> fields(JsonNode n) {
        List<String> out = new java.util.ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
