package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.fabricscope.app.session.Session;
import org.fabricscope.app.session.SessionFile;
import org.fabricscope.app.task.CurrentThreadTaskExecutor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Compare tab's work without a window: the side the loaded capture takes, a saved session as the other capture,
 * the empty states told apart ("no differences" from "not in both captures"), and a capture that cannot be read
 * named in one message while what is loaded stays.
 */
class CompareViewModelTest {
    private static final Path GPU = Path.of("..", "sample-fabrics", "gpu-captures", "slow-h200x2-nccl-2.28.9");
    private static final Path HEALTHY = GPU.resolve("healthy");
    private static final Path DRIFT = GPU.resolve("env-drift-slow-socket-tuning");
    private static final Path FAT_TREE = Path.of("..", "sample-fabrics", "fat-tree-3tier-small");

    @TempDir
    Path dir;

    private static MainViewModel loaded(RecordingDialogs dialogs, Path... inputs) {
        for (Path p : inputs) {
            assumeTrue(Files.exists(p), "run from the app module of the repository: " + p);
        }
        MainViewModel vm = new MainViewModel(new CurrentThreadTaskExecutor(), dialogs);
        vm.open(List.of(inputs), false, null);
        return vm;
    }

    private static String titles(CompareRows rows) {
        return String.join(" | ", rows.groups().stream().map(g -> g.rows().isEmpty() ? g.title() + ": " + g.empty() : g.title()).toList());
    }

    @Test
    void theLoadedCaptureIsTheOldSideWhenAskedAndASessionStandsForItsInputs() throws Exception {
        RecordingDialogs dialogs = new RecordingDialogs();
        MainViewModel vm = loaded(dialogs, HEALTHY);
        Path session = dir.resolve("drift.fabricscope.json");
        SessionFile.write(session, new Session(List.of(DRIFT.toAbsolutePath().normalize().toString()), java.util.Map.of(), null));
        vm.compare().loadedIsOldProperty().set(true);
        vm.compare().compareWith(List.of(session));
        CompareRows rows = vm.compare().rowsProperty().get();
        assertTrue(rows != null, vm.statusProperty().get());
        assertEquals("Fabric: not in either capture | Counters: not in either capture | Hosts: no differences | Training (2) "
                + "| Kubernetes: not in either capture | Findings new (1) | Findings resolved: no differences | Findings unchanged (2)",
                titles(rows));
        CompareRows.Group training = rows.groups().stream().filter(g -> g.layer().equals("training")).findFirst().orElseThrow();
        assertTrue(training.rows().stream().allMatch(r -> r.kind().equals("added") && r.text().contains("NCCL_")), training.rows().toString());
        CompareRows.Group added = rows.groups().stream().filter(g -> g.layer().equals(CompareRows.FINDINGS_NEW)).findFirst().orElseThrow();
        assertEquals("config-drift", added.rows().get(0).subject(), "the drift is new in the other (newer) capture");
        assertTrue(vm.compare().headingProperty().get().contains("healthy"), vm.compare().headingProperty().get());
        assertEquals(List.of(), dialogs.shown);

        vm.compare().loadedIsOldProperty().set(false); // the other way round: the drift is resolved
        vm.compare().compareWith(List.of(DRIFT));
        CompareRows back = vm.compare().rowsProperty().get();
        assertEquals(1, back.groups().stream().filter(g -> g.layer().equals(CompareRows.FINDINGS_RESOLVED)).findFirst().orElseThrow().rows().size());
    }

    @Test
    void aCaptureComparedWithItselfHasNoDifferences() {
        RecordingDialogs dialogs = new RecordingDialogs();
        MainViewModel vm = loaded(dialogs, FAT_TREE);
        vm.compare().compareWith(List.of(FAT_TREE));
        CompareRows rows = vm.compare().rowsProperty().get();
        assertTrue(rows.summary().startsWith("No differences"), rows.summary());
        assertTrue(titles(rows).startsWith("Fabric: no differences | Counters: no differences | Hosts: not in either capture"), titles(rows));
        assertTrue(rows.marks().isEmpty());
    }

    @Test
    void aBadCaptureIsNamedAndWhatIsLoadedStays() throws Exception {
        RecordingDialogs dialogs = new RecordingDialogs();
        MainViewModel vm = loaded(dialogs, FAT_TREE);
        Snapshot before = vm.snapshot();
        vm.compare().compareWith(List.of(FAT_TREE)); // a result, which a bad capture must not clear
        CompareRows kept = vm.compare().rowsProperty().get();
        Path bad = Files.writeString(dir.resolve("garbage.txt"), "\u0000\u0001 not a dump\nstill not\n");
        vm.compare().compareWith(List.of(bad));
        assertSame(before, vm.snapshot(), "what is loaded stays");
        assertSame(kept, vm.compare().rowsProperty().get(), "and so does the last comparison");
        String status = vm.statusProperty().get();
        assertTrue(status.startsWith("Not compared: ") && status.contains("garbage.txt"), status);
        assertFalse(status.contains("Exception"), status);
        assertEquals(List.of("error: Compare with capture"), dialogs.shown);
        assertFalse(vm.compare().busyProperty().get());

        Path session = dir.resolve("gone.fabricscope.json");
        SessionFile.write(session, new Session(List.of(dir.resolve("no-such-capture").toString()), java.util.Map.of(), null));
        vm.compare().compareWith(List.of(session));
        assertTrue(vm.statusProperty().get().contains("none of the session's inputs exists here"), vm.statusProperty().get());
        assertSame(before, vm.snapshot());
    }

    @Test
    void loadingAnotherCaptureDropsTheComparison() {
        RecordingDialogs dialogs = new RecordingDialogs();
        MainViewModel vm = loaded(dialogs, FAT_TREE);
        vm.compare().compareWith(List.of(FAT_TREE));
        vm.open(List.of(HEALTHY), false, null);
        assertNull(vm.compare().rowsProperty().get());
        assertTrue(vm.compare().headingProperty().get().contains("compare again"));
    }
}
