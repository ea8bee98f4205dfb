package org.fabricscope.app.task;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * Holds each task until the test runs it, as the window's thread pool would later and in any order; the
 * calling thread plays the UI thread. For view-model tests of what a late, cancelled or reordered result does.
 */
public final class HeldTaskExecutor implements TaskExecutor {
    /** The tasks handed over and not yet run by {@link #runAll()} or {@link #runLastFirst()}, oldest first. */
    public final List<BackgroundTask<?>> tasks = new ArrayList<>();

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
        // nothing runs until the test says so
    }

    /** Runs the held tasks, oldest first. */
    public void runAll() {
        run(false);
    }

    /** Runs the held tasks newest first: their results come back in the reverse of the order they were asked for. */
    public void runLastFirst() {
        run(true);
    }

    private void run(boolean reversed) {
        List<BackgroundTask<?>> now = new ArrayList<>(tasks);
        tasks.clear();
        if (reversed) {
            Collections.reverse(now);
        }
        now.forEach(t -> t.run(Runnable::run));
    }
}
