package org.fabricscope.app.task;

import java.util.concurrent.Executor;

/**
 * Runs {@link BackgroundTask}s off the UI thread and hands their outcome back on it. View models take
 * one in their constructor: the app passes the thread-pool one, tests {@link CurrentThreadTaskExecutor}.
 */
public interface TaskExecutor {
    /** Starts the task; its callbacks run on the UI thread. Returns the task, to cancel it. */
    <T> BackgroundTask<T> execute(BackgroundTask<T> task);

    /** Runs code on the UI thread (for results that arrive from threads this executor did not start). */
    Executor uiThread();

    /** Stops the worker threads; running tasks are interrupted. */
    void shutdown();
}
