package org.fabricscope.importers;

import java.io.InputStream;

import org.fabricscope.importers.ibnet.NodeNameMap;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.diagnosis.ErrorThresholds;

/**
 * What a {@link FormatReader} reads into and reports to: the file's name, the model builder, the
 * diagnostics sink, the cancellation, and the state one import shares across its files (the
 * node-name-map, the thresholds found). One context serves a whole import; {@link #file} moves it
 * to the next file.
 */
public final class ReadContext {
    private final FabricModelBuilder builder;
    private final Cancellation cancel;
    private final NodeNameMap nodeNameMap = new NodeNameMap();
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

    /** Tells the line a reader that does not use {@link #lines} has reached. */
    public void at(int line) {
        this.line = line;
    }

    /** The line the reader last reached (1-based), or 0 when it cannot tell. */
    public int line() {
        return lines != null ? lines.lineNumber() : line;
    }

    /** The import's {@code --node-name-map} names: filled by node-name-map files, applied after all files are read. */
    public NodeNameMap nodeNameMap() {
        return nodeNameMap;
    }

    /** The counter thresholds an {@code error_thresholds} file gave, or null. */
    public ErrorThresholds thresholds() {
        return thresholds;
    }

    public void setThresholds(ErrorThresholds thresholds) {
        this.thresholds = thresholds;
    }
}
