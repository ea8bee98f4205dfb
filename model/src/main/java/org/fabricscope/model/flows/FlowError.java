package org.fabricscope.model.flows;

import java.util.Objects;

/**
 * What is wrong with a flow file: the file (or built-in resource), the field as a JSON pointer
 * (RFC 6901, e.g. {@code /steps/2/yes}; empty for the whole document) and why.
 */
public record FlowError(String source, String pointer, String message) {
    public FlowError {
        Objects.requireNonNull(source, "source");
        pointer = pointer == null ? "" : pointer;
        Objects.requireNonNull(message, "message");
    }

    /** {@code flows/my.json: /steps/2/yes: no step or conclusion 'port-ative'}. */
    @Override
    public String toString() {
        return source + ": " + (pointer.isEmpty() ? "" : pointer + ": ") + message;
    }
}
