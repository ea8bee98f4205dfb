package org.fabricscope.model;

/** How bad a diagnostic or finding is. Declared most severe first, so natural order sorts worst first. */
public enum Severity {
    ERROR, WARNING, INFO;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
