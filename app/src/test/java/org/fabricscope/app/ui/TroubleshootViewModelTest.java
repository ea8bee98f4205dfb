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
    static final Path HOST_EVIDENCE = Path.of("..", "sample-fabrics", "host-evidence", "dgx-su1-h05");
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
    void aGidIndexPastedForTheGidStepIsShownAsReadAndNeverTakenForAnotherCommandsOutput() {
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
        assertTrue(vm.pasteReadingProperty().get().startsWith("Read from the paste: 3 (the number"), vm.pasteReadingProperty().get());
        assertFalse(vm.pasteRefusedProperty().get());
        vm.answer(Verdict.NO);
        assertEquals("", vm.pastedProperty().get());
        assertEquals(before, main.snapshot().paths().size(), "a GID index is the answer's evidence, not an input to import");
        assertTrue(main.snapshot().findings().stream().noneMatch(f -> f.id().equals("memlock-limit")),
                "the GID index was read as a ulimit -l: " + main.snapshot().findings());
        FlowResult r = vm.currentProperty().get();
        assertEquals(FlowResult.Status.CONCLUDED, r.status(), r.reason());
        assertEquals("set-gid-index", r.conclusion().id());
        // the answered step; after it, gid-listed finds no GID table among the inputs and the walk ends at set-gid-index
        FlowResult.StepResult answered = r.steps().stream().filter(s -> s.id().equals("gid-matches")).findFirst().orElseThrow();
        assertTrue(answered.given());
        assertEquals("3", answered.answer().evidence().get(0).text(), "the pasted output is the step's evidence");
        assertTrue(answered.answer().detail().endsWith("read from the paste: 3"), answered.answer().detail());
        assertEquals(Verdict.NO, vm.given().get("roce-gid-index/gid-matches").verdict());
        vm.restart();
        assertEquals(FlowResult.Status.NEEDS_INPUT, vm.currentProperty().get().status());
    }

    @Test
    void aPasteThatIsNotTheStepsCommandOutputIsRefusedAndTheAnswerNotTaken() {
        main.open(paths(K8S), false, null);
        vm.open("roce-gid-index");
        vm.pastedProperty().set("max locked memory           (kbytes, -l) 64\n");
        assertTrue(vm.pasteRefusedProperty().get());
        assertTrue(vm.pasteReadingProperty().get().contains("prints one number")
                && vm.pasteReadingProperty().get().contains("reads as ulimit -a / -l output"), vm.pasteReadingProperty().get());
        vm.answer(Verdict.YES);
        assertEquals(FlowResult.Status.NEEDS_INPUT, vm.currentProperty().get().status(), "the refused answer is not taken");
        assertTrue(vm.given().isEmpty());
        assertTrue(vm.messageProperty().get().startsWith("Not read: "), vm.messageProperty().get());
        assertFalse(vm.pastedProperty().get().isEmpty(), "the paste stays, to be corrected");
    }

    @Test
    void ibstatPastedForTheIbstatStepIsImportedAsIbstatAndTheFlowGoesOnFromIt() throws Exception {
        main.open(List.of(HOST_EVIDENCE.resolve("ls-dev-infiniband.txt")), false, null);
        vm.open("link-errors");
        TroubleshootViewModel.StepRow waiting = vm.waitingProperty().get();
        assertNotNull(waiting, vm.outcomeProperty().get());
        assertEquals("ports-active", waiting.step().id());
        vm.pastedProperty().set("64\n"); // ulimit -l output: not ibstat's
        assertTrue(vm.pasteRefusedProperty().get());
        assertTrue(vm.pasteReadingProperty().get().contains("this step takes ibstat output"), vm.pasteReadingProperty().get());
        vm.pastedProperty().set(Files.readString(HOST_EVIDENCE.resolve("ibstat.txt")));
        assertFalse(vm.pasteRefusedProperty().get(), vm.pasteReadingProperty().get());
        assertTrue(vm.pasteReadingProperty().get().startsWith("Read from the paste as ibstat: mlx5_0 port 1: active, link up, rate 200"),
                vm.pasteReadingProperty().get());
        int before = main.snapshot().paths().size();
        vm.answer(Verdict.YES);
        assertEquals(before + 1, main.snapshot().paths().size(), "ibstat output is imported with the inputs");
        Path file = main.snapshot().paths().get(before);
        assertEquals("ibstat.txt", file.getFileName().toString());
        assertEquals("ibstat", main.snapshot().result().formats().get(file.toString()), "read as ibstat, as its file declares");
        // the pasted ibstat shows mlx5_3 in Init: the walk now stops at port-init, answered from the paste
        FlowResult r = vm.currentProperty().get();
        assertEquals(FlowResult.Status.CONCLUDED, r.status(), r.reason());
        assertEquals("no-subnet-manager", r.conclusion().id());
        var init = main.snapshot().findings().stream().filter(f -> f.id().equals("port-not-active")).findFirst().orElseThrow();
        assertEquals(file.toString(), init.evidence().get(0).source());
        assertTrue(init.title().startsWith("unknown host mlx5_3 port 1"), "the paste's file names no host: " + init.title());
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
