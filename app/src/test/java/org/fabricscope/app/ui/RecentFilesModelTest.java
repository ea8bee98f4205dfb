package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Executor;

import org.fabricscope.app.prefs.RecentFiles;
import org.fabricscope.app.task.BackgroundTask;
import org.fabricscope.app.task.TaskExecutor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The task pool runs the store's writes side by side and hands their results back in any order: File › Open
 * Recent must still end as the writes were asked for, in the store and in the menu.
 */
class RecentFilesModelTest {
    @TempDir
    Path config;

    /** Holds the tasks; the test runs them, and so hands their results back, in the order it likes. */
    private static final class Held implements TaskExecutor {
        final List<BackgroundTask<?>> tasks = new ArrayList<>();

        @Override
        public <T> BackgroundTask<T> execute(BackgroundTask<T> task) {
            tasks.add(task);
            return task;
        }

        @Override
        public Executor uiThread() {
            return Runnable::run;
        }

        @Override
        public void shutdown() {
        }

        void runLastFirst() {
            List<BackgroundTask<?>> now = new ArrayList<>(tasks);
            tasks.clear();
            Collections.reverse(now);
            now.forEach(t -> t.run(Runnable::run));
        }
    }

    @Test
    void aClearAfterOpensEndsEmptyWhateverOrderTheTasksFinishIn() {
        Held pool = new Held();
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
        Held pool = new Held();
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
