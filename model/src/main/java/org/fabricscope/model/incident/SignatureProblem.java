package org.fabricscope.model.incident;

/**
 * Why a catalogue file, or one signature of it, was not loaded: the file, the entry (its id, or
 * {@code signatures[3]} when it has none), the field that is wrong and what is wrong with it.
 */
public record SignatureProblem(String file, String entry, String field, String message) {
    /** {@code file: entry: field: message}, leaving out the parts that are empty. */
    public String text() {
        StringBuilder b = new StringBuilder(file);
        if (!entry.isEmpty()) {
            b.append(": ").append(entry);
        }
        if (!field.isEmpty()) {
            b.append(": ").append(field);
        }
        return b.append(": ").append(message).toString();
    }
}
