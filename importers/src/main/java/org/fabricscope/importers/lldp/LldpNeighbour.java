package org.fabricscope.importers.lldp;

import org.fabricscope.model.core.Evidence;

import java.util.List;
import java.util.Set;

/**
 * One neighbour that one node's LLDP table lists on one of its interfaces, whatever the output format:
 * the local interface, the remote chassis (id and its type, system name and description, the capabilities
 * it says are enabled), the remote port (id and its type, description) and its management addresses.
 * Empty strings where the output had nothing.
 *
 * @param capabilitiesKnown whether the output listed capabilities at all (text and SONiC's table can omit them)
 * @param evidence          the line that starts this neighbour's entry
 * @param cut               whether a value past {@link NeighbourDraft#MAX_VALUE} characters was cut, or addresses past
 *                          {@link NeighbourDraft#MAX_MGMT} dropped
 */
public record LldpNeighbour(String localPort, String chassisIdType, String chassisId, String sysName, String sysDescr,
                            Set<String> capabilitiesEnabled, boolean capabilitiesKnown, String portIdType, String portId,
                            String portDescr, List<String> mgmtIps, Evidence evidence, boolean cut) {

    public LldpNeighbour {
        capabilitiesEnabled = Set.copyOf(capabilitiesEnabled);
        mgmtIps = List.copyOf(mgmtIps);
    }

    /** The remote node's name: its system name, else {@code chassis TYPE VALUE}; empty when neither was sent. */
    public String remoteNode() {
        if (!sysName.isEmpty()) {
            return sysName;
        }
        return chassisId.isEmpty() ? "" : "chassis " + (chassisIdType.isEmpty() ? "" : chassisIdType + " ") + chassisId;
    }

    /**
     * The remote port's interface name: the port id when its type names an interface ({@code ifname},
     * {@code local}: SONiC, Cumulus and lldpd with {@code portidsubtype ifname}), else the port description
     * when there is one (lldpd's default sends the MAC as id and the interface name as description), else the id.
     */
    public String remotePort() {
        if ((portIdType.equals("ifname") || portIdType.equals("local") || portIdType.isEmpty()) && !portId.isEmpty()) {
            return portId;
        }
        return !portDescr.isEmpty() ? portDescr : portId;
    }

    /** Whether the neighbour says it bridges or routes (a switch); false when it says neither or nothing. */
    public boolean saysSwitch() {
        return capabilitiesEnabled.contains("bridge") || capabilitiesEnabled.contains("router");
    }
}
