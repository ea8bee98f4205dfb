package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The JSON of {@code timeline} and {@code signatures} names an event's and an example's fields in one order on every
 * run: the order the signature or the reasoner made them in. (They were copied with {@code Map.copyOf}, whose order
 * the JDK draws at random at each start: the same inputs printed differently from one run to the next.)
 */
class JsonKeyOrderTest {
    private static List<String> keys(JsonNode o) {
        List<String> out = new ArrayList<>();
        o.fieldNames().forEachRemaining(out::add);
        return out;
    }

    @Test
    void aTimelineEventsFieldsComeInTheOrderTheyWereMade() throws IOException {
        CliTest.Run r = CliTest.run("timeline", "--json", "../sample-fabrics/gpu-captures/h200x2-forensics-nccl-2.28.9/hang");
        assertEquals(0, r.status(), r.err());
        int checked = 0;
        for (JsonNode e : new ObjectMapper().readTree(r.out()).get("events")) {
            if (e.get("id").asText().equals("fabricscope.fr-rank-behind")) {
                assertEquals(List.of("processGroup", "lastEnqueued", "waitedFor"), keys(e.get("fields")));
                checked++;
            }
        }
        assertTrue(checked > 0, "the capture has a rank that never enqueued the collective its peers wait in");
    }

    @Test
    void aSignatureExampleIsItsTextThenItsFieldsInTheCataloguesOrder() throws IOException {
        // each bundled example's field names as its catalogue file writes them, by signature id
        java.util.Map<String, List<List<String>>> written = new java.util.HashMap<>();
        for (String file : List.of("nccl", "pytorch", "kernel", "kubernetes", "prometheus")) {
            try (java.io.InputStream in = org.fabricscope.model.incident.Signature.class.getResourceAsStream(
                    "signatures/" + file + ".json")) {
                for (JsonNode s : new ObjectMapper().readTree(in).get("signatures")) {
                    List<List<String>> examples = new ArrayList<>();
                    s.get("examples").forEach(x -> examples.add(keys(x.get("fields"))));
                    written.put(s.get("id").asText(), examples);
                }
            }
        }
        CliTest.Run r = CliTest.run("signatures", "--json");
        assertEquals(0, r.status(), r.err());
        int withSeveral = 0;
        for (JsonNode s : new ObjectMapper().readTree(r.out())) {
            List<List<String>> expected = written.get(s.get("id").asText());
            for (int i = 0; i < s.get("examples").size(); i++) {
                JsonNode x = s.get("examples").get(i);
                assertEquals(List.of("text", "fields"), keys(x), s.get("id").asText());
                assertEquals(expected.get(i), keys(x.get("fields")), "example " + i + " of " + s.get("id"));
                withSeveral += x.get("fields").size() > 2 ? 1 : 0;
            }
        }
        assertTrue(withSeveral > 10, "examples with three fields or more: " + withSeveral);
    }
}
