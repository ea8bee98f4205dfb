package org.fabricscope.app.task;

import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * One piece of background work and what to do with its outcome, with no toolkit in it: the work
 * runs on a {@link TaskExecutor}'s thread; progress, success, failure and cancellation are delivered
 * on the UI thread, exactly one outcome per task, then {@code onFinished}. Cancelling delivers
 * {@code onCancelled} at once and suppresses a result that arrives later, so nothing half-done
 * replaces what is shown.
 *
 * <pre>{@code
 * executor.execute(BackgroundTask.of(ctx -> importer.importPaths(paths, ..., ctx::isCancelled))
 *         .onProgress((fraction, message) -> status.set(message))
 *         .onSuccess(this::apply)
 *         .onFailure(e -> dialogs.error("Import failed", e.getMessage())));
 * }</pre>
 */
public final class BackgroundTask<T> implements TaskContext {
    /** The work: runs off the UI thread and may report progress through its context. */
    @FunctionalInterface
    public interface Work<T> {
        T call(TaskContext context) throws Exception;
    }

    private final Work<T> work;
    private final AtomicBoolean outcomeDelivered = new AtomicBoolean();
    private final AtomicBoolean progressScheduled = new AtomicBoolean();
    private volatile boolean cancelled;
    private volatile Executor ui = Runnable::run;
    private volatile double fraction = -1;
    private volatile String message;
    private Consumer<? super T> onSuccess = v -> { };
    private Consumer<? super Throwable> onFailure = e -> { };
    private Runnable onCancelled = () -> { };
    private Runnable onFinished = () -> { };
    private BiConsumer<Double, String> onProgress = (f, m) -> { };

    private BackgroundTask(Work<T> work) {
        this.work = Objects.requireNonNull(work, "work");
    }

    public static <T> BackgroundTask<T> of(Work<T> work) {
        return new BackgroundTask<>(work);
    }

    /** Work without a result. */
    public static BackgroundTask<Void> ofRunnable(Runnable r) {
        return new BackgroundTask<>(ctx -> {
            r.run();
            return null;
        });
    }

    public BackgroundTask<T> onSuccess(Consumer<? super T> c) {
        onSuccess = Objects.requireNonNull(c);
        return this;
    }

    /** Called with what the work threw; never with a cancellation. */
    public BackgroundTask<T> onFailure(Consumer<? super Throwable> c) {
        onFailure = Objects.requireNonNull(c);
        return this;
    }

    public BackgroundTask<T> onCancelled(Runnable r) {
        onCancelled = Objects.requireNonNull(r);
        return this;
    }

    /** After any outcome (success, failure or cancellation). */
    public BackgroundTask<T> onFinished(Runnable r) {
        onFinished = Objects.requireNonNull(r);
        return this;
    }

    /** Progress as a fraction (-1 when unknown) and the latest message. */
    public BackgroundTask<T> onProgress(BiConsumer<Double, String> c) {
        onProgress = Objects.requireNonNull(c);
        return this;
    }

    @Override
    public void updateProgress(long done, long total) {
        fraction = total <= 0 ? -1 : Math.min(1, done / (double) total);
        scheduleProgress();
    }

    @Override
    public void updateMessage(String m) {
        message = m;
        scheduleProgress();
    }

    private void scheduleProgress() {
        if (progressScheduled.compareAndSet(false, true)) {
            ui.execute(() -> {
                progressScheduled.set(false);
                if (!outcomeDelivered.get()) {
                    onProgress.accept(fraction, message);
                }
            });
        }
    }

    @Override
    public boolean isCancelled() {
        return cancelled;
    }

    /**
     * Stops the task: the work sees {@link #isCancelled()} and its result, if any, is dropped;
     * {@code onCancelled} runs now (on the calling thread, which should be the UI thread) unless an
     * outcome was already delivered. Returns whether this call cancelled it.
     */
    public boolean cancel() {
        cancelled = true;
        if (outcomeDelivered.compareAndSet(false, true)) {
            onCancelled.run();
            onFinished.run();
            return true;
        }
        return false;
    }

    /** Whether an outcome was delivered (or the task was cancelled). */
    public boolean isDone() {
        return outcomeDelivered.get();
    }

    /**
     * Runs the work on the calling thread and delivers the outcome through {@code uiThread}. For
     * {@link TaskExecutor} implementations; never throws.
     */
    public void run(Executor uiThread) {
        this.ui = uiThread;
        T value = null;
        Throwable failure = null;
        if (!cancelled) {
            try {
                value = work.call(this);
            } catch (Throwable e) { // delivered to onFailure: nothing reaches a thread's default handler
                failure = e;
            }
        }
        T v = value;
        Throwable f = failure;
        uiThread.execute(() -> deliver(v, f));
    }

    private void deliver(T value, Throwable failure) {
        if (!outcomeDelivered.compareAndSet(false, true)) {
            return; // cancelled meanwhile: onCancelled already ran
        }
        try {
            if (cancelled) {
                onCancelled.run();
            } else if (failure != null) {
                onFailure.accept(failure);
            } else {
                onSuccess.accept(value);
            }
        } finally {
            onFinished.run();
        }
    }
}
