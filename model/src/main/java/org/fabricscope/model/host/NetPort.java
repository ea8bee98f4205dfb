package org.fabricscope.model.host;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.core.Vertex;

/**
 * One {@code <net>} of a NIC: a network device NCCL can use ({@code mlx5_0}, {@code eth0},
 * {@code rdmap79s0}), with its speed, port, GUID and GPUDirect support, and, once the model is
 * built, the fabric HCA it is ({@link #hca()}).
 */
public final class NetPort implements Vertex {
    /** How a net was matched to its HCA. */
    public enum Join {
        /** {@code guid} equals the HCA's system image GUID. */
        GUID,
        /** {@code guid} equals the system image GUID with its bytes reversed (NCCL prints the big-endian verbs value as a host-order integer). */
        GUID_BYTE_SWAPPED,
        /** By host name and device name: the HCA described {@code "<host> mlx5_N"}. */
        NAME,
        /** Not matched. */
        NONE
    }

    final Nic nic;
    final String name;
    int dev = -1;
    int speed = -1;
    int port = -1;
    String guidText = "";
    long guid;
    int gdr = -1;
    String latency = "";
    int maxconn = -1;
    int coll = -1;
    int rail = -1;
    int plane = -1;
    int index = -1;
    final Evidence evidence;
    FabricNode hca;
    Port hcaPort;
    Join join = Join.NONE;

    NetPort(Nic nic, String name, Evidence evidence) {
        this.nic = nic;
        this.name = name;
        this.evidence = evidence;
    }

    public Nic nic() {
        return nic;
    }

    public String name() {
        return name;
    }

    public int dev() {
        return dev;
    }

    /** Mbps as written; NCCL treats 0 or less as 10000. -1 when absent. */
    public int speed() {
        return speed;
    }

    public int port() {
        return port;
    }

    /** The GUID as written ({@code 0x9a70500003ae6d94}, or decimal {@code 17}). */
    public String guidText() {
        return guidText;
    }

    /** The GUID as a number (hex with 0x, decimal without), 0 when absent or unreadable. */
    public long guid() {
        return guid;
    }

    public int gdr() {
        return gdr;
    }

    public String latency() {
        return latency;
    }

    public int maxconn() {
        return maxconn;
    }

    public int coll() {
        return coll;
    }

    /** NCCL 2.30.7+ rail, -1 when absent. */
    public int rail() {
        return rail;
    }

    /** NCCL 2.30.7+ plane, -1 when absent. */
    public int plane() {
        return plane;
    }

    /** Position among the host's PCIe-attached nets in PCI order: the N of {@code NICN}; -1 for CPU-attached ones. */
    public int index() {
        return index;
    }

    public Evidence evidence() {
        return evidence;
    }

    /** The fabric HCA this net is, or null when none matched (or no fabric was loaded). */
    public FabricNode hca() {
        return hca;
    }

    /** The HCA port this net uses (its {@code port}, else the HCA's cabled port), or null. */
    public Port hcaPort() {
        return hcaPort;
    }

    public Join join() {
        return join;
    }

    /** Whether NCCL placed it on PCIe (false for a socket NIC under the CPU). */
    public boolean onPcie() {
        return nic.pci != null;
    }

    @Override
    public String id() {
        return "net:" + nic.topology.name() + "/" + name + (dev >= 0 ? "#" + dev : "");
    }

    @Override
    public String displayName() {
        return nic.topology.name() + " " + name + (Guids.isValid(guid) ? " (" + Guids.format(guid) + ")" : "");
    }

    @Override
    public String toString() {
        return id();
    }
}
