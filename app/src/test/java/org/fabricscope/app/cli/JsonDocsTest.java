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
import org.fabricscope.model.analysis.FabricSummary;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.flows.FlowContext;
import org.fabricscope.model.flows.FlowEngine;
import org.fabricscope.model.flows.FlowLibrary;
import org.fabricscope.model.flows.FlowResult;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** {@link JsonDocs} writes every document byte for byte as {@link Json#mapper()} does. */
class JsonDocsTest {
    private static void same(Object doc) throws IOException {
        assertEquals(Json.mapper().writeValueAsString(doc), JsonDocs.write(doc));
    }

    /** {@code diagnose --json}'s document of every bundled sample folder, with its findings, diagnostics and flows. */
    @Test
    void diagnoseDocumentsOfTheSamplesAreWrittenAsTheMapperWritesThem() throws IOException {
        List<Path> folders = samples();
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

    /**
     * {@code summary --json} (with and without {@code --detail}) of every sample folder, against what it printed
     * before {@link JsonDocs}: the summary turned into a tree by the mapper, trimmed and extended, then written.
     */
    @Test
    void summaryDocumentsOfTheSamplesAreWrittenAsBefore() throws IOException {
        int nonEmptyTests = 0;
        int collectives = 0;
        int streamed = 0;
        for (Path f : samples()) {
            ImportResult r = new FabricImporter().importPaths(List.of(f), ImportProgress.NONE, Cancellation.NEVER);
            FabricSummary s = FabricSummary.of(r.model(), ErrorThresholds.defaults());
            List<Diagnostic> all = r.model().diagnostics();
            for (boolean detail : new boolean[] {false, true}) {
                ObjectNode tree = (ObjectNode) Json.mapper().valueToTree(s.withDiagnostics(all));
                if (s.ncclTests().isEmpty()) {
                    tree.remove("ncclTests");
                }
                if (s.collectives().isEmpty()) {
                    tree.remove("collectives");
                }
                if (detail) {
                    tree.set("hostDetails", Json.mapper().valueToTree(FabricSummary.hostDetails(r.model())));
                }
                Map<String, Object> doc = SummaryCommand.document(s, all, detail ? FabricSummary.hostDetails(r.model()) : null);
                assertEquals(Json.mapper().writeValueAsString(tree), JsonDocs.write(doc), f + (detail ? " --detail" : ""));
                streamed += JsonDocs.streamed(doc) != null ? 1 : 0;
            }
            nonEmptyTests += s.ncclTests().isEmpty() ? 0 : 1;
            collectives += s.collectives().isEmpty() ? 0 : 1;
        }
        assertTrue(nonEmptyTests > 0 && collectives > 0, "samples with nccl-tests output and with collectives: "
                + nonEmptyTests + ", " + collectives);
        assertEquals(2 * samples().size(), streamed, "every summary written without the mapper");
    }

    private static List<Path> samples() throws IOException {
        Path samples = Path.of("../sample-fabrics");
        List<Path> folders = new ArrayList<>();
        try (Stream<Path> s = Files.list(samples)) {
            s.filter(Files::isDirectory).filter(p -> !p.getFileName().toString().matches("tools|src|target")).sorted()
                    .forEach(folders::add);
        }
        folders.add(samples.resolve("gpu-captures/h200x2-forensics-nccl-2.28.9/hang"));
        folders.add(samples.resolve("gpu-captures/incidents-h100x2-nccl-2.28.9"));
        folders.add(samples.resolve("gpu-captures/h200x2-busbw-nccl-2.28.9"));
        return folders;
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
        m.put("doubles", List.of(0.1, -2.5e-7, 1e300, 3.0, Double.NaN, Double.POSITIVE_INFINITY));
        m.put("record", new FabricSummary.HostDetail("h\u00e9", 8, 4, 4, 12, 8, 4));
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
        same(m);
        m.put("decimal", new java.math.BigDecimal("1.50"));
        same(m);
        assertNull(JsonDocs.streamed(m), "left to the mapper");
        record WithGetter(int a) {
            public String getLabel() {
                return "a=" + a;
            }
        }
        same(List.of(new WithGetter(3)));
        assertNull(JsonDocs.streamed(List.of(new WithGetter(3))), "a record with a getter is the mapper's to write");
        // as a map to extend: the mapper's properties (the getter's too), written alike
        Map<String, Object> fields = JsonDocs.fieldsOf(new WithGetter(3));
        assertEquals(List.of("a", "label"), new ArrayList<>(fields.keySet()));
        assertEquals(Json.mapper().writeValueAsString(new WithGetter(3)), JsonDocs.write(fields));
        assertEquals(List.of("name", "gpus", "nics", "nets", "nvlinks", "hcas", "netsJoined"),
                new ArrayList<>(JsonDocs.fieldsOf(new FabricSummary.HostDetail("h", 8, 4, 4, 12, 8, 4)).keySet()));
        same(Map.of(1, "a number as a key"));
    }
}
