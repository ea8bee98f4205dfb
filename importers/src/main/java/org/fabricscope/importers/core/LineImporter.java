package org.fabricscope.importers.core;

import java.io.IOException;
import java.io.InputStream;

import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.FabricModelBuilder;

/**
 * Base of the line-oriented readers: loops over lines, reports cut and binary lines, asks for
 * cancellation every few thousand lines, and hands each line to {@link #line}. A reader never
 * throws on bad input: it reports a diagnostic with the line number and keeps going.
 */
public abstract class LineImporter {
    protected FabricModelBuilder builder;
    protected String source;
    protected int lineNumber;
    private int badLines;
    /**
     * The texts of the lines this file's evidence cites, packed (a fabric of 100,000 endpoints cites each
     * node's line and both ends of each cable: 700,000 lines); one per file read.
     */
    private org.fabricscope.model.core.LineStore cited;

    /** Stops reporting each bad line after this many in one file, and says how many more there were. */
    private static final int MAX_REPORTED_BAD_LINES = 50;

    /**
     * Reads one file for a {@link FormatReader}: the context's source, builder and cancellation. The context is told
     * the line reached (for the line a failure names): through its tracked lines, or, when this reader
     * {@link #prepares()} and lines are read ahead, as each line's turn comes.
     */
    public final void read(InputStream in, ReadContext ctx) throws IOException {
        if (prepares()) {
            // read ahead on another thread: the context is told each line as its turn comes, not as it is read
            read(new TextLines(in), ctx.source(), ctx.builder(), ctx.cancellation(), ctx::at);
        } else {
            read(ctx.lines(in), ctx.source(), ctx.builder(), ctx.cancellation(), n -> { });
        }
    }

    public final void read(TextLines lines, String source, FabricModelBuilder builder, Cancellation cancel)
            throws IOException {
        read(lines, source, builder, cancel, n -> { });
    }

    private void read(TextLines lines, String source, FabricModelBuilder builder, Cancellation cancel,
                      java.util.function.IntConsumer reached) throws IOException {
        this.builder = builder;
        this.source = source;
        this.badLines = 0;
        this.cited = new org.fabricscope.model.core.LineStore();
        begin();
        if (prepares()) {
            int threads = preparesOnSeveralThreads() ? LinePipeline.workersWorthIt() : 1;
            try (LinePipeline p = new LinePipeline(lines, () -> preparer()::prepare, threads, cancel, reached,
                    readAheadBatch(), LinePipeline.worthIt())) {
                while (p.next()) {
                    lineNumber = p.lineNumber();
                    if (readable(p.truncated(), p.hasNul(), cancel)) {
                        line(p.line(), p.prepared());
                    }
                }
            }
        } else {
            String l;
            while ((l = lines.next()) != null) {
                lineNumber = lines.lineNumber();
                if (readable(lines.truncated(), l.indexOf('\0') >= 0, cancel)) {
                    line(l);
                }
            }
        }
        end();
        if (badLines > MAX_REPORTED_BAD_LINES) {
            builder.diagnostic(Diagnostic.warning(source, 0,
                    (badLines - MAX_REPORTED_BAD_LINES) + " more lines could not be read"));
        }
    }

    /** Whether the line may be read: not when the import was cancelled (thrown), nor when it was cut or holds NUL (reported). */
    private boolean readable(boolean truncated, boolean nul, Cancellation cancel) {
        if ((lineNumber & 0xfff) == 0 && cancel.isCancelled()) {
            throw new ImportCancelledException();
        }
        if (truncated) {
            bad("line is longer than " + TextLines.MAX_LINE + " bytes; ignored");
            return false;
        }
        if (nul) {
            bad("line holds binary data (NUL bytes); ignored");
            return false;
        }
        return true;
    }

    protected void begin() {
    }

    protected abstract void line(String line);

    /**
     * Whether this reader splits a line's work in two: {@link #prepare}, which needs only the line and runs on a
     * thread of its own ahead of the line's turn, and {@link #line(String, Object)}, which adds to the model in
     * line order. False (the default): every line goes to {@link #line(String)}.
     */
    protected boolean prepares() {
        return false;
    }

    /**
     * The part of the line's work that needs nothing but the line (and its number): it must touch no state that
     * {@link #line(String, Object)} or the builder use. Called on one thread at a time, in line order, for the
     * lines that are neither cut nor hold NUL; may return null.
     */
    protected Object prepare(String line, int lineNumber) {
        return null;
    }

    /**
     * The system property that sets how many threads prepare lines at once for a reader that
     * {@link #preparesOnSeveralThreads()} (1 to 8); unset, as many as there are processors, at most 3.
     */
    public static final String READ_AHEAD_THREADS = "fabricscope.readAheadThreads";

    /**
     * Whether several threads may prepare lines at once, each with a preparer of its own ({@link #preparer()}):
     * one reads a batch while the others prepare theirs. False (the default): one thread prepares every line.
     */
    protected boolean preparesOnSeveralThreads() {
        return false;
    }

    /**
     * What prepares lines on one thread. By default {@link #prepare} itself; a reader that
     * {@link #preparesOnSeveralThreads()} gives each thread one holding state of its own (a scanner, a store of
     * cited lines), which no other thread touches.
     */
    protected LinePreparer preparer() {
        return this::prepare;
    }

    /** The part of a line's work that needs only the line: see {@link #prepare}. */
    @FunctionalInterface
    protected interface LinePreparer {
        Object prepare(String line, int lineNumber);
    }

    /** Lines read ahead at a time when {@link #prepares()}; the first this many are read on the reader's thread. */
    protected int readAheadBatch() {
        return LinePipeline.BATCH;
    }

    /** A line and what {@link #prepare} made of it, in line order on the reader's thread. */
    protected void line(String line, Object prepared) {
        line(line);
    }

    protected void end() {
    }

    /** The line without surrounding blanks, or null for a blank line or a {@code #} comment. */
    protected static String content(String raw) {
        String l = raw.strip();
        return l.isEmpty() || l.startsWith("#") ? null : l;
    }

    /**
     * Matches a whole line; when it does not match, reports it as bad, naming what was expected,
     * and returns null.
     */
    protected final java.util.regex.Matcher matchOrReport(java.util.regex.Pattern p, String line, String expected) {
        java.util.regex.Matcher m = p.matcher(line);
        if (m.matches()) {
            return m;
        }
        bad("expected " + expected + "; got: " + (line.length() > 120 ? line.substring(0, 117) + "..." : line));
        return null;
    }

    /** Reports a line that could not be read, with what was expected. */
    protected final void bad(String message) {
        badLines++;
        if (badLines <= MAX_REPORTED_BAD_LINES) {
            builder.diagnostic(Diagnostic.warning(source, lineNumber, message));
        }
    }

    protected final org.fabricscope.model.core.Evidence evidence(String text) {
        if (cited == null) { // lines given without read()
            cited = new org.fabricscope.model.core.LineStore();
        }
        return org.fabricscope.model.core.Evidence.at(source, lineNumber, text.strip(), cited);
    }

    /** Parses a decimal int, or -1. */
    protected static int parseInt(String s) {
        if (s == null) {
            return -1;
        }
        try {
            return Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Parses {@code 0x2c9} or {@code 2c9} as hex, or -1. */
    protected static int parseHexInt(String s) {
        if (s == null) {
            return -1;
        }
        String t = s.trim();
        if (t.startsWith("0x") || t.startsWith("0X")) {
            t = t.substring(2);
        }
        try {
            return (int) Long.parseLong(t, 16);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
