package org.fabricscope.app.ui;

import static org.fabricscope.app.nav.Samples.K8S;
import static org.fabricscope.app.nav.Samples.TRAINING;
import static org.fabricscope.app.nav.Samples.paths;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.fabricscope.app.nav.Navigation;
import org.fabricscope.app.task.CurrentThreadTaskExecutor;
import org.fabricscope.model.flows.FlowResult;
import org.fabricscope.model.flows.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Troubleshoot panel's view model without a stage: ranking, walking, a pasted manual step, links, the report. */
class TroubleshootViewModelTest {
    static final String GID_LISTING = "3\n";
    private final RecordingDialogs dialogs = new RecordingDialogs();
    private final MainViewModel main = new MainViewModel(new CurrentThreadTaskExecutor(), dialogs);
    private final TroubleshootViewModel vm = main.troubleshoot();

    @Test
    void whatsWrongOpensTheWorstApplicableFlowAndNotApplicableOnesSayWhy() {
        main.open(paths(TRAINING), false, null);
        List<FlowResult> results = vm.results();
        assertEquals(7, results.size());
        assertTrue(results.get(0).applicable());
        FlowResult last = results.get(results.size() - 1);
        assertFalse(last.applicable(), "not-applicable flows are ranked last");
        assertTrue(TroubleshootViewModel.text(last).contains("Its symptom is absent"), TroubleshootViewModel.text(last));
        main.troubleshoot(null);
        assertEquals(SideTabs.Tab.TROUBLESHOOT, main.tabs().selectedProperty().get());
        assertEquals(results.get(0).flow().id(), vm.flowIdProperty().get());
        vm.open("nccl-timeout");
        FlowResult r = vm.currentProperty().get();
        assertEquals(FlowResult.Status.CONCLUDED, r.status());
        assertEquals(r.steps().size(), vm.steps().size());
        assertTrue(vm.outcomeProperty().get().startsWith("Conclusion: " + r.conclusion().id()), vm.outcomeProperty().get());
        assertEquals(r.conclusion().remedies(), vm.remedies());
        assertNull(vm.waitingProperty().get());
        assertTrue(vm.headingProperty().get().contains("(nccl-timeout, concluded)"));
    }

    @Test
    void aStepsSubjectNavigatesAsAFindingsDoes() {
        main.open(paths(TRAINING), false, null);
        FindingsViewModel.SubjectRow row = null;
        for (FlowResult r : List.copyOf(vm.results())) {
            vm.open(r.flow().id());
            row = vm.steps().stream().flatMap(s -> s.subjects().stream())
                    .filter(s -> s.navigation() != Navigation.NONE).findFirst().orElse(null);
            if (row != null) {
                break;
            }
        }
        assertNotNull(row, "no flow's step has a subject the window shows");
        vm.showSubject(row);
        assertEquals(row.navigation(), main.navigationProperty().get());
    }

    @Test
    void aPastedManualStepIsImportedAndConcludes() {
        main.open(paths(K8S), false, null);
        int before = main.snapshot().paths().size();
        vm.open("roce-gid-index");
        TroubleshootViewModel.StepRow waiting = vm.waitingProperty().get();
        assertNotNull(waiting, vm.outcomeProperty().get());
        assertEquals("gid-matches", waiting.step().id());
        assertTrue(waiting.manual());
        assertTrue(waiting.step().command().contains("RoCE v2"), waiting.step().command());
        assertFalse(waiting.step().expect().isEmpty());
        vm.pastedProperty().set(GID_LISTING);
        vm.answer(Verdict.NO);
        assertEquals("", vm.pastedProperty().get());
        assertEquals(before + 1, main.snapshot().paths().size(), "the pasted output was imported with the loaded inputs");
        Path pasted = main.snapshot().paths().get(before);
        assertTrue(pasted.getFileName().toString().startsWith("fabricscope-roce-gid-index-gid-matches-"), pasted.toString());
        FlowResult r = vm.currentProperty().get();
        assertEquals(FlowResult.Status.CONCLUDED, r.status(), r.reason());
        assertEquals("set-gid-index", r.conclusion().id());
        // the answered step; after it, gid-listed finds no GID table among the inputs and the walk ends at set-gid-index
        FlowResult.StepResult answered = r.steps().stream().filter(s -> s.id().equals("gid-matches")).findFirst().orElseThrow();
        assertTrue(answered.given());
        assertEquals("3", answered.answer().evidence().get(0).text(), "the pasted output is the step's evidence");
        assertEquals(Verdict.NO, vm.given().get("roce-gid-index/gid-matches").verdict());
        vm.restart();
        assertEquals(FlowResult.Status.NEEDS_INPUT, vm.currentProperty().get().status());
    }

    @Test
    void aFindingLinksToTheFlowThatExplainsIt() {
        main.open(paths(TRAINING), false, null);
        assertEquals("nccl-timeout", vm.flowExplaining("nccl-timeout"));
        assertNull(vm.flowExplaining("no-such-finding"));
    }

    @Test
    void theReportIsWrittenWithTheWalkedFlows(@TempDir Path dir) throws Exception {
        main.open(paths(TRAINING), false, null);
        Path md = dir.resolve("r.md");
        Path html = dir.resolve("r.html");
        main.exportReport(md, null);
        main.exportReport(html, new byte[] {1, 2, 3});
        String m = Files.readString(md);
        assertTrue(m.startsWith("# FabricScope incident report — training-incident"), m);
        assertTrue(m.contains("(`nccl-timeout`, concluded)"), m);
        String h = Files.readString(html);
        assertTrue(h.contains("data:image/png;base64,AQID"), "the map inline");
        assertTrue(main.statusProperty().get().startsWith("Wrote the incident report to "), main.statusProperty().get());
    }
}
