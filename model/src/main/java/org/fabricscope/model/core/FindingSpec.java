package org.fabricscope.model.core;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One finding id a check may raise, as the catalogue ({@code fabricscope checks}) lists it: the id
 * (a published contract: ids only grow), its layer, its usual severity (a check may lower or raise it
 * case by case, e.g. an error-counter finding is a warning below the error threshold), what it means in
 * one line, and where its rule comes from (a seed document, a tool's manual, a vendor FAQ).
 */
public record FindingSpec(String id, Layer layer, Severity severity, String description, String source) {
    private static final Pattern ID = Pattern.compile("[a-z0-9]+(?:-[a-z0-9]+)*");

    public FindingSpec {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(layer, "layer");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(source, "source");
        if (!ID.matcher(id).matches()) {
            throw new IllegalArgumentException("finding id must be lower-case words joined by '-': " + id);
        }
        if (description.isBlank() || description.contains("\n")) {
            throw new IllegalArgumentException(id + ": description must be one non-empty line");
        }
    }
}
