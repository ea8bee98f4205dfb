package org.fabricscope.app.live.kube;

import org.fabricscope.app.live.source.LogLine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Collects the lines of all streams of a {@link PodLogFollower} and hands them out in batches, so that
 * the consumer (parser, model, UI) works at most once per period (a frame) however many streams there are.
 *
 * <p>Memory is bounded without losing lines: when {@code capacity} lines wait, {@link #full()} turns true
 * and the follower stops reading from the API server until the consumer has taken them (the kubelet keeps
 * the log, TCP holds the rest back). So nothing is dropped for the parser; if the consumer is too slow
 * for the incoming rate, lines simply arrive later. A console that shows only the newest lines can draw
 * {@link LogLineBatch#tail(int)} and skip the rest for display only.
 *
 * <p>Threads: {@link #line}, {@link #lines} and {@link #status} may be called from any thread. Either call
 * {@link #poll()} yourself (from one thread), or {@link #start} a daemon thread that calls the consumer
 * with each non-empty batch, at most once per period (sooner when the batcher fills up); the consumer runs
 * on that thread, never on the UI thread, and a slow consumer makes batches bigger, never more frequent.
 */
public final class LogLineBatcher implements PodLogSink, AutoCloseable {
    /** Status changes kept between two batches; more are counted, not kept. */
    public static final int MAX_STATUSES = 10_000;

    private final int capacity;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition filled = lock.newCondition();
    private ArrayList<LogLine> lines = new ArrayList<>();
    private ArrayList<PodLogStatus> statuses = new ArrayList<>();
    private int statusesDropped;
    private volatile int size;
    private long total;
    private long fullTimes;
    private volatile Thread worker;
    private volatile boolean closed;

    /** @param capacity lines waiting at most before the streams are held back (e.g. 100,000) */
    public LogLineBatcher(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1");
        }
        this.capacity = capacity;
    }

    @Override
    public void line(LogLine line) {
        lock.lock();
        try {
            lines.add(line);
            added(1);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void lines(List<LogLine> more) {
        lock.lock();
        try {
            lines.addAll(more);
            added(more.size());
        } finally {
            lock.unlock();
        }
    }

    private void added(int n) {
        total += n;
        size = lines.size();
        if (size >= capacity) {
            fullTimes++;
            filled.signal();
        }
    }

    @Override
    public void status(PodLogStatus status) {
        lock.lock();
        try {
            if (statuses.size() < MAX_STATUSES) {
                statuses.add(status);
            } else {
                statusesDropped++;
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean full() {
        return size >= capacity;
    }

    /** Takes everything waiting (possibly nothing). */
    public LogLineBatch poll() {
        lock.lock();
        try {
            LogLineBatch b = new LogLineBatch(lines, statuses, statusesDropped);
            lines = new ArrayList<>(Math.min(capacity, Math.max(16, b.lines().size())));
            statuses = new ArrayList<>();
            statusesDropped = 0;
            size = 0;
            return b;
        } finally {
            lock.unlock();
        }
    }

    /** Lines taken in so far. */
    public long totalLines() {
        lock.lock();
        try {
            return total;
        } finally {
            lock.unlock();
        }
    }

    /** How many times the batcher filled up and held the streams back. */
    public long timesFull() {
        lock.lock();
        try {
            return fullTimes;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Starts a daemon thread that hands each non-empty batch to {@code consumer}, at most once per
     * {@code period} unless the batcher fills up. Only one such thread per batcher; stop it with {@link #close()}.
     */
    public synchronized void start(Duration period, Consumer<LogLineBatch> consumer) {
        if (worker != null || closed) {
            throw new IllegalStateException(closed ? "batcher closed" : "already started");
        }
        long periodNanos = Math.max(1, period.toNanos());
        Thread t = new Thread(() -> run(periodNanos, consumer), "podlog-batcher");
        t.setDaemon(true);
        worker = t;
        t.start();
    }

    private void run(long periodNanos, Consumer<LogLineBatch> consumer) {
        long next = System.nanoTime() + periodNanos;
        while (!closed) {
            lock.lock();
            try {
                long wait;
                while (!closed && size < capacity && (wait = next - System.nanoTime()) > 0) {
                    filled.awaitNanos(wait);
                }
            } catch (InterruptedException e) {
                return;
            } finally {
                lock.unlock();
            }
            next = System.nanoTime() + periodNanos;
            LogLineBatch b = poll();
            if (!b.isEmpty()) {
                consumer.accept(b);
            }
        }
    }

    /** Stops the thread started by {@link #start}, if any (the batch being consumed finishes first). */
    @Override
    public void close() {
        closed = true;
        Thread t = worker;
        if (t != null) {
            lock.lock();
            try {
                filled.signalAll();
            } finally {
                lock.unlock();
            }
            if (t != Thread.currentThread()) {
                try {
                    t.join(TimeUnit.SECONDS.toMillis(5));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
