package org.fabricscope.app.ui;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

import org.fabricscope.app.task.BackgroundTask;
import org.fabricscope.app.task.TaskExecutor;

import javafx.application.Platform;

/**
 * The app's {@link TaskExecutor}: a pool of daemon threads ({@code fabricscope-worker-N}) for the work,
 * {@link Platform#runLater} for everything the task hands back. The FX thread only swaps results in.
 */
public final class FxTaskExecutor implements TaskExecutor {
    private final AtomicInteger threads = new AtomicInteger();
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "fabricscope-worker-" + threads.incrementAndGet());
        t.setDaemon(true);
        return t;
    });

    @Override
    public <T> BackgroundTask<T> execute(BackgroundTask<T> task) {
        try {
            pool.execute(() -> task.run(Platform::runLater));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            task.cancel(); // the window is closing
        }
        return task;
    }

    @Override
    public Executor uiThread() {
        return Platform::runLater;
    }

    @Override
    public void shutdown() {
        pool.shutdownNow();
    }
}
