package org.fabricscope.model.core;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Work started on a thread of its own, beside what the caller does next, and joined when its result is
 * needed (on two cores, the map's layout beside the analysis), or deferred work that the first caller
 * of {@link #join} runs (a model's derived values). {@link #join} runs the work itself when no thread
 * took it, waits (uninterruptibly: the work is short and its result needed) when one did, and rethrows
 * what it threw, unwrapped.
 */
public final class Beside<T> {
    private final FutureTask<T> task;

    private Beside(Callable<T> work) {
        this.task = new FutureTask<>(work);
    }

    /** Starts {@code work} on a new daemon thread named {@code name}. */
    public static <T> Beside<T> start(String name, Callable<T> work) {
        Beside<T> b = new Beside<>(work);
        Thread t = new Thread(b.task, name);
        t.setDaemon(true);
        t.start();
        return b;
    }

    /** Work that {@link #join} runs on the caller's thread: for inputs too small to be worth a thread. */
    public static <T> Beside<T> deferred(Callable<T> work) {
        return new Beside<>(work);
    }

    /** The result; runs the work here when it has not started, else waits for it. */
    public T join() {
        task.run(); // nothing when the thread has started it
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return task.get();
                } catch (InterruptedException e) {
                    interrupted = true; // finish waiting, then pass the interrupt on
                }
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
