package org.fabricscope.model.host;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.core.Vertex;

/**
 * How one GPU's traffic reaches the fabric: the GPU, the PCIe hops up to where it meets its nearest
 * NIC and down again, that NIC's net, the HCA the net is, the HCA port, and the switch port (leaf)
 * it is cabled to. Parts the input did not give are null ({@code hca} without a fabric loaded,
 * {@code leafPort} for an HCA port with no cable).
 */
public record GpuFabricPath(Gpu gpu, NetPort net, PathType affinity, List<Vertex> hops, FabricNode hca,
                            Port hcaPort, Port leafPort) {
    public GpuFabricPath {
        hops = hops == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(hops));
    }

    /** The leaf switch, or null. */
    public FabricNode leaf() {
        return leafPort == null ? null : leafPort.node();
    }

    /** Whether the path reaches a fabric switch. */
    public boolean complete() {
        return leafPort != null;
    }

    static GpuFabricPath of(HostTopology t, Gpu gpu) {
        AffinityMatrix m = t.affinity;
        NetPort net = m == null ? null : m.nearestNet(gpu);
        PathType type = null;
        if (net != null) {
            AffinityMatrix.Cell c = m.cell(gpu, net);
            type = c == null ? null : c.type();
        }
        List<Vertex> hops = new ArrayList<>();
        hops.add(gpu);
        if (net != null) {
            hops.addAll(pcieHops(t, gpu.pci, net.nic));
            hops.add(net);
        }
        FabricNode hca = net == null ? null : net.hca;
        Port hcaPort = net == null ? null : net.hcaPort;
        Port leafPort = hcaPort == null ? null : hcaPort.peer();
        if (hca != null) {
            hops.add(hca);
        }
        if (leafPort != null) {
            hops.add(leafPort.node());
        }
        return new GpuFabricPath(gpu, net, type, hops, hca, hcaPort, leafPort);
    }

    /** Vertices strictly between the GPU and the NIC, then the NIC: up to the common ancestor (or CPUs) and down. */
    private static List<Vertex> pcieHops(HostTopology t, PciDevice from, Nic nic) {
        List<Vertex> up = new ArrayList<>();
        List<Vertex> down = new ArrayList<>();
        PciDevice to = nic.pci;
        List<PciDevice> upA = new ArrayList<>();
        for (PciDevice x = from == null ? null : from.parent; x != null; x = x.parent) {
            upA.add(x);
        }
        List<PciDevice> upB = new ArrayList<>();
        for (PciDevice x = to == null ? null : to.parent; x != null; x = x.parent) {
            upB.add(x);
        }
        PciDevice common = null;
        for (PciDevice x : upA) {
            if (upB.contains(x)) {
                common = x;
                break;
            }
        }
        for (PciDevice x : upA) {
            up.add(t.vertexOf(x));
            if (x == common) {
                break;
            }
        }
        if (common == null) {
            Cpu ca = from == null ? null : from.cpu;
            Cpu cb = to != null ? to.cpu : nic.cpu;
            if (ca != null) {
                up.add(ca);
            }
            if (cb != null && cb != ca) {
                up.add(cb);
            }
        }
        for (PciDevice x : upB) {
            if (x == common) {
                break;
            }
            down.add(0, t.vertexOf(x));
        }
        up.addAll(down);
        up.add(nic);
        return up;
    }
}
