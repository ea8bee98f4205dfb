package org.fabricscope.model.core;

/** A line of input that supports a finding: the file it came from, its line number and its text. */
public record Evidence(String source, int line, String text) {
    public Evidence {
        source = source == null ? "" : source;
        text = text == null ? "" : text;
    }

    /** A line of a file: what {@code new Evidence(source, line, text)} made (decision 0013: kinds of evidence). */
    public static Evidence at(String source, int line, String text) {
        return new Evidence(source, line, text);
    }
}
