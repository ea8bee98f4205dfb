package org.fabricscope.importers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.code_intelligence.jazzer.junit.FuzzTest;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.analysis.FabricSummary;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.flows.Flow;
import org.fabricscope.model.flows.FlowContext;
import org.fabricscope.model.flows.FlowEngine;
import org.fabricscope.model.flows.FlowError;
import org.fabricscope.model.flows.FlowLibrary;
import org.fabricscope.model.flows.FlowLoader;
import org.fabricscope.model.flows.FlowResult;
import org.fabricscope.model.flows.Verdict;
import org.fabricscope.model.ranks.RankMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Coverage-guided fuzzing (Jazzer, {@code docs/decisions/0009-jazzer-fuzzing.md}) of the flow loader: the
 * bytes of a user's flow file. It lives here, not in model, because the importers module already runs
 * Jazzer (its surefire executions and JDK profiles) and sees the model.
 *
 * <p>The contract: loading never throws, not even out of memory or stack (Jazzer reports any throwable);
 * a file yields a flow or errors, never both and never neither; every error names the file and says in
 * words what is wrong (no Java class name), at most {@link FlowError#MAX_CHARS} characters of it; loading
 * the same bytes twice gives the same errors; a flow that loads walks over an empty fabric holding a finding of
 * every id, every step answered yes and then no, without throwing, within {@link FlowEngine#MAX_RENDERED_CHARS} of text;
 * and no input takes longer than the {@link Timeout}. Seeds: the built-in flows and a few hostile files
 * (an open placeholder, a chain past {@link FlowLoader#MAX_DEPTH}, deep nesting), under
 * {@code FlowLoaderFuzzTestInputs/loadFlow/}; {@link #everyBuiltInFlowIsASeed} keeps them in step.
 */
class FlowLoaderFuzzTest {
    private static final String SOURCE = "fuzz.json";
    private static final FlowLoader LOADER = FlowLoader.standard();
    /** An empty fabric with one finding of every id in the catalogue, so that a flow entered by findings walks. */
    private static final FlowContext EMPTY = context();

    private static FlowContext context() {
        FabricModel m = FabricModel.empty();
        ErrorThresholds t = ErrorThresholds.defaults();
        List<Finding> all = FlowContext.catalogue().keySet().stream()
                .map(id -> new Finding(id, Severity.WARNING, id, List.of(), List.of(), List.of())).toList();
        return FlowContext.of(new Analysis(m, t, RankMap.of(m), all, FabricSummary.of(m, t)));
    }

    @FuzzTest(maxDuration = "15s")
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void loadFlow(byte[] input) {
        FlowLoader.Loaded first = LOADER.load(SOURCE, input);
        FlowLoader.Loaded second = LOADER.load(SOURCE, input);
        assertEquals(first.errors(), second.errors(), "loading the same bytes twice differs");
        assertTrue(first.flow() == null ^ first.errors().isEmpty(), "a flow or errors: " + first.errors());
        for (FlowError e : first.errors()) {
            assertEquals(SOURCE, e.source());
            assertFalse(e.message().isBlank(), e.toString());
            assertTrue(e.message().length() <= FlowError.MAX_CHARS + 40, "a bounded message: " + e.message().length());
            assertFalse(e.message().matches(".*\\b(java|com\\.fasterxml)\\.[a-z]+\\.[A-Z]\\w*(Exception|Error).*"), e.toString());
        }
        if (first.flow() != null) {
            walk(first.flow());
        }
    }

    /** The flow over an empty fabric with every finding: every step the fabric cannot answer answered yes, then no. */
    private static void walk(Flow flow) {
        for (Verdict v : List.of(Verdict.YES, Verdict.NO)) {
            Map<String, Verdict> given = new java.util.LinkedHashMap<>();
            flow.steps().forEach(s -> given.put(flow.id() + "/" + s.id(), v));
            FlowResult r = FlowEngine.standard().run(flow, EMPTY, given);
            long chars = r.steps().stream().mapToLong(s -> length(s.question()) + length(s.command()) + length(s.expect())).sum();
            if (r.conclusion() != null) {
                chars += length(r.conclusion().text()) + r.conclusion().remedies().stream().mapToLong(FlowLoaderFuzzTest::length).sum();
            }
            assertTrue(chars <= FlowEngine.MAX_RENDERED_CHARS + 100_000, "rendered " + chars + " characters");
        }
    }

    private static long length(String s) {
        return s == null ? 0 : s.length();
    }

    @Test
    void everyBuiltInFlowIsASeed() throws IOException, URISyntaxException {
        Path seeds = Path.of(FlowLoaderFuzzTest.class.getResource("FlowLoaderFuzzTestInputs/loadFlow").toURI());
        for (String name : FlowLibrary.builtInNames()) {
            Path seed = seeds.resolve("builtin-" + name);
            assertTrue(Files.isRegularFile(seed), "copy " + name + " into " + seeds + " as builtin-" + name);
            assertEquals(List.of(), LOADER.load(name, Files.readAllBytes(seed)).errors(), "the seed of " + name + " loads");
        }
        try (Stream<Path> s = Files.list(seeds)) {
            assertTrue(s.count() > FlowLibrary.builtInNames().size(), "and hostile seeds beside them");
        }
    }
}
