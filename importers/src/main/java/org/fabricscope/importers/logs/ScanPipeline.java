package org.fabricscope.importers.logs;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.model.incident.LineScanner;

/**
 * Runs {@link LineScanner}s on a thread of their own beside the parser that reads a file: the parser
 * hands over its lines in batches of {@link #BATCH} (at most {@link #QUEUED} batches wait, so the
 * parser waits when the scan falls behind and memory stays bounded), and the scan thread gives each
 * line, and each close, to its scanner in the order they were handed over. The thread starts with
 * the first full batch: a file of fewer lines is scanned on the caller's thread at {@link #end}.
 * Used by one parser thread; the scanners it is given must not be used elsewhere until {@link #end}
 * returns (which waits for the scan thread, so what the scanners hold is then visible to the caller).
 */
final class ScanPipeline {
    /** Lines per batch handed over. */
    static final int BATCH = 4096;
    /** Batches that may wait for the scan thread. */
    static final int QUEUED = 4;
    private static final Batch END = new Batch();

    private final BlockingQueue<Batch> queue = new ArrayBlockingQueue<>(QUEUED);
    /**
     * Batches the scan thread is done with, emptied, for the parser to fill again: three arrays of 4,096 a batch
     * were 34 MB of garbage a pass over a 256 MB log. At most as many as can be out at once.
     */
    private final BlockingQueue<Batch> spare = new ArrayBlockingQueue<>(QUEUED + 2);
    private Thread thread;
    private Batch open = new Batch();
    private volatile boolean abandoned;
    /** What the scan thread failed with; the batches after it are skipped. */
    private volatile Throwable failed;

    /** Whether a thread of its own can speed the scan up: not on one processor. */
    static boolean worthIt() {
        return Runtime.getRuntime().availableProcessors() > 1;
    }

    void line(LineScanner scanner, String raw, int lineNumber) {
        if (open.add(scanner, raw, lineNumber)) {
            hand();
        }
    }

    /** The scanner's source ended: it is closed after the lines handed over before. */
    void close(LineScanner scanner) {
        if (open.add(scanner, null, 0)) {
            hand();
        }
    }

    private void hand() {
        if (thread == null) {
            thread = new Thread(this::run, "fabricscope-signature-scan");
            thread.setDaemon(true);
            thread.start();
        }
        put(open);
        Batch next = spare.poll();
        open = next != null ? next : new Batch();
    }

    private void put(Batch b) {
        try {
            queue.put(b);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            end(true);
            throw new ImportCancelledException();
        }
    }

    private void run() {
        try {
            while (true) {
                Batch b = queue.take();
                if (b == END) {
                    return;
                }
                if (abandoned || failed != null) {
                    continue; // taken all the same, so that the parser never waits on a full queue
                }
                try {
                    b.run();
                } catch (RuntimeException | Error e) {
                    failed = e;
                }
                b.clear();
                spare.offer(b); // dropped when full: the parser makes another
            }
        } catch (InterruptedException e) {
            // abandoned: the import was cancelled
        }
    }

    /** See {@link SignatureScan#endBeside(boolean)}. */
    void end(boolean abandon) {
        if (abandon) {
            abandoned = true;
            if (thread != null) {
                thread.interrupt(); // first: clearing takes the queue's lock, which can need heap the caller may lack
            }
            queue.clear();
            return;
        }
        if (thread == null) {
            open.run(); // a short file: never handed over
            return;
        }
        if (open.size > 0) {
            put(open);
        }
        open = new Batch();
        put(END);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            end(true);
            throw new ImportCancelledException();
        }
        Throwable f = failed;
        if (f instanceof RuntimeException r) {
            throw r;
        }
        if (f instanceof Error err) {
            throw err;
        }
    }

    /** Lines (a null line: a close) and the scanner each is for. */
    private static final class Batch {
        final LineScanner[] scanners = new LineScanner[BATCH];
        final String[] lines = new String[BATCH];
        final int[] numbers = new int[BATCH];
        int size;

        /** Adds one; true when the batch is then full. */
        boolean add(LineScanner scanner, String raw, int lineNumber) {
            scanners[size] = scanner;
            lines[size] = raw;
            numbers[size] = lineNumber;
            return ++size == BATCH;
        }

        /** Empties it, letting go of its lines. */
        void clear() {
            java.util.Arrays.fill(scanners, 0, size, null);
            java.util.Arrays.fill(lines, 0, size, null);
            size = 0;
        }

        void run() {
            for (int i = 0; i < size; i++) {
                if (lines[i] == null) {
                    scanners[i].close();
                } else {
                    scanners[i].line(lines[i], numbers[i]);
                }
            }
        }
    }
}
