package org.fabricscope.app.task;

import java.util.concurrent.Executor;

/**
 * Runs each task at once on the calling thread, callbacks included: view-model tests need no toolkit,
 * no waiting and no second thread. The calling thread plays the UI thread.
 */
public final class CurrentThreadTaskExecutor implements TaskExecutor {
    @Override
    public <T> BackgroundTask<T> execute(BackgroundTask<T> task) {
        task.run(Runnable::run);
        return task;
    }

    @Override
    public Executor uiThread() {
        return Runnable::run;
    }

    @Override
    public void shutdown() {
        // nothing runs in the background
    }
}
