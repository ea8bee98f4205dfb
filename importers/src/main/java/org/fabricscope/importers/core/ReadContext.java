package org.fabricscope.importers.core;

import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.diagnosis.ErrorThresholds;

/**
 * What a {@link FormatReader} reads into and reports to: the file's name, the model builder, the
 * diagnostics sink, the cancellation, and the state one import shares across its files (the
 * node-name-map, the thresholds found). One context serves a whole import; {@link #file} moves it
 * to the next file, {@link #applyStates()} ends it.
 */
public final class ReadContext {
    private final FabricModelBuilder builder;
    private final Cancellation cancel;
    private final Map<Class<?>, ImportState> states = new LinkedHashMap<>();
    private ErrorThresholds thresholds;
    private String source;
    private TextLines lines;
    private int line;

    public ReadContext(FabricModelBuilder builder, Cancellation cancel) {
        this.builder = builder;
        this.cancel = cancel;
    }

    /**
     * Starts the next file: {@link #source()} names it and the line last reached starts again at 0.
     * Called by whoever drives the readers (the importer), not by readers.
     */
    public ReadContext file(String source) {
        this.source = source;
        this.lines = null;
        this.line = 0;
        return this;
    }

    /** The file being read, as diagnostics and evidence name it. */
    public String source() {
        return source;
    }

    public FabricModelBuilder builder() {
        return builder;
    }

    /** Reports a problem in the input (with {@link #source()} and, where known, the line). */
    public void report(Diagnostic d) {
        builder.diagnostic(d);
    }

    public Cancellation cancellation() {
        return cancel;
    }

    /**
     * The stream as numbered lines (see {@link TextLines}), tracked so that a failure the reader
     * did not expect can be reported at the line it had reached.
     */
    public TextLines lines(InputStream in) {
        lines = new TextLines(in);
        return lines;
    }

    /**
     * The next line of {@code lines}, or null at the end; every 1,024 lines, an {@link ImportCancelledException}
     * when the import was cancelled. The loop of a reader that reads line by line.
     */
    public String nextLine(TextLines lines) throws java.io.IOException {
        String line = lines.next();
        if (line != null && (lines.lineNumber() & 1023) == 0 && cancel.isCancelled()) {
            throw new ImportCancelledException();
        }
        return line;
    }

    /** Tells the line a reader that does not use {@link #lines} has reached. */
    public void at(int line) {
        this.line = line;
    }

    /** The line the reader last reached (1-based), or 0 when it cannot tell. */
    public int line() {
        return lines != null ? lines.lineNumber() : line;
    }

    /**
     * The import's one state of this type (the node-name-map all node-name-map files fill), made by
     * {@code create} the first time; {@link #applyStates()} applies it after the last file.
     */
    public <T extends ImportState> T state(Class<T> type, Supplier<? extends T> create) {
        ImportState s = states.get(type);
        if (s == null) {
            s = create.get();
            states.put(type, s);
        }
        return type.cast(s);
    }

    /** Applies every {@link #state} to the builder, in the order they were made. Called once, after the last file. */
    public void applyStates() {
        states.values().forEach(s -> s.applyTo(builder));
    }

    /** The counter thresholds an {@code error_thresholds} file gave, or null. */
    public ErrorThresholds thresholds() {
        return thresholds;
    }

    public void setThresholds(ErrorThresholds thresholds) {
        this.thresholds = thresholds;
    }
}
