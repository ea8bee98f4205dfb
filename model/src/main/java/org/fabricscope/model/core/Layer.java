package org.fabricscope.model.core;

import java.util.Locale;

/** The layer of the model a finding is about, as the check catalogue and {@code checks --json} name it. */
public enum Layer {
    FABRIC, HOST, KUBERNETES, TRAINING;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
