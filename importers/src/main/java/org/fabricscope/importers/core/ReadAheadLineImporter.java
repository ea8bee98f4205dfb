package org.fabricscope.importers.core;

/**
 * A line reader whose lines are read ahead of their turn on several threads ({@link LineImporter#prepares()}), each
 * with a preparer of its own ({@link #preparer()}), and applied in line order by {@link #line(String, Object)}; or,
 * for the tests that hold the two ways to one model, every line read in its turn, prepared on the reader's thread.
 */
public abstract class ReadAheadLineImporter extends LineImporter {
    private final boolean readAhead;
    private final int batch;

    protected ReadAheadLineImporter() {
        this(true, 0);
    }

    /** With {@code readAhead} false every line is read in its turn; {@code batch} lines are read ahead at a time (0: the default). */
    protected ReadAheadLineImporter(boolean readAhead, int batch) {
        this.readAhead = readAhead;
        this.batch = batch;
    }

    @Override
    protected final boolean prepares() {
        return readAhead;
    }

    @Override
    protected final boolean preparesOnSeveralThreads() {
        return true;
    }

    @Override
    protected final int readAheadBatch() {
        return batch > 0 ? batch : super.readAheadBatch();
    }

    /** A preparer holding what one thread's preparing needs of its own (a scanner, a store of cited lines). */
    @Override
    protected abstract LinePreparer preparer();

    /** What the line says on its own, prepared on the reader's thread when lines are read in their turn. */
    @Override
    protected abstract Object prepare(String line, int lineNumber);

    /** Without read-ahead: the line prepared here, then read. */
    @Override
    protected final void line(String raw) {
        if (readAhead) {
            // prepare() belongs to the reading threads (their readers and cited lines), never called from here
            throw new IllegalStateException("a line that was not read ahead");
        }
        line(raw, prepare(raw, lineNumber));
    }

    @Override
    protected abstract void line(String raw, Object prepared);
}
