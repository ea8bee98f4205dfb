package org.fabricscope.model.flows;

import java.util.Objects;

/**
 * What is wrong with a flow file: the file (or built-in resource), the field as a JSON pointer
 * (RFC 6901, e.g. {@code /steps/2/yes}; empty for the whole document) and why. A pointer or message
 * longer than {@link #MAX_CHARS} (it quotes a hostile file's text) is cut there, saying how long it was.
 */
public record FlowError(String source, String pointer, String message) {
    public FlowError {
        Objects.requireNonNull(source, "source");
        pointer = cut(pointer == null ? "" : pointer);
        message = cut(Objects.requireNonNull(message, "message"));
    }

    /** The longest pointer or message kept whole. */
    public static final int MAX_CHARS = 1000;

    private static String cut(String s) {
        return s.length() <= MAX_CHARS ? s : s.substring(0, MAX_CHARS) + "... (cut: " + s.length() + " characters)";
    }

    /** {@code flows/my.json: /steps/2/yes: no step or conclusion 'port-ative'}. */
    @Override
    public String toString() {
        return source + ": " + (pointer.isEmpty() ? "" : pointer + ": ") + message;
    }
}
