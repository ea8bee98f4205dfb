package org.fabricscope.model.fabric;

import java.util.Locale;

/**
 * Per-lane signalling rate names as infiniband-diags prints them, slowest first, with the
 * per-lane rate in Gb/s that iblinkinfo prints ("2.5 Gbps" ... "53.125 Gbps").
 */
public enum LinkSpeed {
    SDR(2.5), DDR(5.0), QDR(10.0), FDR10(10.3125), FDR(14.0625), EDR(25.78125), HDR(53.125),
    NDR(106.25), XDR(212.5);

    private final double laneGbps;

    LinkSpeed(double laneGbps) {
        this.laneGbps = laneGbps;
    }

    public double laneGbps() {
        return laneGbps;
    }

    public static LinkSpeed parse(String s) {
        if (s == null) {
            return null;
        }
        try {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The speed whose per-lane rate iblinkinfo prints as {@code gbps} (e.g. 25.78125), or null. */
    public static LinkSpeed fromLaneGbps(double gbps) {
        for (LinkSpeed s : values()) {
            if (Math.abs(s.laneGbps - gbps) < 1e-3) {
                return s;
            }
        }
        // Older iblinkinfo prints 10.0 for QDR and FDR10 alike and 5.0 for DDR.
        return null;
    }
}
