package org.fabricscope.importers.core;

import java.io.IOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/**
 * The lines of one file, each read and prepared ({@link Preparer}: the part of a line's work that needs only the
 * line) on a thread of its own, while the reader's thread adds what the lines before said to the model. The lines
 * come back in order, in batches of at most {@link #BATCH} lines and about {@link #BATCH_CHARS} characters (at most
 * {@link #QUEUED} wait, so memory stays bounded and the reading thread waits when the model falls behind); a cut
 * line or one holding NUL comes back as a flag, without its text. The first batch is read on the caller's thread: a
 * file that short starts no thread, nor does one on a single processor, or where no thread can be started. What
 * reading or preparing a line threw is thrown by {@link #next()} when that line's turn comes, after every line
 * before it; so is whatever ended the read-ahead thread. Used by one thread, which must not touch the
 * {@link TextLines} it gave until {@link #close()}.
 */
final class LinePipeline implements AutoCloseable {
    /** The part of a line's work that depends on the line alone; called on one thread at a time, never two at once. */
    @FunctionalInterface
    interface Preparer {
        Object prepare(String line, int lineNumber);
    }

    static final int BATCH = 2048;
    /** Characters a batch holds at most, give or take a line: lines can be 64 KiB long. */
    static final int BATCH_CHARS = 1 << 20;
    static final int QUEUED = 4;

    private final TextLines lines;
    private final Preparer preparer;
    private final Cancellation cancel;
    private final IntConsumer reached;
    private final int batchSize;
    private final boolean ahead;
    private final BlockingQueue<Batch> queue = new ArrayBlockingQueue<>(QUEUED);
    private Thread thread;
    private volatile boolean abandoned;
    /** What ended the read-ahead thread without a last batch (an error outside any line), if anything did. */
    private volatile Throwable died;
    /** The batch being handed out, and the position of the current line in it. */
    private Batch batch;
    private int index = -1;

    /**
     * {@code reached} is told the number of each line as its turn comes, and, before a failure is thrown, the
     * number of the line it names (the line being prepared; for a failed read, the last line read, as a reader
     * without read-ahead reports it).
     */
    LinePipeline(TextLines lines, Preparer preparer, Cancellation cancel, IntConsumer reached) {
        this(lines, preparer, cancel, reached, BATCH, worthIt());
    }

    /** With {@code ahead} false no thread is started (every batch is read on the caller's thread). */
    LinePipeline(TextLines lines, Preparer preparer, Cancellation cancel, IntConsumer reached, int batchSize,
                 boolean ahead) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("a batch holds at least one line: " + batchSize);
        }
        this.lines = lines;
        this.preparer = preparer;
        this.cancel = cancel;
        this.reached = reached;
        this.batchSize = batchSize;
        this.ahead = ahead;
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
            batch = thread != null ? take() : fill(); // the first batch, and every batch without a thread, read here
            index = -1;
            if (first && !batch.last && ahead) {
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
            throw rethrown(f);
        }
        if (batch.cancelled) {
            throw new ImportCancelledException();
        }
        return false;
    }

    /** {@code f} thrown as it is when it can be; else (a checked exception some code threw unchecked) wrapped. */
    private static IOException rethrown(Throwable f) {
        if (f instanceof RuntimeException r) {
            throw r;
        }
        if (f instanceof Error e) {
            throw e;
        }
        if (f instanceof IOException io) {
            return io;
        }
        throw new IllegalStateException("reading ahead failed: " + f, f);
    }

    String line() {
        return batch.lines[index];
    }

    int lineNumber() {
        return batch.numbers[index];
    }

    /** Whether the line was longer than {@link TextLines#MAX_LINE} and cut; its text is then not kept (null). */
    boolean truncated() {
        return batch.truncated[index];
    }

    /** Whether the line holds a NUL byte; its text is then not kept (null). */
    boolean hasNul() {
        return batch.nul[index];
    }

    /** What {@link Preparer} made of the line; null for a cut line or one holding NUL, which is not prepared. */
    Object prepared() {
        return batch.prepared[index];
    }

    private void start() {
        Thread t = new Thread(this::run, "fabricscope-read-ahead");
        t.setDaemon(true);
        try {
            t.start();
            thread = t;
        } catch (OutOfMemoryError | SecurityException e) {
            // no thread to be had ("unable to create native thread"): the file is read here, as without read-ahead
        }
    }

    private void run() {
        try {
            while (!abandoned) {
                Batch b = fill();
                // never waits for room unboundedly: close() may find no heap to clear the queue (its lock can
                // allocate), so the thread looks at the abandon flag while it waits
                while (!queue.offer(b, 50, TimeUnit.MILLISECONDS)) {
                    if (abandoned) {
                        return;
                    }
                }
                if (b.last) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            // abandoned
        } catch (Throwable e) {
            // outside any line (no room for a batch, or to hand one over): the reader's thread finds it in take()
            died = e;
        }
    }

    /** The next batch from the thread; what ended the thread early, if it ended without the last one. */
    private Batch take() throws IOException {
        try {
            while (true) {
                Batch b = queue.poll(200, TimeUnit.MILLISECONDS);
                if (b != null) {
                    return b;
                }
                if (!thread.isAlive()) {
                    b = queue.poll(); // handed over just before it ended
                    if (b != null) {
                        return b;
                    }
                    Throwable f = died;
                    reached.accept(lines.lineNumber());
                    throw rethrown(f != null ? f : new IllegalStateException("the read-ahead thread ended early"));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ImportCancelledException();
        }
    }

    /** Reads and prepares up to a batch of lines; the last batch says why it ended early. */
    private Batch fill() {
        Batch b = new Batch(batchSize);
        boolean preparing = false;
        long chars = 0;
        try {
            while (b.size < batchSize && chars < BATCH_CHARS) {
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
                boolean nul = !cut && l.indexOf('\0') >= 0;
                b.numbers[b.size] = n;
                b.truncated[b.size] = cut;
                b.nul[b.size] = nul;
                if (!cut && !nul) { // those are only reported: their text is not kept
                    b.lines[b.size] = l;
                    chars += l.length();
                    preparing = true;
                    b.prepared[b.size] = preparer.prepare(l, n);
                    preparing = false;
                }
                b.size++;
                if ((n & 0xfff) == 0 && cancel.isCancelled()) {
                    b.cancelled = true;
                    b.last = true;
                    return b;
                }
            }
        } catch (IOException | RuntimeException | Error e) {
            b.failure = e;
            // the line being prepared; for a failed read, the last line read (as a reader without read-ahead says)
            b.failedAt = lines.lineNumber();
            b.last = true;
        }
        return b;
    }

    /**
     * Stops the reading thread, if one runs, and waits for it: it stops before its next line (a read blocked on
     * the input, a pipe or a stalled mount, is waited for). What it read is dropped, and once this returns it no
     * longer touches the lines, nor what the preparer writes (evidence the model keeps). The interrupt that stops it
     * may close the channel of a file it was reading: the input is abandoned anyway.
     */
    @Override
    public void close() {
        abandoned = true;
        batch = null;
        if (thread != null) {
            // nothing here may need heap: close() runs when the reader's thread ran out of it, and returning
            // before the thread ends would leave it holding its batches (the queue is cleared once it has ended)
            thread.interrupt();
            boolean interrupted = false;
            while (thread.isAlive()) {
                try {
                    thread.join();
                } catch (InterruptedException e) {
                    interrupted = true; // a cancelled import: still wait, then say so again
                }
            }
            queue.clear();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Lines, their numbers, whether each was cut or holds NUL, and what was prepared of each. */
    private static final class Batch {
        final String[] lines;
        final int[] numbers;
        final boolean[] truncated;
        final boolean[] nul;
        final Object[] prepared;
        int size;
        /** No batch follows: the input ended, was cancelled or failed. */
        boolean last;
        boolean cancelled;
        /** What reading or preparing the line after the batch's last threw, and the line it names. */
        Throwable failure;
        int failedAt;

        Batch(int capacity) {
            lines = new String[capacity];
            numbers = new int[capacity];
            truncated = new boolean[capacity];
            nul = new boolean[capacity];
            prepared = new Object[capacity];
        }
    }
}
