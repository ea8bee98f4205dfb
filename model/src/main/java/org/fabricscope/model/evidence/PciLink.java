package org.fabricscope.model.evidence;

import org.fabricscope.model.core.Evidence;

/**
 * A PCIe device's link as {@code lspci -vv} shows it: what it can do ({@code LnkCap}: speed in GT/s,
 * width in lanes) and what it trained to ({@code LnkSta}). Unknown numbers are 0.
 */
public record PciLink(String busId, String description, double capGts, int capWidth, double staGts, int staWidth,
                      Evidence evidence) {
    public PciLink {
        busId = busId == null ? "" : busId;
        description = description == null ? "" : description;
    }

    /** Trained narrower or slower than the device can. */
    public boolean degraded() {
        return staWidth > 0 && capWidth > 0 && staWidth < capWidth || staGts > 0 && capGts > 0 && staGts < capGts;
    }

    /** A GPU or network adapter (what NCCL's traffic crosses), by its lspci class. */
    public boolean gpuOrNic() {
        String d = description.toLowerCase(java.util.Locale.ROOT);
        return d.startsWith("infiniband controller") || d.startsWith("ethernet controller") || d.startsWith("network controller")
                || d.startsWith("3d controller") || d.startsWith("vga compatible controller");
    }
}
