package org.fabricscope.app.live.source;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The executor a live source gives its {@link java.net.http.HttpClient}: the source's pool, except that a task
 * handed over once the pool is shut down is dropped and counted instead of refused.
 *
 * <p>A JDK 17 {@code HttpClient} has no close; a source stops its client by shutting the pool down. Work in
 * flight at that moment (a request's first hand-off in {@code sendAsync}, a reply being read, a watch being
 * torn down) then hands the dead pool a task, and the {@link RejectedExecutionException} escapes on whatever
 * thread did it: a stack trace after a clean disconnect (fabric8 issues 6215, 6747 and 6863 report the same race
 * in its clients). Dropping is right once the source is closed: running the task elsewhere could reopen a
 * connection after the user disconnected. A task refused while the pool is open still throws.
 */
public final class QuietAfterClose implements Executor {
    private final ExecutorService pool;
    private final AtomicLong dropped = new AtomicLong();

    public QuietAfterClose(ExecutorService pool) {
        this.pool = pool;
    }

    @Override
    public void execute(Runnable task) {
        try {
            pool.execute(task);
        } catch (RejectedExecutionException e) {
            if (!pool.isShutdown()) {
                throw e;
            }
            dropped.incrementAndGet();
        }
    }

    public void shutdownNow() {
        pool.shutdownNow();
    }

    public boolean isShutdown() {
        return pool.isShutdown();
    }

    /** Tasks handed over after shutdown and dropped. */
    public long dropped() {
        return dropped.get();
    }
}
