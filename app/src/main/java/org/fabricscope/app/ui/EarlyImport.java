package org.fabricscope.app.ui;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import org.fabricscope.app.task.BackgroundTask;
import org.fabricscope.app.task.TaskContext;
import org.fabricscope.importers.core.ImportCancelledException;

/**
 * The import of the paths named at launch, started before the toolkit: reading, checking and laying
 * out the files runs on a thread of its own while the window starts (class loading, CSS, the first
 * layout: over a second on a small machine), and the window's first open of exactly those paths, in
 * the default style, takes the result instead of starting again. Any other open cancels it. The
 * waiting task forwards its progress and its cancel, so the window behaves as with any import.
 */
final class EarlyImport implements TaskContext {
    private static final AtomicReference<EarlyImport> PENDING = new AtomicReference<>();

    private final List<Path> paths;
    private final CompletableFuture<Snapshot> result = new CompletableFuture<>();
    private volatile boolean cancelled;
    private volatile long done;
    private volatile long total = 1;
    private volatile String message;

    private EarlyImport(List<Path> paths) {
        this.paths = List.copyOf(paths);
    }

    /** Starts importing {@code paths} with {@code work} on a daemon thread; the last such import is the one kept. */
    static void start(List<Path> paths, BackgroundTask.Work<Snapshot> work) {
        EarlyImport early = new EarlyImport(paths);
        EarlyImport before = PENDING.getAndSet(early);
        if (before != null) {
            before.cancel();
        }
        Thread t = new Thread(() -> {
            try {
                early.result.complete(work.call(early));
            } catch (Exception | OutOfMemoryError e) {
                early.result.completeExceptionally(e);
            }
        }, "fabricscope-early-import");
        t.setDaemon(true);
        t.start();
    }

    /**
     * The early import of exactly {@code paths}, taken (a second call gets null); one of other paths
     * is cancelled and null returned.
     */
    static EarlyImport take(List<Path> paths) {
        EarlyImport early = PENDING.getAndSet(null);
        if (early == null) {
            return null;
        }
        if (!early.paths.equals(paths)) {
            early.cancel();
            return null;
        }
        return early;
    }

    void cancel() {
        cancelled = true;
    }

    /** Waits for the result in {@code ctx}'s task, passing on the progress, and the task's cancel to the import. */
    Snapshot await(TaskContext ctx) throws Exception {
        while (true) {
            try {
                return result.get(50, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (ctx.isCancelled()) {
                    cancel();
                    throw new ImportCancelledException();
                }
                ctx.updateProgress(done, total);
                String m = message;
                if (m != null) {
                    ctx.updateMessage(m);
                }
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof Exception ex) {
                    throw ex;
                }
                throw (Error) cause;
            }
        }
    }

    @Override
    public void updateProgress(long done, long total) {
        this.done = done;
        this.total = total;
    }

    @Override
    public void updateMessage(String message) {
        this.message = message;
    }

    @Override
    public boolean isCancelled() {
        return cancelled;
    }
}
