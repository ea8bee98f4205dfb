package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.app.prefs.RecentFiles;
import org.fabricscope.app.task.HeldTaskExecutor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The task pool runs the store's writes side by side and hands their results back in any order: File › Open
 * Recent must still end as the writes were asked for, in the store and in the menu.
 */
class RecentFilesModelTest {
    @TempDir
    Path config;

    @Test
    void aClearAfterOpensEndsEmptyWhateverOrderTheTasksFinishIn() {
        HeldTaskExecutor pool = new HeldTaskExecutor();
        List<String> status = new ArrayList<>();
        RecentFilesModel recent = new RecentFilesModel(new RecentFiles(config), pool, status::add);
        recent.opened(List.of(Path.of("/data/a.txt")));
        recent.opened(List.of(Path.of("/data/b.txt")));
        recent.clear();
        assertTrue(recent.list().isEmpty(), "the menu empties at once");
        pool.runLastFirst();
        assertTrue(recent.list().isEmpty(), "an open's late result does not bring its file back: " + recent.list());
        assertTrue(new RecentFiles(config).entries().isEmpty(), "nor does its write: " + new RecentFiles(config).entries());
        assertEquals(List.of(), status);
        recent.dispose();
    }

    @Test
    void opensEndNewestFirstWhateverOrderTheTasksFinishIn() {
        HeldTaskExecutor pool = new HeldTaskExecutor();
        RecentFilesModel recent = new RecentFilesModel(new RecentFiles(config), pool, s -> { });
        for (String name : List.of("a.txt", "b.txt", "c.txt")) {
            recent.opened(List.of(Path.of("/data", name)));
        }
        pool.runLastFirst();
        List<List<Path>> expected = List.of(List.of(Path.of("/data/c.txt")), List.of(Path.of("/data/b.txt")),
                List.of(Path.of("/data/a.txt")));
        assertEquals(expected, recent.list(), "the first result handed back is the newest write's; older ones do not replace it");
        assertEquals(expected, new RecentFiles(config).entries());
        recent.opened(List.of(Path.of("/data/a.txt")));
        pool.runLastFirst();
        assertEquals(Path.of("/data/a.txt"), recent.list().get(0).get(0), "opened again: back on top");
        recent.dispose();
    }
}
