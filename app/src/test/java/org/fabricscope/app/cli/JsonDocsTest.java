package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.flows.FlowContext;
import org.fabricscope.model.flows.FlowEngine;
import org.fabricscope.model.flows.FlowLibrary;
import org.fabricscope.model.flows.FlowResult;
import org.junit.jupiter.api.Test;

/** {@link JsonDocs} writes every document byte for byte as {@link Json#mapper()} does. */
class JsonDocsTest {
    private static void same(Object doc) throws IOException {
        assertEquals(Json.mapper().writeValueAsString(doc), JsonDocs.write(doc));
    }

    /** {@code diagnose --json}'s document of every bundled sample folder, with its findings, diagnostics and flows. */
    @Test
    void diagnoseDocumentsOfTheSamplesAreWrittenAsTheMapperWritesThem() throws IOException {
        Path samples = Path.of("../sample-fabrics");
        List<Path> folders = new ArrayList<>();
        try (Stream<Path> s = Files.list(samples)) {
            s.filter(Files::isDirectory).filter(p -> !p.getFileName().toString().matches("tools|src|target")).sorted()
                    .forEach(folders::add);
        }
        folders.add(samples.resolve("gpu-captures/h200x2-forensics-nccl-2.28.9/hang"));
        folders.add(samples.resolve("gpu-captures/incidents-h100x2-nccl-2.28.9"));
        FlowLibrary flows = FlowLibrary.builtIn();
        int findings = 0;
        int diagnostics = 0;
        for (Path f : folders) {
            ImportResult r = new FabricImporter().importPaths(List.of(f), ImportProgress.NONE, Cancellation.NEVER);
            Analysis a = Analysis.of(r.model(), ErrorThresholds.defaults());
            List<FlowResult> walked = FlowEngine.standard().run(flows.flows(), FlowContext.of(a), Map.of());
            Map<String, Object> doc = DiagnoseCommand.document(a.findings(), r.model().diagnostics(), walked);
            same(doc);
            assertNotNull(JsonDocs.streamed(doc), "written without the mapper: " + f);
            findings += a.findings().size();
            diagnostics += r.model().diagnostics().size();
        }
        assertTrue(folders.size() >= 10 && findings > 50 && diagnostics > 5,
                folders.size() + " folders, " + findings + " findings, " + diagnostics + " diagnostics");
    }

    @Test
    void everyKindOfValueIsWrittenAlike() throws IOException {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("null", null);
        m.put("text", "caf\u00e9 \u4e2d \"quoted\" back\\slash \t tab \u0001 \u001f \ud83d\ude00 </script>");
        m.put("empty", "");
        m.put("int", -7);
        m.put("long", Long.MAX_VALUE);
        m.put("true", true);
        m.put("false", false);
        m.put("severity", Severity.WARNING);
        m.put("emptyList", List.of());
        m.put("emptyMap", Map.of());
        m.put("nested", List.of(List.of(1, 2), Map.of("a", List.of()), List.of(Map.of())));
        m.put("evidence", List.of(Evidence.at("f.txt", 3, "a line"),
                Evidence.query("prometheus", "rate(x[5m])", Instant.parse("2026-11-28T01:02:03Z"), "0.5"),
                Evidence.query("prometheus", "up", null, "1"),
                Evidence.stream("pod/c", 9, Instant.parse("2026-11-28T01:02:03.456Z"), "NCCL WARN x"),
                Evidence.stream("pod/c", 10, null, "y")));
        m.put("diagnostics", List.of(Diagnostic.error("a", 1, "bad"), Diagnostic.info("", 0, "note")));
        same(m);
        assertNotNull(JsonDocs.streamed(m));
        same(List.of());
        same("just a string");
        same(null);
    }

    @Test
    void aValueItDoesNotKnowIsLeftToTheMapper() throws IOException {
        record Point(int x, double y) {
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("before", List.of("a"));
        m.put("point", new Point(1, 2.5));
        m.put("double", 0.1);
        same(m);
        assertNull(JsonDocs.streamed(m), "left to the mapper");
        same(Map.of(1, "a number as a key"));
    }
}
