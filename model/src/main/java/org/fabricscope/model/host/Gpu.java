package org.fabricscope.model.host;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Vertex;

/**
 * A GPU of a host: a {@code <gpu>} element under its {@code <pci>} device, or a bare {@code <pci>}
 * leaf of class {@code 0x03..} in a flattened file (then {@link #dev()} and the rest are -1).
 */
public final class Gpu implements Vertex {
    final HostTopology topology;
    final PciDevice pci;
    int dev = -1;
    int rank = -1;
    int sm = -1;
    int gdr = -1;
    String gcn = "";
    String arch = "";
    int index = -1;
    Evidence evidence;
    final List<NvLink> nvlinks = new ArrayList<>();
    final List<C2cLink> c2c = new ArrayList<>();

    Gpu(HostTopology topology, PciDevice pci, Evidence evidence) {
        this.topology = topology;
        this.pci = pci;
        this.evidence = evidence;
    }

    public HostTopology topology() {
        return topology;
    }

    /** The PCI device, or null for a GPU known only from {@code nvidia-smi topo -m}. */
    public PciDevice pci() {
        return pci;
    }

    public String busId() {
        return pci == null ? "" : pci.busId;
    }

    /** CUDA device index NCCL saw; -1 when not written (flattened files). */
    public int dev() {
        return dev;
    }

    /** Rank of the process that owns it in the communicator that dumped the file; -1 if unknown. */
    public int rank() {
        return rank;
    }

    /** Compute capability times ten (90 = Hopper); -1 if unknown. */
    public int sm() {
        return sm;
    }

    /** 1 when GPUDirect RDMA is supported, 0 when not, -1 when not written. */
    public int gdr() {
        return gdr;
    }

    /** RCCL's gcn (AMD architecture), or empty. */
    public String gcn() {
        return gcn;
    }

    public String arch() {
        return arch;
    }

    /** Position in PCI bus order from 0: the N of {@code GPUN} in {@code nvidia-smi topo -m}. */
    public int index() {
        return index;
    }

    public Evidence evidence() {
        return evidence;
    }

    public List<NvLink> nvlinks() {
        return Collections.unmodifiableList(nvlinks);
    }

    public List<C2cLink> c2c() {
        return Collections.unmodifiableList(c2c);
    }

    /** NVLinks to NVSwitches (including the invisible remote ones of multi-node NVLink). */
    public int nvswitchLinkCount() {
        long n = 0;
        for (NvLink l : nvlinks) {
            if (l.targetKind() == NvLink.TargetKind.NVSWITCH) {
                n += Math.max(0, l.count());
            }
        }
        return (int) Math.min(Integer.MAX_VALUE, n); // counts are bounded when read: never reached
    }

    /** {@code GPU0}, the name nvidia-smi gives it. */
    public String label() {
        return "GPU" + index;
    }

    @Override
    public String id() {
        return "gpu:" + topology.name() + "/" + (pci != null ? pci.busId : "dev" + dev);
    }

    @Override
    public String displayName() {
        return topology.name() + " " + label() + (pci != null ? " (" + pci.busId + ")" : "");
    }

    @Override
    public String toString() {
        return id();
    }
}
