package org.fabricscope.model.host;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Vertex;

/**
 * A CPU socket or NUMA node of a host, as NCCL's {@code <cpu numaid=...>} names it: the root of a
 * PCIe tree. Devices under two different CPUs reach each other through the SMP interconnect (SYS).
 */
public final class Cpu implements Vertex {
    final HostTopology topology;
    final int index;
    int numaId = -1;
    String affinity = "";
    String arch = "";
    String vendor = "";
    int familyId = -1;
    int modelId = -1;
    String hostHash = "";
    final Evidence evidence;
    final List<PciDevice> pciDevices = new ArrayList<>();
    final List<Nic> nics = new ArrayList<>();

    Cpu(HostTopology topology, int index, Evidence evidence) {
        this.topology = topology;
        this.index = index;
        this.evidence = evidence;
    }

    public HostTopology topology() {
        return topology;
    }

    /** Order of this CPU in its file, from 0. */
    public int index() {
        return index;
    }

    /** NUMA node id; -1 when the file says -1 (NCCL does on hosts without NUMA info) or nothing. */
    public int numaId() {
        return numaId;
    }

    /** The CPU mask NCCL printed (hex, comma-grouped), or empty. */
    public String affinity() {
        return affinity;
    }

    public String arch() {
        return arch;
    }

    public String vendor() {
        return vendor;
    }

    public int familyId() {
        return familyId;
    }

    public int modelId() {
        return modelId;
    }

    public String hostHash() {
        return hostHash;
    }

    public Evidence evidence() {
        return evidence;
    }

    /** The PCI devices directly below this CPU (root ports' children, virtual switches, bare leaves). */
    public List<PciDevice> pciDevices() {
        return Collections.unmodifiableList(pciDevices);
    }

    /** NICs attached straight to the CPU with no PCI device (NCCL's socket NICs, hand-written files). */
    public List<Nic> nics() {
        return Collections.unmodifiableList(nics);
    }

    @Override
    public String id() {
        return "cpu:" + topology.name() + "/" + index;
    }

    @Override
    public String displayName() {
        return "CPU " + (numaId >= 0 ? "NUMA " + numaId : "#" + index);
    }

    @Override
    public String toString() {
        return id();
    }
}
