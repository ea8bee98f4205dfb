package org.fabricscope.model.fabric;

import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.core.Vertex;

import java.util.Collection;
import java.util.Collections;

/**
 * A switch, channel adapter or router, keyed by its node GUID. Fields are filled by
 * {@link FabricModelBuilder} from whichever files mention the node; read-only afterwards.
 */
public final class FabricNode implements Vertex {
    private final long guid;
    private final NodeKind kind;
    private final String id;
    String description = "";
    String switchName;
    String switchModel;
    int numPorts;
    long sysImgGuid;
    int vendorId;
    int deviceId;
    int lid;
    int lmc;
    Boolean enhancedPort0;
    CaRole role = CaRole.NOT_A_CA;
    Tier tier;
    Host host;
    Evidence evidence;
    /** Where the node's own name (its node line or header, not a peer's remark) was read; null when none was. */
    Evidence nameEvidence;
    final PortTable ports = new PortTable();
    /** Where this node's own LLDP neighbour table was read (its capture); null when none was. */
    Evidence neighbourTable;

    FabricNode(long guid, NodeKind kind) {
        this.guid = guid;
        this.kind = kind;
        this.id = kind.idPrefix() + "-" + Guids.format(guid).substring(2);
        this.role = kind == NodeKind.CA ? CaRole.HOST : CaRole.NOT_A_CA;
    }

    public long guid() {
        return guid;
    }

    public NodeKind kind() {
        return kind;
    }

    public boolean isSwitch() {
        return kind == NodeKind.SWITCH;
    }

    /** The ibnetdiscover id, {@code S-1c34da0300728866}. */
    @Override
    public String id() {
        return id;
    }

    /** The switch name out of {@code MF0;NAME:MODEL/U1}, the trimmed description otherwise. */
    @Override
    public String displayName() {
        if (switchName != null) {
            return switchName;
        }
        String d = description.strip();
        return d.isEmpty() ? Guids.format(guid) : d;
    }

    /** The NodeDescription as the tools printed it (possibly renamed by a node-name-map). */
    public String description() {
        return description;
    }

    /** The model out of {@code MF0;NAME:MODEL/U1} (e.g. MQM8700), or null. */
    public String switchModel() {
        return switchModel;
    }

    public int numPorts() {
        return numPorts;
    }

    public long sysImgGuid() {
        return sysImgGuid;
    }

    public int vendorId() {
        return vendorId;
    }

    public int deviceId() {
        return deviceId;
    }

    /** A switch's port-0 LID (all its ports answer on it), or a CA's first port LID; 0 if unknown. */
    public int lid() {
        if (lid != 0 || kind == NodeKind.SWITCH) {
            return lid;
        }
        for (Port p : ports.values()) {
            if (p.lid != 0) {
                return p.lid;
            }
        }
        return 0;
    }

    public int lmc() {
        return lmc;
    }

    /** Whether a switch's port 0 is enhanced; null when not printed. */
    public Boolean enhancedPort0() {
        return enhancedPort0;
    }

    public CaRole role() {
        return role;
    }

    /** Whether this is a host's HCA (not a SHARP node or switch management CA). */
    public boolean isHostAdapter() {
        return kind == NodeKind.CA && role == CaRole.HOST;
    }

    /** A switch's tier; null for CAs and routers. */
    public Tier tier() {
        return tier;
    }

    /** The host this adapter belongs to, or null. */
    public Host host() {
        return host;
    }

    public Evidence evidence() {
        return evidence;
    }

    /** Where this node's own LLDP neighbour table was read, or null: only its peers' tables (or none) mention it. */
    public Evidence neighbourTable() {
        return neighbourTable;
    }

    public Collection<Port> ports() {
        return ports.values();
    }

    public Port port(int number) {
        return ports.get(number);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FabricNode n && n.id.equals(id);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public String toString() {
        return id + " \"" + displayName() + "\"";
    }
}
