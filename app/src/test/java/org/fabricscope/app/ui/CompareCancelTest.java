package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.app.task.CurrentThreadTaskExecutor;
import org.fabricscope.app.task.HeldTaskExecutor;
import org.junit.jupiter.api.Test;

/**
 * A comparison runs as a background task: busy while it runs, progress reported as the other capture is read,
 * Cancel stops it with what is loaded and no result; the task is held here and run when the test says.
 */
class CompareCancelTest {
    private static final Path FAT_TREE = Path.of("..", "sample-fabrics", "fat-tree-3tier-small");
    private static final Path BEFORE = Path.of("..", "sample-fabrics", "compare", "fat-tree-before");

    @Test
    void cancelStopsTheComparisonAndAFinishedOneReportedProgress() {
        assumeTrue(Files.isDirectory(FAT_TREE) && Files.isDirectory(BEFORE), "run from the app module of the repository");
        RecordingDialogs dialogs = new RecordingDialogs();
        MainViewModel main = new MainViewModel(new CurrentThreadTaskExecutor(), dialogs);
        main.open(List.of(FAT_TREE), false, null);
        Snapshot loaded = main.snapshot();
        HeldTaskExecutor held = new HeldTaskExecutor();
        CompareViewModel cmp = new CompareViewModel(main, held, dialogs, n -> { });

        cmp.compareWith(List.of(BEFORE));
        assertTrue(cmp.busyProperty().get(), "busy while the comparison runs");
        assertEquals(1, held.tasks.size());
        cmp.cancel();
        held.runAll();
        assertFalse(cmp.busyProperty().get());
        assertNull(cmp.rowsProperty().get());
        assertEquals("Compare cancelled", cmp.headingProperty().get());
        assertTrue(main.statusProperty().get().startsWith("Compare cancelled"), main.statusProperty().get());
        assertSame(loaded, main.snapshot());

        List<Double> progress = new ArrayList<>();
        cmp.progressProperty().addListener((o, a, p) -> progress.add(p.doubleValue()));
        cmp.compareWith(List.of(BEFORE));
        held.runAll();
        assertNotNull(cmp.rowsProperty().get(), cmp.headingProperty().get());
        assertTrue(progress.stream().anyMatch(p -> p > 0), "progress while reading: " + progress);
        assertFalse(cmp.busyProperty().get());
        assertEquals(List.of(), dialogs.shown);
    }
}
