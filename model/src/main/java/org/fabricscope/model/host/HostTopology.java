package org.fabricscope.model.host;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.FabricEdge;
import org.fabricscope.model.core.Vertex;
import org.jgrapht.Graph;

/**
 * What one host looks like inside, from its NCCL topology file (and optionally its NCCL graph
 * dump and {@code nvidia-smi topo -m}): CPUs (NUMA nodes), the PCIe tree with each link's width and
 * speed, GPUs, NICs with their nets, NVLink and C2C links, and the GPU x NIC affinity matrix.
 * Built by {@link HostTopologyBuilder}, named and joined to the fabric when the model is built;
 * read-only afterwards.
 */
public final class HostTopology {
    final String source;
    String name;
    HostNameSource nameSource = HostNameSource.NONE;
    int version = -1;
    String systemName = "";
    Evidence evidence;
    final List<String> sources = new ArrayList<>();
    final List<Cpu> cpus = new ArrayList<>();
    final List<PciDevice> pciDevices = new ArrayList<>();
    final Map<String, PciDevice> pciByBusId = new HashMap<>();
    final List<Gpu> gpus = new ArrayList<>();
    final List<Nic> nics = new ArrayList<>();
    final List<NetPort> nets = new ArrayList<>();
    final Map<String, NvSwitch> nvswitches = new LinkedHashMap<>();
    final List<NcclGraph> graphs = new ArrayList<>();
    final List<NvidiaSmiMatrix> reportedMatrices = new ArrayList<>();
    AffinityMatrix affinity;
    AffinityMatrix pcieAffinity;

    HostTopology(String source, String provisionalName) {
        this.source = source;
        this.name = provisionalName;
        sources.add(source);
    }

    /** The host name: a fabric host ({@code "<host> mlx5_0"}) when the join found one. */
    public String name() {
        return name;
    }

    public HostNameSource nameSource() {
        return nameSource;
    }

    /** The file the tree came from (the first file for this host). */
    public String source() {
        return source;
    }

    /** Every file that contributed: topology, graph, nvidia-smi. */
    public List<String> sources() {
        return Collections.unmodifiableList(sources);
    }

    /** {@code <system version>}: 1 for NCCL, 2 for RCCL; -1 when there was no system element. */
    public int version() {
        return version;
    }

    public String systemName() {
        return systemName;
    }

    /** The {@code <system>} line, or null. */
    public Evidence evidence() {
        return evidence;
    }

    /** Whether a PCIe tree was read (false for hosts known only from a graph dump or nvidia-smi). */
    public boolean hasTree() {
        return !cpus.isEmpty();
    }

    public List<Cpu> cpus() {
        return Collections.unmodifiableList(cpus);
    }

    /** Every PCI device in file order. */
    public List<PciDevice> pciDevices() {
        return Collections.unmodifiableList(pciDevices);
    }

    public PciDevice pciDevice(String busId) {
        return pciByBusId.get(busId == null ? null : busId.toLowerCase(java.util.Locale.ROOT));
    }

    /** GPUs in PCI bus order ({@code GPU0} first), as nvidia-smi numbers them. */
    public List<Gpu> gpus() {
        return Collections.unmodifiableList(gpus);
    }

    public Gpu gpuByBusId(String busId) {
        PciDevice p = pciDevice(busId);
        return p == null ? null : p.gpu;
    }

    /** The GPU with this CUDA dev, or null. */
    public Gpu gpuByDev(int dev) {
        for (Gpu g : gpus) {
            if (g.dev == dev) {
                return g;
            }
        }
        return null;
    }

    /** NIC devices: a dual-port adapter counts once. */
    public List<Nic> nics() {
        return Collections.unmodifiableList(nics);
    }

    /** Nets (ports NCCL can use): a dual-port adapter counts twice. */
    public List<NetPort> nets() {
        return Collections.unmodifiableList(nets);
    }

    public NetPort net(String name) {
        for (NetPort n : nets) {
            if (n.name.equals(name)) {
                return n;
            }
        }
        return null;
    }

    public List<NvLink> nvlinks() {
        List<NvLink> out = new ArrayList<>();
        gpus.forEach(g -> out.addAll(g.nvlinks));
        return out;
    }

    /** Sum of NVLink counts over all GPUs' {@code <nvlink>} elements. */
    public int nvlinkCount() {
        long n = 0;
        for (Gpu g : gpus) {
            for (NvLink l : g.nvlinks) {
                n += Math.max(0, l.count);
            }
        }
        return (int) Math.min(Integer.MAX_VALUE, n); // counts are bounded when read: never reached
    }

    public List<C2cLink> c2cLinks() {
        List<C2cLink> out = new ArrayList<>();
        gpus.forEach(g -> out.addAll(g.c2c));
        return out;
    }

    public java.util.Collection<NvSwitch> nvswitches() {
        return Collections.unmodifiableCollection(nvswitches.values());
    }

    /** The channels NCCL chose, per graph, when a graph dump for this host was read. */
    public List<NcclGraph> graphs() {
        return Collections.unmodifiableList(graphs);
    }

    /** The matrices read from {@code nvidia-smi topo -m} / {@code -mp} output for this host. */
    public List<NvidiaSmiMatrix> reportedMatrices() {
        return Collections.unmodifiableList(reportedMatrices);
    }

    /**
     * The device matrix as {@code nvidia-smi topo -m} would print it (NVLink counted), computed
     * from the tree; from the reported nvidia-smi matrix when there is no tree.
     */
    public AffinityMatrix affinity() {
        return affinity;
    }

    /** The same with NVLink ignored: what {@code nvidia-smi topo -mp} prints. */
    public AffinityMatrix pcieAffinity() {
        return pcieAffinity;
    }

    /** The shortest fabric path of each GPU: nearest net, its HCA, the HCA port and the leaf port it is cabled to. */
    public List<GpuFabricPath> fabricPaths() {
        List<GpuFabricPath> out = new ArrayList<>();
        for (Gpu g : gpus) {
            out.add(GpuFabricPath.of(this, g));
        }
        return out;
    }

    public GpuFabricPath fabricPath(Gpu gpu) {
        return GpuFabricPath.of(this, gpu);
    }

    /** The vertex a PCI device is drawn as in the graph: its GPU, its NIC, or itself. */
    public Vertex vertexOf(PciDevice p) {
        return p.gpu != null ? p.gpu : p.nic != null ? p.nic : p;
    }

    /**
     * Adds this host's vertices (CPUs, PCI switches, GPUs, NICs, nets, NVSwitches) and edges (PCIe,
     * NVLink, C2C, NIC-net, net-HCA, CPU interconnect, host-CPU) to a graph. {@code host} is the
     * host vertex; the net-HCA edges need the HCAs already in the graph.
     */
    public void addTo(Graph<Vertex, FabricEdge> g, Vertex host) {
        for (Cpu c : cpus) {
            g.addVertex(c);
            if (host != null) {
                g.addEdge(host, c, new HostLink(HostLink.Kind.HOST_CPU, host, c, null));
            }
        }
        for (int i = 0; i < cpus.size(); i++) {
            for (int j = i + 1; j < cpus.size(); j++) {
                g.addEdge(cpus.get(i), cpus.get(j),
                        new HostLink(HostLink.Kind.CPU_INTERCONNECT, cpus.get(i), cpus.get(j), null));
            }
        }
        for (PciDevice p : pciDevices) {
            Vertex v = vertexOf(p);
            g.addVertex(v);
            Vertex parent = p.parent != null ? vertexOf(p.parent) : p.cpu;
            g.addVertex(parent);
            g.addEdge(parent, v, new HostLink(HostLink.Kind.PCIE, parent, v, p));
        }
        for (Gpu gpu : gpus) {
            g.addVertex(gpu);
        }
        for (Nic n : nics) {
            g.addVertex(n);
            if (n.pci == null && n.cpu != null) {
                g.addEdge(n.cpu, n, new HostLink(HostLink.Kind.PCIE, n.cpu, n, null));
            }
            for (NetPort net : n.nets) {
                g.addVertex(net);
                g.addEdge(n, net, new HostLink(HostLink.Kind.NIC_NET, n, net, null));
                if (net.hca != null && g.containsVertex(net.hca)) {
                    g.addEdge(net, net.hca, new HostLink(HostLink.Kind.NET_HCA, net, net.hca, null));
                }
            }
        }
        for (Gpu gpu : gpus) {
            for (NvLink l : gpu.nvlinks) {
                Vertex target = null;
                if (l.targetKind == NvLink.TargetKind.GPU) {
                    target = l.peerGpu();
                    if (target != null && target.id().compareTo(gpu.id()) < 0) {
                        continue; // both GPUs list the link: draw it once
                    }
                } else if (l.targetKind == NvLink.TargetKind.NVSWITCH) {
                    target = nvswitches.get(l.target);
                } else if (l.targetKind == NvLink.TargetKind.CPU && gpu.pci != null) {
                    target = gpu.pci.cpu;
                }
                if (target != null) {
                    g.addVertex(target);
                    g.addEdge(gpu, target, l);
                }
            }
            if (gpu.pci != null) {
                for (C2cLink c : gpu.c2c) {
                    g.addEdge(gpu, gpu.pci.cpu, c);
                }
            }
        }
    }

    @Override
    public String toString() {
        return "HostTopology " + name + " (" + gpus.size() + " GPUs, " + nics.size() + " NICs, " + nets.size()
                + " nets, from " + source + ")";
    }
}
