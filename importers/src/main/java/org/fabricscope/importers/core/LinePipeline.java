package org.fabricscope.importers.core;

import java.io.IOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.IntConsumer;

/**
 * The lines of one file, each read and prepared ({@link Preparer}: the part of a line's work that needs only the
 * line) on a thread of its own, while the reader's thread adds what the lines before said to the model. The lines
 * come back in order, in batches of {@link #BATCH} (at most {@link #QUEUED} wait, so memory stays bounded and
 * the reading thread waits when the model falls behind). The first batch is read on the caller's thread: a file
 * that short starts no thread. What reading or preparing a line threw is thrown by {@link #next()} when that
 * line's turn comes, after every line before it. Used by one thread, which must not touch the {@link TextLines}
 * it gave until {@link #close()}.
 */
final class LinePipeline implements AutoCloseable {
    /** The part of a line's work that depends on the line alone; called on one thread at a time, never two at once. */
    @FunctionalInterface
    interface Preparer {
        Object prepare(String line, int lineNumber);
    }

    static final int BATCH = 2048;
    static final int QUEUED = 4;

    private final TextLines lines;
    private final Preparer preparer;
    private final Cancellation cancel;
    private final IntConsumer reached;
    private final int batchSize;
    private final BlockingQueue<Batch> queue = new ArrayBlockingQueue<>(QUEUED);
    private Thread thread;
    /** An empty batch made before the thread starts, to say a failure that left no room to make one. */
    private final Batch spare = new Batch(0);
    private volatile boolean abandoned;
    /** The batch being handed out, and the position of the current line in it. */
    private Batch batch;
    private int index = -1;

    /**
     * {@code reached} is told the number of each line as its turn comes, and of the line whose reading or
     * preparing failed before that is thrown.
     */
    LinePipeline(TextLines lines, Preparer preparer, Cancellation cancel, IntConsumer reached) {
        this(lines, preparer, cancel, reached, BATCH);
    }

    LinePipeline(TextLines lines, Preparer preparer, Cancellation cancel, IntConsumer reached, int batchSize) {
        this.lines = lines;
        this.preparer = preparer;
        this.cancel = cancel;
        this.reached = reached;
        this.batchSize = batchSize;
    }

    /** Whether a thread of its own can speed a file up: not on one processor. */
    static boolean worthIt() {
        return Runtime.getRuntime().availableProcessors() > 1;
    }

    /** Moves to the next line; false after the last. */
    boolean next() throws IOException {
        while (batch == null || index + 1 >= batch.size) {
            if (batch != null && batch.last) {
                return end();
            }
            boolean first = batch == null;
            batch = thread != null ? take() : fill(); // the first batch, and every batch on one processor, read here
            index = -1;
            if (first && !batch.last && worthIt()) {
                start();
            }
        }
        index++;
        reached.accept(batch.numbers[index]);
        return true;
    }

    /** After the last line: what stopped the reading, if anything did, is thrown; else false. */
    private boolean end() throws IOException {
        Throwable f = batch.failure;
        if (f != null) {
            reached.accept(batch.failedAt);
            if (f instanceof IOException io) {
                throw io;
            }
            if (f instanceof RuntimeException r) {
                throw r;
            }
            throw (Error) f;
        }
        if (batch.cancelled) {
            throw new ImportCancelledException();
        }
        return false;
    }

    String line() {
        return batch.lines[index];
    }

    int lineNumber() {
        return batch.numbers[index];
    }

    boolean truncated() {
        return batch.truncated[index];
    }

    /** What {@link Preparer} made of the line; null for a cut line or one holding NUL, which is not prepared. */
    Object prepared() {
        return batch.prepared[index];
    }

    private void start() {
        thread = new Thread(this::run, "fabricscope-read-ahead");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (!abandoned) {
                Batch b;
                try {
                    b = fill();
                } catch (RuntimeException | Error e) {
                    // outside a line (a batch that could not be made: out of memory): said on a batch made beforehand,
                    // so that the reader's thread is never left waiting for one that will not come
                    spare.failure = e;
                    spare.failedAt = lines.lineNumber() + 1;
                    spare.last = true;
                    b = spare;
                }
                queue.put(b);
                if (b.last) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            // abandoned
        }
    }

    private Batch take() {
        try {
            return queue.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ImportCancelledException();
        }
    }

    /** Reads and prepares up to a batch of lines; the last batch says why it ended early. */
    private Batch fill() {
        Batch b = new Batch(batchSize);
        boolean preparing = false;
        try {
            while (b.size < batchSize) {
                if (abandoned) {
                    b.last = true;
                    return b;
                }
                String l = lines.next();
                if (l == null) {
                    b.last = true;
                    return b;
                }
                int n = lines.lineNumber();
                boolean cut = lines.truncated();
                b.lines[b.size] = l;
                b.numbers[b.size] = n;
                b.truncated[b.size] = cut;
                preparing = true;
                b.prepared[b.size] = cut || l.indexOf('\0') >= 0 ? null : preparer.prepare(l, n);
                preparing = false;
                b.size++;
                if ((n & 0xfff) == 0 && cancel.isCancelled()) {
                    b.cancelled = true;
                    b.last = true;
                    return b;
                }
            }
        } catch (IOException | RuntimeException | Error e) {
            b.failure = e;
            // the line being prepared, or the one being read when the reading failed
            b.failedAt = preparing ? lines.lineNumber() : lines.lineNumber() + 1;
            b.last = true;
        }
        return b;
    }

    /**
     * Stops the reading thread, if one runs, and waits for it (a line at most): what it read is dropped, and once
     * this returns it no longer touches the lines, nor what the preparer writes (evidence the model keeps).
     */
    @Override
    public void close() {
        abandoned = true;
        if (thread != null) {
            thread.interrupt();
            queue.clear();
            boolean interrupted = false;
            while (thread.isAlive()) {
                try {
                    thread.join();
                } catch (InterruptedException e) {
                    interrupted = true; // a cancelled import: still wait, then say so again
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Lines, their numbers, whether each was cut, and what was prepared of each. */
    private static final class Batch {
        final String[] lines;
        final int[] numbers;
        final boolean[] truncated;
        final Object[] prepared;
        int size;
        /** No batch follows: the input ended, was cancelled or failed. */
        boolean last;
        boolean cancelled;
        /** What reading or preparing the line after the batch's last threw, and that line's number. */
        Throwable failure;
        int failedAt;

        Batch(int capacity) {
            lines = new String[capacity];
            numbers = new int[capacity];
            truncated = new boolean[capacity];
            prepared = new Object[capacity];
        }
    }
}
