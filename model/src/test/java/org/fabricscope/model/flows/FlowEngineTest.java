package org.fabricscope.model.flows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.analysis.FabricSummary;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.flows.FlowResult.Status;
import org.fabricscope.model.ranks.RankMap;
import org.junit.jupiter.api.Test;

/** The walk: branches, placeholders, manual steps waiting for input, the user's answers, entry symptoms and ranking. */
class FlowEngineTest {
    /** Test facts: {@code says} answers what its {@code verdict} parameter says, with a value for {{pod}}; {@code broken} throws. */
    static final FlowFacts FACTS = FlowFacts.standard()
            .with(new FlowFacts.Fact("says", "answers its parameter", List.of(
                    FlowFacts.Param.choice("verdict", true, "the answer", "yes", "no", "unknown")), "tests",
                    (c, call) -> new Answer(Verdict.of(call.string("verdict")), "it said " + call.string("verdict"), List.of(),
                            List.of(), Map.of("pod", "worker-" + call.string("verdict")))))
            .with(new FlowFacts.Fact("broken", "throws", List.of(), "tests", (c, call) -> {
                throw new IllegalStateException("boom");
            }));
    static final FlowEngine ENGINE = new FlowEngine(FACTS);

    static Flow flow(String json) {
        FlowLoader.Loaded l = new FlowLoader(FACTS, FlowContext.catalogue().keySet()).load("test.json",
                json.getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of(), l.errors());
        return l.flow();
    }

    static FlowContext context(Finding... findings) {
        FabricModel m = FabricModel.empty();
        ErrorThresholds t = ErrorThresholds.defaults();
        return FlowContext.of(new Analysis(m, t, RankMap.of(m), List.of(findings), FabricSummary.of(m, t)));
    }

    static Finding finding(String id, Severity s) {
        return new Finding(id, s, id + " title", List.of(), List.of(), List.of());
    }

    static String twoSteps(String first, String second, String entry) {
        return """
                {"id": "t", "title": "T", "entry": %s,
                 "steps": [
                   {"id": "a", "question": "A on {{pod}}?", "ask": {"fact": "says", "verdict": "%s"}, "yes": "b", "no": "done"},
                   {"id": "b", "kind": "manual", "question": "B?", "ask": {"fact": "says", "verdict": "%s"},
                    "command": "run-b --pod {{pod}} --node {{node}}", "yes": "done", "no": "other"}
                 ],
                 "conclusions": [
                   {"id": "done", "finding": "tcp-fallback", "text": "Done: {{answer:a}}, pod {{pod}}.", "remedies": ["fix {{pod}}"]},
                   {"id": "other", "text": "Other after {{answer:b}}.", "remedies": ["r"]}
                 ]}
                """.formatted(entry, first, second);
    }

    static final String ENTRY = "{\"findings\": [\"tcp-fallback\"]}";

    @Test
    void walksTheBranchesAndFillsThePlaceholders() {
        FlowResult r = ENGINE.run(flow(twoSteps("no", "yes", ENTRY)), context(finding("tcp-fallback", Severity.ERROR)), Map.of());
        assertEquals(Status.CONCLUDED, r.status());
        assertEquals(List.of("tcp-fallback"), r.symptoms());
        assertEquals(List.of("a"), r.steps().stream().map(FlowResult.StepResult::id).toList());
        assertEquals("A on worker-no?", r.steps().get(0).question(), "the step's own answer fills its text");
        assertEquals("done", r.conclusion().id());
        assertEquals("tcp-fallback", r.conclusion().finding());
        assertEquals("Done: it said no, pod worker-no.", r.conclusion().text());
        assertEquals(List.of("fix worker-no"), r.conclusion().remedies());
    }

    @Test
    void aManualStepTheModelCannotAnswerNeedsInputUntilTheUserAnswers() {
        Flow f = flow(twoSteps("yes", "unknown", ENTRY));
        FlowContext c = context(finding("tcp-fallback", Severity.ERROR));
        FlowResult waiting = ENGINE.run(f, c, Map.of());
        assertEquals(Status.NEEDS_INPUT, waiting.status());
        assertNull(waiting.conclusion());
        assertEquals("run-b --pod worker-unknown --node ${NODE:?set NODE to the name of the node}", waiting.steps().get(1).command(), "an unknown value in a command: a shell variable that stops it unset");
        assertTrue(waiting.reason().contains("Step 'b' needs input: run run-b --pod worker-unknown --node ${NODE:?set NODE to the name of the node} and answer yes or no"),
                waiting.reason());
        assertTrue(waiting.reason().contains("--answer t/b=yes|no"), waiting.reason());

        FlowResult answered = ENGINE.run(f, c, Map.of("t/b", Verdict.NO));
        assertEquals(Status.CONCLUDED, answered.status());
        assertEquals("other", answered.conclusion().id());
        assertTrue(answered.steps().get(1).given());
        assertEquals("Other after answered no by the user.", answered.conclusion().text());
    }

    @Test
    void theCommandsOutputTheUserPastedIsKeptAsEvidence() {
        FlowResult r = ENGINE.runGiven(flow(twoSteps("yes", "unknown", ENTRY)), context(finding("tcp-fallback", Severity.ERROR)),
                Map.of("t/b", new FlowEngine.Given(Verdict.YES, "hca_id: mlx5_0\n\n  state: PORT_ACTIVE (4)\n")));
        assertEquals("done", r.conclusion().id());
        var ev = r.steps().get(1).answer().evidence();
        assertEquals(2, ev.size());
        assertEquals("user: run-b --pod worker-unknown --node ${NODE:?set NODE to the name of the node}", ev.get(0).source());
        assertEquals(3, ev.get(1).line());
        assertEquals("  state: PORT_ACTIVE (4)", ev.get(1).text());
    }

    @Test
    void theUsersAnswerNeverOverridesTheModels() {
        FlowResult r = ENGINE.run(flow(twoSteps("yes", "yes", ENTRY)), context(finding("tcp-fallback", Severity.ERROR)),
                Map.of("t/b", Verdict.NO));
        assertEquals("done", r.conclusion().id());
        assertTrue(!r.steps().get(1).given());
    }

    @Test
    void anUnknownAnswerWithoutABranchStopsTheWalkAndOtherwiseCoversIt() {
        String json = twoSteps("unknown", "yes", ENTRY);
        FlowResult stop = ENGINE.run(flow(json), context(finding("tcp-fallback", Severity.ERROR)), Map.of());
        assertEquals(Status.NEEDS_INPUT, stop.status());
        assertTrue(stop.reason().startsWith("Step 'a' needs input: it said unknown"), stop.reason());
        FlowResult on = ENGINE.run(flow(json.replace("\"yes\": \"b\", \"no\": \"done\"", "\"yes\": \"b\", \"otherwise\": \"done\"")),
                context(finding("tcp-fallback", Severity.ERROR)), Map.of());
        assertEquals("done", on.conclusion().id());
    }

    @Test
    void aFlowWhoseSymptomIsAbsentSaysWhy() {
        FlowResult r = ENGINE.run(flow(twoSteps("yes", "yes", "{\"findings\": [\"tcp-fallback\", \"gdr-not-used\"], "
                + "\"facts\": [{\"fact\": \"says\", \"verdict\": \"no\"}]}")), context(), Map.of());
        assertEquals(Status.NOT_APPLICABLE, r.status());
        assertEquals("Its symptom is absent: no tcp-fallback, gdr-not-used finding; says: no (it said no).", r.reason());
        assertEquals(List.of(), r.steps());
        FlowResult byFact = ENGINE.run(flow(twoSteps("no", "yes", "{\"facts\": [{\"fact\": \"says\", \"verdict\": \"yes\"}]}")),
                context(), Map.of());
        assertEquals(Status.CONCLUDED, byFact.status());
        assertEquals(List.of("says: it said yes"), byFact.symptoms());
        assertEquals(Severity.WARNING, byFact.severity(), "a fact symptom ranks as a warning");
    }

    @Test
    void flowsAreRankedByTheSeverityOfTheirSymptomsThenInLibraryOrder() {
        Flow warn = flow(twoSteps("no", "yes", "{\"findings\": [\"gdr-not-used\"]}").replace("\"id\": \"t\"", "\"id\": \"warn\""));
        Flow err = flow(twoSteps("no", "yes", ENTRY).replace("\"id\": \"t\"", "\"id\": \"err\""));
        Flow none = flow(twoSteps("no", "yes", "{\"findings\": [\"link-down\"]}").replace("\"id\": \"t\"", "\"id\": \"none\""));
        Flow err2 = flow(twoSteps("no", "yes", ENTRY).replace("\"id\": \"t\"", "\"id\": \"err2\""));
        List<FlowResult> ranked = ENGINE.run(List.of(none, warn, err, err2), context(finding("tcp-fallback", Severity.ERROR),
                finding("gdr-not-used", Severity.WARNING)), Map.of());
        assertEquals(List.of("err", "err2", "warn", "none"), ranked.stream().map(r -> r.flow().id()).toList());
    }

    @Test
    void aFactThatFailsAnswersUnknownWithTheReason() {
        FlowResult r = ENGINE.run(flow(twoSteps("no", "yes", ENTRY).replace("{\"fact\": \"says\", \"verdict\": \"no\"}",
                "{\"fact\": \"broken\"}")), context(finding("tcp-fallback", Severity.ERROR)), Map.of());
        assertEquals(Status.NEEDS_INPUT, r.status());
        assertTrue(r.steps().get(0).answer().detail().contains("fact broken failed: java.lang.IllegalStateException: boom"));
    }

    @Test
    void everyBuiltInFlowIsNotApplicableOnAnEmptyModel() {
        for (FlowResult r : FlowEngine.standard().run(FlowLibrary.builtIn().flows(), context(), Map.of())) {
            assertEquals(Status.NOT_APPLICABLE, r.status(), r.flow().id() + ": " + r.reason());
        }
    }
}
