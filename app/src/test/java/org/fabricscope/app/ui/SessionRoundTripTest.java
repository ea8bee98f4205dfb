package org.fabricscope.app.ui;

import static org.fabricscope.app.nav.Samples.K8S;
import static org.fabricscope.app.nav.Samples.paths;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.fabricscope.app.render.ColourMode;
import org.fabricscope.app.session.SessionFile;
import org.fabricscope.app.task.CurrentThreadTaskExecutor;
import org.fabricscope.model.flows.FlowResult;
import org.fabricscope.model.flows.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * File › Save session… then Open session… in a fresh window: the same inputs loaded, the answer given to a manual
 * step (with its pasted output) walked again to the same conclusion, the same colours, filter, collapsed hosts and
 * side tab; a file that is not a session changes nothing loaded.
 */
class SessionRoundTripTest {
    @TempDir
    Path dir;

    @Test
    void aSavedSessionReopensAsItWas() throws Exception {
        RecordingDialogs dialogs = new RecordingDialogs();
        MainViewModel first = new MainViewModel(new CurrentThreadTaskExecutor(), dialogs);
        first.open(paths(K8S), false, null);
        TroubleshootViewModel t = first.troubleshoot();
        t.open("roce-gid-index");
        assertEquals("gid-matches", t.waitingProperty().get().step().id());
        t.pastedProperty().set(TroubleshootViewModelTest.GID_LISTING);
        t.answer(Verdict.NO);
        assertEquals("set-gid-index", t.currentProperty().get().conclusion().id());
        first.loader().colourModeProperty().set(ColourMode.KUBERNETES);
        first.loader().collapseAllProperty().set(true);
        first.tabs().selectedProperty().set(SideTabs.Tab.TROUBLESHOOT);
        Path file = dir.resolve("incident.fabricscope.json");
        new SessionActions(first, new CurrentThreadTaskExecutor(), dialogs).saveSession(file, true);
        assertTrue(first.statusProperty().get().startsWith("Saved the session to "), first.statusProperty().get());
        String text = Files.readString(file);
        assertTrue(text.contains("\"format\" : \"fabricscope-session\""), text);

        MainViewModel second = new MainViewModel(new CurrentThreadTaskExecutor(), dialogs);
        boolean[] problemsOnly = {false};
        new SessionActions(second, new CurrentThreadTaskExecutor(), dialogs).openSession(file, b -> problemsOnly[0] = b);
        assertNotNull(second.snapshot(), second.statusProperty().get());
        assertEquals(first.snapshot().paths().stream().map(p -> p.toAbsolutePath().normalize()).toList(), second.snapshot().paths());
        assertEquals(first.snapshot().findings().size(), second.snapshot().findings().size());
        var given = second.troubleshoot().given().get("roce-gid-index/gid-matches");
        assertNotNull(given, second.troubleshoot().given().toString());
        assertEquals(Verdict.NO, given.verdict());
        assertEquals(TroubleshootViewModelTest.GID_LISTING, given.output());
        FlowResult walked = second.troubleshoot().walked().stream().filter(r -> r.flow().id().equals("roce-gid-index"))
                .findFirst().orElseThrow();
        assertEquals("set-gid-index", walked.conclusion().id(), "the answer walks the flow to the same conclusion");
        assertSame(ColourMode.KUBERNETES, second.loader().colourModeProperty().get());
        assertTrue(second.loader().collapseAllProperty().get());
        assertTrue(problemsOnly[0]);
        assertEquals(SideTabs.Tab.TROUBLESHOOT, second.tabs().selectedProperty().get());
        assertEquals(List.of(), dialogs.shown);
    }

    @Test
    void aFileThatIsNotASessionChangesNothing() throws Exception {
        RecordingDialogs dialogs = new RecordingDialogs();
        MainViewModel vm = new MainViewModel(new CurrentThreadTaskExecutor(), dialogs);
        vm.open(paths(K8S), false, null);
        Snapshot before = vm.snapshot();
        Path bad = Files.writeString(dir.resolve("notes.json"), "{\"format\": \"something-else\"}");
        new SessionActions(vm, new CurrentThreadTaskExecutor(), dialogs).openSession(bad, b -> { });
        assertSame(before, vm.snapshot(), "what is loaded stays");
        assertTrue(vm.statusProperty().get().contains("notes.json: not a FabricScope session"), vm.statusProperty().get());
        assertEquals(1, dialogs.shown.size());
        assertFalse(dialogs.shown.get(0).contains("Exception"), dialogs.shown.get(0));

        Path gone = Files.writeString(dir.resolve("gone.fabricscope.json"), SessionFile.text(new org.fabricscope.app.session.Session(
                List.of(dir.resolve("no-such-capture").toString()), java.util.Map.of(), null)));
        new SessionActions(vm, new CurrentThreadTaskExecutor(), dialogs).openSession(gone, b -> { });
        assertSame(before, vm.snapshot());
        assertTrue(vm.statusProperty().get().contains("none of its inputs exists here"), vm.statusProperty().get());
    }
}
