package org.fabricscope.importers.logs;

import java.util.HashMap;
import java.util.Map;

import org.fabricscope.model.incident.IncidentLogBuilder;
import org.fabricscope.model.incident.LineScanner;

/**
 * The failure-signature scan of a log parser's lines: one {@link LineScanner} per source (a file, or a
 * pod's stream), made on its first line and closed when the source ends, so that what each source
 * found reaches the incident layer once. Not thread-safe: one per parser.
 */
final class SignatureScan {
    private final IncidentLogBuilder incident;
    private final Map<String, LineScanner> scanners = new HashMap<>();
    private LineScanner last;
    private String lastSource;

    SignatureScan(IncidentLogBuilder incident) {
        this.incident = incident;
    }

    void line(String source, String raw, int lineNumber) {
        if (last == null || !source.equals(lastSource)) {
            lastSource = source;
            last = scanners.computeIfAbsent(source, s -> incident.scanner(s, false));
        }
        last.line(raw, lineNumber);
    }

    /** The source ended: its scanner hands what it found to the incident layer. */
    void finish(String source) {
        LineScanner s = scanners.remove(source);
        if (s != null) {
            s.close();
            if (s == last) {
                last = null;
            }
        }
    }

    /** All input ended. */
    void finishAll() {
        scanners.values().forEach(LineScanner::close);
        scanners.clear();
        last = null;
    }
}
