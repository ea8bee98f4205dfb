package org.fabricscope.model.host;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Vertex;

/**
 * A network adapter: a {@code <nic>} element (under a {@code <pci>} device or directly under a
 * {@code <cpu>}), or a bare {@code <pci>} leaf of class {@code 0x02..} in a flattened file. A
 * dual-port adapter is one NIC with two {@link NetPort}s.
 */
public final class Nic implements Vertex {
    final HostTopology topology;
    final PciDevice pci;
    final Cpu cpu;
    final int index;
    final Evidence evidence;
    final List<NetPort> nets = new ArrayList<>();

    Nic(HostTopology topology, PciDevice pci, Cpu cpu, int index, Evidence evidence) {
        this.topology = topology;
        this.pci = pci;
        this.cpu = cpu;
        this.index = index;
        this.evidence = evidence;
    }

    public HostTopology topology() {
        return topology;
    }

    /** The PCI device, or null for a NIC attached straight to the CPU. */
    public PciDevice pci() {
        return pci;
    }

    public Cpu cpu() {
        return cpu;
    }

    public List<NetPort> nets() {
        return Collections.unmodifiableList(nets);
    }

    public Evidence evidence() {
        return evidence;
    }

    @Override
    public String id() {
        return "nic:" + topology.name() + "/" + (pci != null ? pci.busId : "cpu" + cpu.index + "-" + index);
    }

    @Override
    public String displayName() {
        StringBuilder sb = new StringBuilder(topology.name()).append(" NIC");
        if (pci != null) {
            sb.append(' ').append(pci.busId);
        }
        for (NetPort n : nets) {
            sb.append(' ').append(n.name);
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return id();
    }
}
