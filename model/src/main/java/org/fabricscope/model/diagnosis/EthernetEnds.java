package org.fabricscope.model.diagnosis;

import org.fabricscope.model.fabric.Port;

/** How the Ethernet (RoCE) checks name a link's end: a switch by its name, a host NIC by its host. */
final class EthernetEnds {
    private EthernetEnds() {
    }

    /** The node an end belongs to as its own LLDP and configuration name it: the switch, or the NIC's host. */
    static String node(Port p) {
        if (p.node().isSwitch() || p.node().host() == null) {
            String n = p.node().displayName();
            return p.node().isSwitch() || !n.contains(" ") ? n : n.substring(0, n.indexOf(' '));
        }
        return p.node().host().name();
    }

    /**
     * The RoCE path MTU a netdev MTU allows, as Linux's {@code iboe_get_mtu} computes it (include/rdma/ib_addr.h):
     * the largest of 4096, 2048, 1024, 512, 256 that fits in the MTU less the RoCE headers ({@link #ROCE_HEADERS}
     * bytes: GRH 40, UDP 8, BTH 12, XRC 4, AtomicETH 28, ICRC 4); 0 when not even 256 fits.
     */
    static int roceMtu(int netdevMtu) {
        int room = netdevMtu - ROCE_HEADERS;
        for (int m = 4096; m >= 256; m /= 2) {
            if (room >= m) {
                return m;
            }
        }
        return 0;
    }

    /** The bytes Linux reserves for RoCE headers within the netdev MTU ({@code iboe_get_mtu}). */
    static final int ROCE_HEADERS = 96;
}
