package org.fabricscope.importers.logs;

import java.util.HashMap;
import java.util.Map;

import org.fabricscope.model.incident.IncidentLogBuilder;
import org.fabricscope.model.incident.LineScanner;

/**
 * The failure-signature scan of a log parser's lines: one {@link LineScanner} per source (a file, or a
 * pod's stream), made on its first line and closed when the source ends, so that what each source
 * found reaches the incident layer once. While a whole file is read ({@link #startBeside()} to
 * {@link #endBeside(boolean)}) the scanners run on a thread of their own beside the parser
 * ({@link ScanPipeline}): each scanner still sees its source's lines in order, one thread at a time, so
 * what it finds is the same. Not thread-safe: one per parser.
 */
final class SignatureScan {
    private final IncidentLogBuilder incident;
    private final Map<String, LineScanner> scanners = new HashMap<>();
    private LineScanner last;
    private String lastSource;
    /** The thread the scanners run on while a file is read, or null: they run on the caller's. */
    private ScanPipeline beside;

    SignatureScan(IncidentLogBuilder incident) {
        this.incident = incident;
    }

    void line(String source, String raw, int lineNumber) {
        if (last == null || !source.equals(lastSource)) {
            lastSource = source;
            last = scanners.computeIfAbsent(source, s -> incident.scanner(s, false));
        }
        if (beside != null) {
            beside.line(last, raw, lineNumber);
        } else {
            last.line(raw, lineNumber);
        }
    }

    /** The source ended: its scanner hands what it found to the incident layer. */
    void finish(String source) {
        LineScanner s = scanners.remove(source);
        if (s != null) {
            if (beside != null) {
                beside.close(s);
            } else {
                s.close();
            }
            if (s == last) {
                last = null;
            }
        }
    }

    /** All input ended. */
    void finishAll() {
        for (LineScanner s : scanners.values()) {
            if (beside != null) {
                beside.close(s);
            } else {
                s.close();
            }
        }
        scanners.clear();
        last = null;
    }

    /**
     * From now on the scanners run on a thread of their own, when the machine has more than one
     * processor; {@link #endBeside(boolean)} must follow (in a {@code finally}).
     */
    void startBeside() {
        if (beside == null && ScanPipeline.worthIt()) {
            beside = new ScanPipeline();
        }
    }

    /**
     * Back to scanning on the caller's thread: waits until every line handed over is scanned (and every
     * scanner handed to {@link #finish} closed), then rethrows what the scan thread failed with, if it
     * did. With {@code abandon} (the import was cancelled) the lines not yet scanned are dropped and
     * nothing is waited for.
     */
    void endBeside(boolean abandon) {
        ScanPipeline p = beside;
        beside = null;
        if (p != null) {
            p.end(abandon);
        }
    }
}
