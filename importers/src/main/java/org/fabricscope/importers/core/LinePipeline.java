package org.fabricscope.importers.core;

import java.io.IOException;
import java.util.function.IntConsumer;

/**
 * The lines of one file, each read and prepared ({@link Preparer}: the part of a line's work that needs only the
 * line) on threads of their own, while the reader's thread adds what the lines before said to the model. The lines
 * come back in order, in batches of at most {@link #BATCH} lines and about {@link #BATCH_CHARS} characters (at most
 * {@link #QUEUED} are read ahead, so memory stays bounded and the reading threads wait when the model falls behind);
 * a cut line or one holding NUL comes back as a flag, without its text. Lines are read one batch at a time by one
 * thread at a time; with several threads ({@code workers}), each prepares the batches it read with a preparer of its
 * own while the next thread reads, and the batches are handed back in the order they were read. The first batch is
 * read on the caller's thread: a file that short starts no thread, nor does one on a single processor, or where no
 * thread can be started. What reading or preparing a line threw is thrown by {@link #next()} when that line's turn
 * comes, after every line before it; so is whatever ended a reading thread. Used by one thread, which must not touch
 * the {@link TextLines} it gave until {@link #close()}.
 */
final class LinePipeline implements AutoCloseable {
    /** The part of a line's work that depends on the line alone; each is called on one thread at a time. */
    @FunctionalInterface
    interface Preparer {
        Object prepare(String line, int lineNumber);
    }

    static final int BATCH = 2048;
    /** Characters a batch holds at most, give or take a line: lines can be 64 KiB long. */
    static final int BATCH_CHARS = 1 << 20;
    static final int QUEUED = 4;
    static final String THREAD_NAME = "fabricscope-read-ahead";

    private final TextLines lines;
    private final java.util.function.Supplier<Preparer> preparers;
    private final Preparer own;
    private final Cancellation cancel;
    private final IntConsumer reached;
    private final int batchSize;
    private final boolean ahead;
    private final int workers;
    private Thread[] threads;
    /** Taken while a batch is read: one thread reads at a time, and batches are numbered in the order read. */
    private final Object reading = new Object();
    /**
     * Guards what follows. A monitor, not a {@code java.util.concurrent} lock: {@link #close()} may run when the
     * heap is exhausted, and a contended lock of that package allocates its queue's nodes on the heap.
     */
    private final Object handOver = new Object();
    /** Batches read ahead and not yet taken, at their number modulo {@link #QUEUED}. */
    private final Batch[] slots = new Batch[QUEUED];
    /** The number the next batch read gets, and the number of the next the reader's thread takes. */
    private int nextRead = 1;
    private int nextTaken = 1;
    /** No batch is read after the last one (the input ended, was cancelled or failed, or a thread died). */
    private boolean ended;
    /** The first batch that will never come because a reading thread died without it, and what ended that thread. */
    private int lostFrom = Integer.MAX_VALUE;
    private Throwable died;
    /** The last line read before that thread ended, when it ended reading; else -1. */
    private int diedAt = -1;
    private volatile boolean abandoned;
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
        this(lines, () -> preparer, 1, cancel, reached, batchSize, ahead);
    }

    /**
     * With up to {@code workers} reading threads, each preparing with a preparer of its own from {@code preparers}
     * (the caller's thread takes one for the first batch).
     */
    LinePipeline(TextLines lines, java.util.function.Supplier<Preparer> preparers, int workers, Cancellation cancel,
                 IntConsumer reached, int batchSize, boolean ahead) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("a batch holds at least one line: " + batchSize);
        }
        if (workers < 1) {
            throw new IllegalArgumentException("at least one thread reads ahead: " + workers);
        }
        this.lines = lines;
        this.preparers = preparers;
        this.own = preparers.get();
        this.cancel = cancel;
        this.reached = reached;
        this.batchSize = batchSize;
        this.ahead = ahead;
        this.workers = workers;
    }

    /** Whether a thread of its own can speed a file up: not on one processor. */
    static boolean worthIt() {
        return Runtime.getRuntime().availableProcessors() > 1;
    }

    /**
     * Threads worth preparing lines at once, beside the reader's own: as many as there are processors, at most 3; or
     * what {@link LineImporter#READ_AHEAD_THREADS} says (1 to 8). The window asks for one core fewer: there a second
     * thread competed with the window's own start on two cores and showed it a second later, the map no sooner.
     */
    static int workersWorthIt() {
        int n = Integer.getInteger(LineImporter.READ_AHEAD_THREADS, Math.min(3, Runtime.getRuntime().availableProcessors()));
        return Math.max(1, Math.min(8, n));
    }

    /** Moves to the next line; false after the last. */
    boolean next() throws IOException {
        while (batch == null || index + 1 >= batch.size) {
            if (batch != null && batch.last) {
                return end();
            }
            boolean first = batch == null;
            if (first || threads == null) { // the first batch, and every batch without a thread, read here
                batch = read();
                prepare(batch, own);
            } else {
                batch = take();
            }
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

    /**
     * Starts the reading threads: every preparer and thread is made before any starts, so that a failure to make one
     * leaves none running unknown to close(); a thread that cannot be started leaves fewer reading ahead, or none.
     */
    private void start() {
        Preparer[] ps = new Preparer[workers];
        int n = 0;
        try {
            for (; n < workers; n++) {
                ps[n] = n == 0 ? own : preparers.get(); // the first thread goes on with the caller's preparer
            }
        } catch (RuntimeException | Error e) {
            if (n == 0) {
                throw e;
            }
            // fewer threads: those with a preparer
        }
        Thread[] ts = new Thread[n];
        for (int i = 0; i < n; i++) {
            Preparer p = ps[i];
            ts[i] = new Thread(() -> run(p), THREAD_NAME);
            ts[i].setDaemon(true);
        }
        threads = ts; // known to close() before any runs (one never started is not alive, and joins at once)
        int started = 0;
        for (Thread t : ts) {
            try {
                t.start();
                started++;
            } catch (OutOfMemoryError | SecurityException e) {
                break; // no thread to be had ("unable to create native thread"): fewer read ahead
            }
        }
        if (started == 0) {
            threads = null; // none: the file is read here, as without read-ahead
        }
    }

    /** A reading thread: reads a batch in its turn, prepares it, hands it over; until the last, or close(). */
    private void run(Preparer preparer) {
        int held = -1;
        int lastRead = -1;
        try {
            while (true) {
                Batch b;
                synchronized (reading) {
                    synchronized (handOver) {
                        while (!ended && !abandoned && nextRead - nextTaken >= QUEUED) {
                            handOver.wait(); // never unbounded: close() interrupts, and the flags are looked at again
                        }
                        if (ended || abandoned) {
                            return;
                        }
                        held = nextRead++;
                    }
                    try {
                        b = read();
                    } catch (Throwable t) { // no room for a batch: the line reached, under the lock reading is done under
                        lastRead = lines.lineNumber();
                        throw t;
                    }
                    if (b.last) {
                        synchronized (handOver) {
                            ended = true;
                            handOver.notifyAll();
                        }
                    }
                }
                prepare(b, preparer);
                synchronized (handOver) {
                    slots[held % QUEUED] = b;
                    held = -1;
                    if (b.last) {
                        ended = true; // its preparing failed: nothing after it is read
                    }
                    handOver.notifyAll();
                }
                if (b.last) {
                    return;
                }
            }
        } catch (Throwable e) {
            if (e instanceof InterruptedException && abandoned) {
                return; // close() stopped it
            }
            // outside any line (no room for a batch; something thrown where nothing should be): the batch this
            // thread held never comes, and the reader's thread finds that out in take(), in that batch's turn
            synchronized (handOver) {
                int lost = held >= 0 ? held : nextRead;
                if (lost < lostFrom) {
                    lostFrom = lost;
                    died = e;
                    diedAt = lastRead;
                }
                ended = true;
                handOver.notifyAll();
            }
        }
    }

    /** The next batch read ahead, in the order read; what ended the reading early, in its turn. */
    private Batch take() throws IOException {
        int want = nextTaken;
        Throwable f;
        int at;
        try {
            synchronized (handOver) {
                while (true) {
                    Batch b = slots[want % QUEUED];
                    if (b != null) {
                        slots[want % QUEUED] = null;
                        nextTaken = want + 1;
                        handOver.notifyAll();
                        return b;
                    }
                    if (want >= lostFrom || (ended && want >= nextRead) || !anyAlive()) {
                        f = died;
                        at = diedAt;
                        break;
                    }
                    handOver.wait(200);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ImportCancelledException();
        }
        if (at > 0) {
            reached.accept(at); // the last line read before the thread ended; else the last line handed out stands
        }
        throw rethrown(f != null ? f : new IllegalStateException("the read-ahead thread ended early"));
    }

    private boolean anyAlive() {
        for (Thread t : threads) {
            if (t.isAlive()) {
                return true;
            }
        }
        return false;
    }

    /** Reads up to a batch of lines (not yet prepared); the last batch says why it ended early. */
    private Batch read() {
        Batch b = new Batch(batchSize);
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
                }
                b.size++;
                if ((n & 0xfff) == 0 && cancel.isCancelled()) {
                    b.cancelled = true;
                    b.last = true;
                    return b;
                }
            }
        } catch (Throwable e) { // a checked exception some code threw unchecked too: the read's failure
            b.failure = e;
            b.failedAt = lines.lineNumber(); // the last line read, as a reader without read-ahead says
            b.last = true;
        }
        return b;
    }

    /**
     * Prepares a batch's lines in order; a line whose preparing throws ends the batch there (it becomes the last,
     * naming that line), and what its reading found after that line is dropped.
     */
    private static void prepare(Batch b, Preparer preparer) {
        for (int i = 0; i < b.size; i++) {
            String l = b.lines[i];
            if (l == null) {
                continue; // cut or NUL: not prepared
            }
            try {
                b.prepared[i] = preparer.prepare(l, b.numbers[i]);
            } catch (Throwable e) { // a checked exception some code threw unchecked too: the line's failure
                b.size = i;
                b.failure = e;
                b.failedAt = b.numbers[i];
                b.cancelled = false;
                b.last = true;
                return;
            }
        }
    }

    /**
     * Stops the reading threads, if any run, and waits for them: they stop before their next line (a read blocked on
     * the input, a pipe or a stalled mount, is waited for). What they read is dropped, and once this returns they no
     * longer touch the lines, nor what the preparers write (evidence the model keeps). The interrupt that stops them
     * may close the channel of a file being read: the input is abandoned anyway.
     */
    @Override
    public void close() {
        abandoned = true;
        batch = null;
        if (threads != null) {
            // nothing here may need heap: close() runs when the reader's thread ran out of it, and returning
            // before the threads end would leave them holding their batches (cleared once they have ended)
            for (Thread t : threads) {
                t.interrupt();
            }
            boolean interrupted = false;
            for (Thread t : threads) {
                while (t.isAlive()) {
                    try {
                        t.join();
                    } catch (InterruptedException e) {
                        interrupted = true; // a cancelled import: still wait, then say so again
                    }
                }
            }
            java.util.Arrays.fill(slots, null);
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
