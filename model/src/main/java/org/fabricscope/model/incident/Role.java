package org.fabricscope.model.incident;

import java.util.Locale;

/**
 * What a failure message means for an incident: {@link #CAUSE} (something broke here; it may be the
 * first failure), {@link #CONSEQUENCE} (it reports a failure elsewhere or earlier) or {@link #CONTEXT}
 * (shown on the timeline, never a conclusion). See {@code docs/signatures.md}.
 */
public enum Role {
    CAUSE, CONSEQUENCE, CONTEXT;

    private final String label = name().toLowerCase(Locale.ROOT);

    public String label() {
        return label;
    }

    /** The role a catalogue file names, or null. */
    public static Role of(String s) {
        for (Role r : values()) {
            if (r.label.equals(s)) {
                return r;
            }
        }
        return null;
    }
}
