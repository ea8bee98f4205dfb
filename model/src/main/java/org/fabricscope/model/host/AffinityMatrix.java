package org.fabricscope.model.host;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Vertex;

/**
 * The device matrix {@code nvidia-smi topo -m} prints, computed from a host's NCCL PCIe tree:
 * rows and columns are the GPUs ({@code GPU0} ... in PCI order), then the PCIe-attached nets
 * ({@code NIC0} ..., PCI order; a dual-port adapter gives two), then NICs NCCL attached straight
 * to the CPU (socket NICs, named as NCCL names them; nvidia-smi does not list those).
 *
 * <p>The rule, for two devices A and B:
 * <ol>
 * <li>{@code X}: the same device.</li>
 * <li>{@code NV#} (GPU pairs, unless {@link #pcieOnly()}): the NVLinks from A whose target is B's
 *     bus id; if none and both link to NVSwitches (tclass {@code 0x068000} or the
 *     {@code fffffff:ff:ff.0} sentinel), the smaller of their NVSwitch link counts (each GPU's
 *     traffic to the other crosses all of its switch links: 18 on H100/H200 HGX gives NV18).</li>
 * <li>{@code SYS}: under different {@code <cpu>} elements (NUMA nodes).</li>
 * <li>{@code PIX}: two nets of one NIC, or both directly below the same PCI switch node. NCCL folds
 *     each PCIe switch's upstream and downstream ports into one {@code <pci>} node, so the path
 *     crosses a single switch.</li>
 * <li>{@code PXB}: a common PCI switch node above both, but at least one of them is deeper
 *     (OCI H100: GPU and NIC under sibling switches below one Broadcom switch).</li>
 * <li>{@code PHB}: they meet only at the CPU, and their top-level PCI nodes are on the same PCI
 *     bus (devices on one root bus, as the GPUs of a VM are: {@code 0000:00:06.0} and
 *     {@code 0000:00:07.0}); or one of them is a NIC NCCL put straight under the CPU.</li>
 * <li>{@code NODE}: they meet only at the CPU, and their top-level PCI nodes are on different
 *     buses, so (on real hosts, where each root port leads to its own bus and each PCIe stack is its
 *     own host bridge) the path crosses between host bridges of one NUMA node.</li>
 * </ol>
 * NCCL's XML does not record root ports or host bridges, so PHB versus NODE is inferred from bus
 * numbers; two root ports of one host bridge read as NODE where nvidia-smi prints PHB. Checked
 * against the real capture {@code h200x2-nccl-2.28.9} (NV18 with {@code -m}, PHB with {@code -mp}).
 */
public final class AffinityMatrix {
    /** One label: the path type and, for {@code NV}, the link count. */
    public record Cell(PathType type, int nvlinks) {
        /** {@code NV18}, {@code PIX}, {@code X}. */
        public String label() {
            return type == PathType.NV ? "NV" + nvlinks : type.label();
        }

        @Override
        public String toString() {
            return label();
        }
    }

    private final List<Vertex> devices;
    private final List<String> names;
    private final Map<Vertex, Integer> indexOfDevice = new IdentityHashMap<>();
    private final Map<String, Integer> indexOfName = new HashMap<>();
    /** Every cell, for a matrix nvidia-smi printed (its size is the input's); null for one computed from a tree. */
    private final Cell[][] cells;
    private final int gpuCount;
    private final int smiCount;
    private final boolean pcieOnly;
    /** Per GPU row: the nearest net, and the path type to the nearest column (net or net-less NIC). */
    private final NetPort[] nearestNet;
    private final PathType[] nearestType;

    private AffinityMatrix(List<Vertex> devices, List<String> names, Cell[][] cells, int gpuCount, int smiCount,
                           boolean pcieOnly) {
        this.devices = List.copyOf(devices);
        this.names = List.copyOf(names);
        this.cells = cells;
        this.gpuCount = gpuCount;
        this.smiCount = smiCount;
        this.pcieOnly = pcieOnly;
        for (int i = 0; i < this.devices.size(); i++) {
            indexOfDevice.putIfAbsent(this.devices.get(i), i);
            indexOfName.putIfAbsent(this.names.get(i), i);
        }
        this.nearestNet = new NetPort[gpuCount];
        this.nearestType = new PathType[gpuCount];
        if (cells != null) {
            nearestFromCells();
        } else {
            new NearestColumns(this.devices, gpuCount, pcieOnly, true).fill(nearestNet, nearestType);
            new NearestColumns(this.devices, gpuCount, pcieOnly, false).fill(nearestNet, nearestType);
        }
    }

    /** Computes the matrix from a host's tree; NVLink ignored when {@code pcieOnly} ({@code topo -mp}). */
    static AffinityMatrix compute(HostTopology t, boolean pcieOnly) {
        List<Vertex> devs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Gpu g : t.gpus) {
            devs.add(g);
            names.add(g.label());
        }
        int nic = 0;
        for (Nic n : t.nics) {
            if (n.pci == null) {
                continue;
            }
            if (n.nets.isEmpty()) {
                devs.add(n);
                names.add("NIC" + nic++);
            }
            for (NetPort p : n.nets) {
                devs.add(p);
                names.add("NIC" + nic++);
            }
        }
        int smi = devs.size();
        for (Nic n : t.nics) {
            if (n.pci == null) {
                for (NetPort p : n.nets) {
                    devs.add(p);
                    names.add(p.name);
                }
            }
        }
        // Cells are computed when asked for (each walks the two devices' PCIe ancestors once), and the
        // nearest NIC of each GPU in one pass over the tree (see NearestColumns): no GPU x NIC table is built,
        // so a 10,000-GPU file costs memory in its size, not in its square.
        return new AffinityMatrix(devs, names, null, t.gpus.size(), smi, pcieOnly);
    }

    /** A matrix taken from nvidia-smi's own output, for hosts without a tree. */
    static AffinityMatrix reported(HostTopology t, NvidiaSmiMatrix m) {
        List<Vertex> devs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Gpu g : t.gpus) {
            devs.add(g);
            names.add(g.label());
        }
        int nic = 0;
        for (NetPort p : t.nets) {
            devs.add(p);
            names.add("NIC" + nic++);
        }
        Cell[][] cells = new Cell[devs.size()][devs.size()];
        for (int i = 0; i < devs.size(); i++) {
            for (int j = 0; j < devs.size(); j++) {
                String s = m.label(names.get(i), names.get(j));
                PathType pt = s == null ? null : PathType.parse(s);
                int nv = pt == PathType.NV ? nvCount(s.strip().substring(2)) : 0;
                cells[i][j] = pt == null || nv < 0 ? null : new Cell(pt, nv);
            }
        }
        return new AffinityMatrix(devs, names, cells, t.gpus.size(), devs.size(), !m.hasNvlink());
    }

    /** The n of {@code NV<n>}, or -1 when it does not fit an int (the reader reported it; the cell stays unknown). */
    private static int nvCount(String digits) {
        try {
            return Math.max(-1, Integer.parseInt(digits));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static Cell classify(Vertex a, Vertex b, boolean pcieOnly) {
        if (a == b) {
            return new Cell(PathType.X, 0);
        }
        if (!pcieOnly && a instanceof Gpu ga && b instanceof Gpu gb) {
            int nv = nvlinksBetween(ga, gb);
            if (nv > 0) {
                return new Cell(PathType.NV, nv);
            }
        }
        PciDevice pa = pciOf(a);
        PciDevice pb = pciOf(b);
        Cpu ca = cpuOf(a);
        Cpu cb = cpuOf(b);
        if (ca == null || cb == null || ca != cb) {
            return new Cell(PathType.SYS, 0);
        }
        if (a instanceof NetPort na && b instanceof NetPort nb && na.nic == nb.nic) {
            return new Cell(pa == null ? PathType.PHB : PathType.PIX, 0);
        }
        if (pa == null || pb == null) {
            return new Cell(PathType.PHB, 0);
        }
        if (pa == pb) {
            return new Cell(PathType.PIX, 0);
        }
        // lowest common proper PCI ancestor: even out the depths, then climb both in step
        PciDevice x = pa.parent;
        PciDevice y = pb.parent;
        int dx = depth(x);
        int dy = depth(y);
        for (; dx > dy; dx--) {
            x = x.parent;
        }
        for (; dy > dx; dy--) {
            y = y.parent;
        }
        while (x != y) {
            x = x.parent;
            y = y.parent;
        }
        PciDevice common = x;
        if (common != null) {
            boolean single = pa.parent == common && pb.parent == common;
            return new Cell(single ? PathType.PIX : PathType.PXB, 0);
        }
        return new Cell(busOf(top(pa).busId).equals(busOf(top(pb).busId)) ? PathType.PHB : PathType.NODE, 0);
    }

    /** Proper PCI ancestors above {@code p} plus one (0 for a device straight under a CPU); -1 for null. */
    private static int depth(PciDevice p) {
        int d = -1;
        for (PciDevice x = p; x != null; x = x.parent) {
            d++;
        }
        return d;
    }

    /** The top-level PCI node above {@code p} (p itself when it is straight under the CPU). */
    static PciDevice top(PciDevice p) {
        PciDevice t = p;
        while (t.parent != null) {
            t = t.parent;
        }
        return t;
    }

    /** NVLinks between two GPUs: direct ones, else through NVSwitches (the smaller switch link count). */
    static int nvlinksBetween(Gpu a, Gpu b) {
        long direct = 0;
        for (NvLink l : a.nvlinks) {
            if (b.pci != null && l.targetKind != NvLink.TargetKind.NVSWITCH && l.target.equalsIgnoreCase(b.pci.busId)) {
                direct += Math.max(0, l.count);
            }
        }
        if (direct > 0) {
            return (int) Math.min(Integer.MAX_VALUE, direct);
        }
        int sa = a.nvswitchLinkCount();
        int sb = b.nvswitchLinkCount();
        return sa > 0 && sb > 0 ? Math.min(sa, sb) : 0;
    }

    /** {@code dddd:bb} out of {@code dddd:bb:dd.f}; the whole id when it has another shape. */
    static String busOf(String busId) {
        int second = busId.indexOf(':', busId.indexOf(':') + 1);
        return second < 0 ? busId : busId.substring(0, second);
    }

    static PciDevice pciOf(Vertex v) {
        if (v instanceof Gpu g) {
            return g.pci;
        }
        if (v instanceof NetPort n) {
            return n.nic.pci;
        }
        if (v instanceof Nic n) {
            return n.pci;
        }
        return null;
    }

    static Cpu cpuOf(Vertex v) {
        PciDevice p = pciOf(v);
        if (p != null) {
            return p.cpu;
        }
        if (v instanceof NetPort n) {
            return n.nic.cpu;
        }
        if (v instanceof Nic n) {
            return n.cpu;
        }
        return null;
    }

    /** Whether NVLink was left out ({@code nvidia-smi topo -mp}). */
    public boolean pcieOnly() {
        return pcieOnly;
    }

    /** Row and column devices: {@link Gpu}s, then {@link NetPort}s (or {@link Nic}s without nets). */
    public List<Vertex> devices() {
        return devices;
    }

    /** {@code GPU0}, ..., {@code NIC0}, ..., then CPU-attached nets by name. */
    public List<String> names() {
        return names;
    }

    /** How many of the first {@link #devices()} nvidia-smi would list (GPUs and PCIe NICs). */
    public int nvidiaSmiCount() {
        return smiCount;
    }

    public int gpuCount() {
        return gpuCount;
    }

    /** The cell between two devices of the matrix, or null when either is not in it. */
    public Cell cell(Vertex a, Vertex b) {
        Integer i = indexOfDevice.get(a);
        Integer j = indexOfDevice.get(b);
        return i == null || j == null ? null : cell(i, j);
    }

    /** The cell by names ({@code "GPU0"}, {@code "NIC3"}), or null. */
    public Cell cell(String a, String b) {
        Integer i = indexOfName.get(a);
        Integer j = indexOfName.get(b);
        return i == null || j == null ? null : cell(i, j);
    }

    private Cell cell(int i, int j) {
        return cells != null ? cells[i][j] : classify(devices.get(i), devices.get(j), pcieOnly);
    }

    /** The label between two devices ({@code PIX}, {@code NV18}), or null. */
    public String label(Vertex a, Vertex b) {
        Cell c = cell(a, b);
        return c == null ? null : c.label();
    }

    public String name(Vertex v) {
        Integer i = indexOfDevice.get(v);
        return i == null ? null : names.get(i);
    }

    /**
     * The GPU x NIC part: one row per GPU, one column per net (or NIC without nets). Built when
     * asked for, in GPUs x NICs time and memory: for a report, not for large hosts.
     */
    public List<List<Cell>> gpuNic() {
        List<List<Cell>> out = new ArrayList<>();
        for (int i = 0; i < gpuCount; i++) {
            List<Cell> row = new ArrayList<>();
            for (int j = gpuCount; j < devices.size(); j++) {
                row.add(cell(i, j));
            }
            out.add(Collections.unmodifiableList(row));
        }
        return Collections.unmodifiableList(out);
    }

    /** The nets (and net-less NICs) that are the columns of {@link #gpuNic()}. */
    public List<Vertex> nicColumns() {
        return devices.subList(gpuCount, devices.size());
    }

    /** The net nearest to a GPU (lowest path type, then lowest NIC number); null when the host has none. */
    public NetPort nearestNet(Gpu gpu) {
        Integer i = indexOfDevice.get(gpu);
        return i == null || i >= gpuCount ? null : nearestNet[i];
    }

    /** The path type to the nearest net or net-less NIC, or null when there is none. */
    public PathType nearestNicType(Gpu gpu) {
        Integer i = indexOfDevice.get(gpu);
        return i == null || i >= gpuCount ? null : nearestType[i];
    }

    /** Nearest columns of a matrix nvidia-smi printed: a scan of each GPU row (the rows are the input). */
    private void nearestFromCells() {
        for (int i = 0; i < gpuCount; i++) {
            PathType bestNetType = null;
            for (int j = gpuCount; j < devices.size(); j++) {
                Cell c = cells[i][j];
                if (c == null) {
                    continue;
                }
                if (nearestType[i] == null || c.type().compareTo(nearestType[i]) < 0) {
                    nearestType[i] = c.type();
                }
                if (devices.get(j) instanceof NetPort n && (bestNetType == null || c.type().compareTo(bestNetType) < 0)) {
                    nearestNet[i] = n;
                    bestNetType = c.type();
                }
            }
        }
    }

    /** The matrix laid out as nvidia-smi prints it (tab-separated, {@code  X } on the diagonal) with the NIC legend. */
    public String toText() {
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < smiCount; j++) {
            sb.append('\t').append(names.get(j));
        }
        sb.append('\n');
        for (int i = 0; i < smiCount; i++) {
            sb.append(names.get(i));
            for (int j = 0; j < smiCount; j++) {
                Cell c = cell(i, j);
                sb.append('\t').append(c == null ? "?" : c.type() == PathType.X ? " X " : c.label());
            }
            sb.append('\n');
        }
        boolean legend = false;
        for (int j = gpuCount; j < smiCount; j++) {
            if (devices.get(j) instanceof NetPort n) {
                if (!legend) {
                    sb.append("\nNIC Legend:\n\n");
                    legend = true;
                }
                sb.append("  ").append(names.get(j)).append(": ").append(n.name).append('\n');
            }
        }
        return sb.toString();
    }
}
