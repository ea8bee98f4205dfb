package org.fabricscope.model.fabric;

import java.util.Locale;

/** Logical port state (PortInfo.PortState). INIT and ARMED mean no subnet manager has activated it. */
public enum PortState {
    DOWN, INIT, ARMED, ACTIVE, UNKNOWN;

    public static PortState parse(String s) {
        if (s == null) {
            return UNKNOWN;
        }
        switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "down": return DOWN;
            case "init":
            case "initialize": return INIT;
            case "armed": return ARMED;
            case "active": return ACTIVE;
            default: return UNKNOWN;
        }
    }
}
