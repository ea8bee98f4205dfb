package org.fabricscope.model.fabric;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.FabricEdge;

/**
 * One physical link between two ports. Each link is one edge however many files or both ends
 * report it; parallel cables between the same two switches are separate edges.
 */
public final class Cable implements FabricEdge {
    private final Port a;
    private final Port b;
    LinkWidth width;
    LinkSpeed speed;
    Evidence evidence;
    /** Where end a's and end b's own LLDP neighbour table listed this cable; null when it did not (or no LLDP was read). */
    Evidence reportedByA;
    Evidence reportedByB;

    Cable(Port a, Port b) {
        this.a = a;
        this.b = b;
    }

    public Port a() {
        return a;
    }

    public Port b() {
        return b;
    }

    public Port other(Port p) {
        return p == a ? b : p == b ? a : null;
    }

    /** Active width of the link, from the discovery output (either end), or null. */
    public LinkWidth width() {
        return width != null ? width : a.width != null ? a.width : b.width;
    }

    public LinkSpeed speed() {
        return speed != null ? speed : a.speed != null ? a.speed : b.speed;
    }

    /** {@code 4xHDR} as ibnetdiscover prints it, {@code ?} parts when unknown. */
    public String rateToken() {
        LinkWidth w = width();
        LinkSpeed s = speed();
        return (w == null ? "?" : w.token()) + (s == null ? "?" : s.name());
    }

    public Evidence evidence() {
        return evidence;
    }

    /** Where the LLDP neighbour table of this end's node listed the cable, or null when it did not. */
    public Evidence reportedBy(Port end) {
        return end == a ? reportedByA : end == b ? reportedByB : null;
    }

    /** Whether an LLDP neighbour table (either end's) listed this cable: an Ethernet link. */
    public boolean fromLldp() {
        return reportedByA != null || reportedByB != null;
    }

    public boolean touches(FabricNode n) {
        return a.node() == n || b.node() == n;
    }

    @Override
    public String toString() {
        return a + " <-> " + b;
    }
}
