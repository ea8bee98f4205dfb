package org.fabricscope.model.host;

import org.fabricscope.model.core.FabricEdge;
import org.fabricscope.model.core.Vertex;

/**
 * An edge of the host layer other than NVLink and C2C: a PCIe link (parent to child, carrying the
 * child's trained width and speed), a NIC to one of its nets, a net to its fabric HCA, the SMP
 * interconnect between two CPUs of a host, or a host to its CPUs.
 */
public final class HostLink implements FabricEdge {
    public enum Kind {
        /** Parent (CPU or PCI switch) to child; {@link #pci()} is the child whose link it is. */
        PCIE,
        /** A NIC to one of its nets. */
        NIC_NET,
        /** A net to the fabric HCA it is (joined by GUID or name). */
        NET_HCA,
        /** Between two CPUs (NUMA nodes) of one host: QPI/UPI, xGMI. */
        CPU_INTERCONNECT,
        /** A host to one of its CPUs. */
        HOST_CPU
    }

    private final Kind kind;
    private final Vertex a;
    private final Vertex b;
    private final PciDevice pci;

    public HostLink(Kind kind, Vertex a, Vertex b, PciDevice pci) {
        this.kind = kind;
        this.a = a;
        this.b = b;
        this.pci = pci;
    }

    public Kind kind() {
        return kind;
    }

    public Vertex a() {
        return a;
    }

    public Vertex b() {
        return b;
    }

    /** For PCIE links: the child device, whose width and speed this link has; else null. */
    public PciDevice pci() {
        return pci;
    }

    @Override
    public String toString() {
        return kind + " " + a.id() + " - " + b.id() + (pci != null ? " " + pci.linkLabel() : "");
    }
}
