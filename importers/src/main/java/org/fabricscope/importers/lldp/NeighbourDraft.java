package org.fabricscope.importers.lldp;

import org.fabricscope.model.core.Evidence;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** A neighbour being read, field by field, in any of lldpcli's formats. */
final class NeighbourDraft {
    /** At most this many management addresses are kept for one neighbour (lldpd sends a handful). */
    static final int MAX_MGMT = 16;
    /** Longest field value kept; lldpd caps a TLV at 511 bytes. */
    static final int MAX_VALUE = 512;

    final String localPort;
    final Evidence evidence;
    String chassisIdType = "";
    String chassisId = "";
    String sysName = "";
    String sysDescr = "";
    final Set<String> capabilities = new LinkedHashSet<>();
    boolean capabilitiesKnown;
    String portIdType = "";
    String portId = "";
    String portDescr = "";
    final List<String> mgmt = new ArrayList<>();
    /** Whether a value was over {@link #MAX_VALUE} or an address past {@link #MAX_MGMT} (reported by the reader). */
    private boolean cut;

    NeighbourDraft(String localPort, Evidence evidence) {
        this.localPort = localPort;
        this.evidence = evidence;
    }

    static String clean(String s) {
        if (s == null) {
            return "";
        }
        String t = s.strip();
        return t.length() > MAX_VALUE ? t.substring(0, MAX_VALUE) : t;
    }

    void capability(String type, boolean enabled) {
        capabilitiesKnown = true;
        if (enabled && type != null) {
            capabilities.add(type.strip().toLowerCase(Locale.ROOT));
        }
    }

    void mgmt(String ip) {
        String t = kept(ip);
        if (!t.isEmpty()) {
            if (mgmt.size() < MAX_MGMT) {
                mgmt.add(t);
            } else {
                cut = true;
            }
        }
    }

    private String kept(String s) {
        if (s != null && s.strip().length() > MAX_VALUE) {
            cut = true;
        }
        return clean(s);
    }

    LldpNeighbour build() {
        return new LldpNeighbour(kept(localPort), kept(chassisIdType), kept(chassisId), kept(sysName),
                kept(sysDescr), capabilities, capabilitiesKnown, kept(portIdType), kept(portId), kept(portDescr),
                mgmt, evidence, cut);
    }
}
