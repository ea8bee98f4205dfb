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

    public boolean touches(FabricNode n) {
        return a.node() == n || b.node() == n;
    }

    @Override
    public String toString() {
        return a + " <-> " + b;
    }
}
