package org.fabricscope.model.core;

/** How bad a diagnostic or finding is. Declared most severe first, so natural order sorts worst first. */
public enum Severity {
    ERROR, WARNING, INFO;

    private final String label = name().toLowerCase(java.util.Locale.ROOT);

    public String label() {
        return label;
    }
}
