package org.fabricscope.app.ui;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.fabricscope.app.live.source.LogLine;
import org.fabricscope.app.ui.LogConsole.Line;

/**
 * Live log lines between the threads that read them and the UI thread that shows them: any thread offers, the UI thread
 * takes a batch per frame. At most {@code capacity} lines wait; past it the oldest waiting ones are dropped.
 */
final class LiveLineQueue {
    private final ConcurrentLinkedQueue<Line> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger count = new AtomicInteger();
    private final AtomicBoolean started = new AtomicBoolean();
    private final int capacity;

    LiveLineQueue(int capacity) {
        this.capacity = capacity;
    }

    /** Queues a batch (any thread); true for the first batch since the queue was started or stopped. */
    boolean offer(List<LogLine> batch) {
        for (LogLine l : batch) {
            waiting.add(Line.of(l));
        }
        int over = count.addAndGet(batch.size()) - capacity;
        for (int i = 0; i < over && waiting.poll() != null; i++) {
            count.decrementAndGet();
        }
        return started.compareAndSet(false, true);
    }

    /** Takes at most {@code max} waiting lines, oldest first (UI thread); empty when none waited. */
    List<Line> take(int max) {
        List<Line> batch = new ArrayList<>();
        Line l;
        while (batch.size() < max && (l = waiting.poll()) != null) {
            batch.add(l);
        }
        count.addAndGet(-batch.size());
        return batch;
    }

    /** The live job stopped: the next offer starts the queue again. */
    void stop() {
        started.set(false);
    }

    int size() {
        return count.get();
    }
}
