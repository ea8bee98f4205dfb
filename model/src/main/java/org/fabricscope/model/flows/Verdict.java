package org.fabricscope.model.flows;

import java.util.Locale;

/** How a step was answered: yes, no, or unknown for lack of evidence. */
public enum Verdict {
    YES, NO, UNKNOWN;

    private final String label = name().toLowerCase(Locale.ROOT);

    /** {@code yes}, {@code no} or {@code unknown}: how flow files and {@code diagnose --json} write it. */
    public String label() {
        return label;
    }

    /** The verdict of a label, or null when it is none of {@code yes}, {@code no}, {@code unknown}. */
    public static Verdict of(String label) {
        for (Verdict v : values()) {
            if (v.label.equals(label)) {
                return v;
            }
        }
        return null;
    }
}
