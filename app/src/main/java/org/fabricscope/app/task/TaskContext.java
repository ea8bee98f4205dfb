package org.fabricscope.app.task;

/** What a running {@link BackgroundTask} may tell its caller, and ask: progress, a message, and whether to stop. */
public interface TaskContext {
    /** {@code done} of {@code total} units; delivered on the UI thread, coalesced to the latest. */
    void updateProgress(long done, long total);

    /** A line for the status bar; delivered on the UI thread, coalesced to the latest. */
    void updateMessage(String message);

    /** True once the task was cancelled: long work checks it between steps and stops. */
    boolean isCancelled();
}
