package org.fabricscope.importers.host;

import org.fabricscope.importers.core.Numbers;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.evidence.HcaPortStatus;
import org.fabricscope.model.evidence.HostEvidenceBuilder.Draft;
import org.fabricscope.model.fabric.PhysState;
import org.fabricscope.model.fabric.PortState;

/** One port's fields as ibstat, ibstatus and ibv_devinfo print them, gathered until the block ends. */
final class PortBlock {
    String device = "";
    int port = -1;
    PortState state = PortState.UNKNOWN;
    PhysState phys = PhysState.UNKNOWN;
    String rate = "";
    int lid = -1;
    int smLid = -1;
    long portGuid;
    long nodeGuid;
    String linkLayer = "";
    /** ibv_devinfo's active_mtu in bytes, -1 when not printed. */
    int activeMtu = -1;
    Evidence evidence;
    Evidence start;

    /** Writes the port when it has a device and number, and starts over; the node GUID carries on. */
    void flush(Draft draft) {
        if (!device.isEmpty() && port >= 0) {
            draft.hcaPort(new HcaPortStatus(device, port, state, phys, rate, lid, smLid, portGuid, nodeGuid, linkLayer,
                    evidence != null ? evidence : start, activeMtu));
        }
        port = -1;
        state = PortState.UNKNOWN;
        phys = PhysState.UNKNOWN;
        rate = "";
        lid = -1;
        smLid = -1;
        portGuid = 0;
        linkLayer = "";
        activeMtu = -1;
        evidence = null;
        start = null;
    }

    /** {@code PORT_ACTIVE (4)}, {@code 4: ACTIVE}, {@code Active}, {@code PORT_INIT}. */
    static PortState state(String s) {
        String t = s.strip();
        t = t.replaceFirst("^\\d+:\\s*", "").replaceFirst("\\s*\\(\\d+\\)$", "").replaceFirst("^PORT_", "");
        if (t.equalsIgnoreCase("ACTIVE_DEFER")) {
            return PortState.ACTIVE;
        }
        if (t.equalsIgnoreCase("Initializing")) { // ibstat's word for Init
            return PortState.INIT;
        }
        return PortState.parse(t);
    }

    /** {@code LINK_UP (5)}, {@code 5: LinkUp}, {@code LinkUp}, {@code POLLING (2)}. */
    static PhysState phys(String s) {
        String t = s.strip().replaceFirst("^\\d+:\\s*", "").replaceFirst("\\s*\\(\\d+\\)$", "").replace("_", "");
        return PhysState.parse(t);
    }

    /** {@code 0x1070fd0300123456} or {@code 1070:fd03:0012:3456}, or 0. */
    static long guid(String s) {
        String t = s.strip().replace(":", "");
        if (t.startsWith("0x") || t.startsWith("0X")) {
            t = t.substring(2);
        }
        if (t.isEmpty() || t.length() > 16) {
            return 0;
        }
        try {
            return Long.parseUnsignedLong(t, 16);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** A LID in decimal or {@code 0x} hex, or -1. */
    static int lid(String s) {
        String t = s.strip();
        int v = t.startsWith("0x") ? HostEvidenceReader.intOr(t.substring(2), 16, "LID")
                : HostEvidenceReader.intOr(t, 10, "LID");
        if (v > Numbers.MAX_LID) {
            throw new Numbers.OutOfRange("LID", t, "0.." + Numbers.MAX_LID);
        }
        return v;
    }
}
