package org.fabricscope.model.training;

/**
 * How two ranks' channel talks, as NCCL's {@code Channel ... via X} lines say it; ordered from the
 * fastest path to the slowest.
 */
public enum Transport {
    /** {@code P2P/IPC}, {@code P2P/CUMEM}, {@code P2P/direct pointer}: NVLink or PCIe peer access. */
    P2P("P2P"),
    /** {@code SHM/...}: through host shared memory. */
    SHM("SHM"),
    /** {@code NET/IB/N/GDRDMA}: InfiniBand or RoCE with GPU Direct RDMA. */
    NET_IB_GDR("NET/IB+GDRDMA"),
    /** {@code NET/IB/N}: InfiniBand or RoCE, staged through host memory. */
    NET_IB("NET/IB"),
    /** {@code NET/<plugin>}: another network plugin (AWS Libfabric, ...). */
    NET_OTHER("NET/other"),
    /** {@code NET/Socket/N}: TCP. */
    NET_SOCKET("NET/Socket");

    private final String label;

    Transport(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Classifies the text after {@code via}; null when it is not a known transport. */
    public static Transport ofVia(String via) {
        if (via.startsWith("P2P/")) {
            return P2P;
        }
        if (via.startsWith("SHM/")) {
            return SHM;
        }
        if (via.startsWith("NET/Socket")) {
            return NET_SOCKET;
        }
        if (via.startsWith("NET/IB")) { // NET/IB, NET/IBext, NET/IBext_v8, NET/IBP
            return via.contains("/GDRDMA") ? NET_IB_GDR : NET_IB;
        }
        if (via.startsWith("NET/")) {
            return NET_OTHER;
        }
        return null;
    }

    /** Whether this transport goes over a network (between hosts). */
    public boolean isNetwork() {
        return this == NET_IB_GDR || this == NET_IB || this == NET_OTHER || this == NET_SOCKET;
    }
}
