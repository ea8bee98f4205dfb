package org.fabricscope.model.core;

import java.util.Objects;

/**
 * A problem met while reading input: which file, which line (1-based, 0 when not tied to a line)
 * and what was wrong. Importers report these instead of throwing.
 */
public record Diagnostic(Severity severity, String source, int line, String message) {
    public Diagnostic {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(message, "message");
        source = source == null ? "" : source;
    }

    public static Diagnostic error(String source, int line, String message) {
        return new Diagnostic(Severity.ERROR, source, line, message);
    }

    public static Diagnostic warning(String source, int line, String message) {
        return new Diagnostic(Severity.WARNING, source, line, message);
    }

    public static Diagnostic info(String source, int line, String message) {
        return new Diagnostic(Severity.INFO, source, line, message);
    }

    /** {@code file:line: severity: message}, the shape compilers use, so editors can jump to it. */
    @Override
    public String toString() {
        return source + (line > 0 ? ":" + line : "") + ": " + severity.label() + ": " + message;
    }
}
