package org.fabricscope.model.evidence;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.fabric.PhysState;
import org.fabricscope.model.fabric.PortState;

/**
 * One HCA port as the host itself reports it ({@code ibstat}, {@code ibstatus}, {@code ibv_devinfo}):
 * logical and physical state, rate, LIDs, GUIDs and link layer. Unknown numbers are -1, unknown GUIDs 0,
 * unknown text empty. {@code evidence} is the line that gave the state. {@code activeMtu} is the port's active
 * (path) MTU in bytes as {@code ibv_devinfo} prints it ({@code active_mtu: 4096 (5)}), -1 when not printed.
 */
public record HcaPortStatus(String device, int port, PortState state, PhysState physState, String rate, int lid,
                            int smLid, long portGuid, long nodeGuid, String linkLayer, Evidence evidence, int activeMtu) {
    /** A port whose active MTU was not printed (ibstat, ibstatus). */
    public HcaPortStatus(String device, int port, PortState state, PhysState physState, String rate, int lid,
                         int smLid, long portGuid, long nodeGuid, String linkLayer, Evidence evidence) {
        this(device, port, state, physState, rate, lid, smLid, portGuid, nodeGuid, linkLayer, evidence, -1);
    }

    public HcaPortStatus {
        device = device == null ? "" : device;
        state = state == null ? PortState.UNKNOWN : state;
        physState = physState == null ? PhysState.UNKNOWN : physState;
        rate = rate == null ? "" : rate;
        linkLayer = linkLayer == null ? "" : linkLayer;
    }

    /** {@code mlx5_0:1}. */
    public String label() {
        return device + ":" + port;
    }

    /** This port with the fields {@code o} knows and this one does not (a second tool's view of the same port). */
    public HcaPortStatus merge(HcaPortStatus o) {
        return new HcaPortStatus(device, port, state != PortState.UNKNOWN ? state : o.state,
                physState != PhysState.UNKNOWN ? physState : o.physState, rate.isEmpty() ? o.rate : rate,
                lid >= 0 ? lid : o.lid, smLid >= 0 ? smLid : o.smLid, portGuid != 0 ? portGuid : o.portGuid,
                nodeGuid != 0 ? nodeGuid : o.nodeGuid, linkLayer.isEmpty() ? o.linkLayer : linkLayer,
                evidence != null && state != PortState.UNKNOWN ? evidence : o.evidence != null ? o.evidence : evidence,
                activeMtu >= 0 ? activeMtu : o.activeMtu);
    }
}
