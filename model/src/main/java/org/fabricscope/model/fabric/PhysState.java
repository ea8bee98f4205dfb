package org.fabricscope.model.fabric;

import java.util.Locale;

/** Physical port state (PortInfo.PortPhysicalState) as iblinkinfo prints it. */
public enum PhysState {
    SLEEP, POLLING, DISABLED, TRAINING, LINK_UP, ERROR_RECOVERY, PHY_TEST, UNKNOWN;

    public static PhysState parse(String s) {
        if (s == null) {
            return UNKNOWN;
        }
        switch (s.trim().toLowerCase(Locale.ROOT).replace(" ", "")) {
            case "sleep": return SLEEP;
            case "polling": return POLLING;
            case "disabled": return DISABLED;
            case "portconfigurationtraining":
            case "training": return TRAINING;
            case "linkup": return LINK_UP;
            case "linkerrorrecovery":
            case "errorrecovery": return ERROR_RECOVERY;
            case "phytest": return PHY_TEST;
            default: return UNKNOWN;
        }
    }
}
