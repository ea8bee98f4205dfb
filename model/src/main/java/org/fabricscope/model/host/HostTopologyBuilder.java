package org.fabricscope.model.host;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;

/**
 * Collects one file's view of a host (an NCCL topology, graph dump or {@code nvidia-smi topo -m})
 * for {@link org.fabricscope.model.FabricModelBuilder#hostTopology}. Attribute values are read as
 * NCCL reads them (xml.cc: {@code strtol(..., 0)}, so {@code dev="0x1"} is 1; {@code link_width="0"}
 * means 16); a value that cannot be read is a diagnostic with the file and line, never an exception.
 * Which host the file belongs to is decided when the model is built (see {@link HostNameSource}).
 */
public final class HostTopologyBuilder {
    private static final int MAX_VALUE = 255; // NCCL's MAX_STR_LEN
    /**
     * Most NVLinks one {@code <nvlink>} element may count. A GPU has at most 18 (NVLink 4 and 5); the
     * bound keeps every sum of counts (per GPU, per host, per fabric) far from overflowing an int.
     */
    public static final int MAX_NVLINK_COUNT = 1024;

    final HostTopology topology;
    final String hostHint;
    final HostNameSource hintSource;
    final List<Diagnostic> diagnostics = new ArrayList<>();
    private int gpuCount;

    /**
     * A builder for {@code source}, with the host named by the caller ({@link HostNameSource#EXPLICIT})
     * or taken from the file name ({@code hostHint} null).
     */
    public HostTopologyBuilder(String source, String hostHint) {
        String s = source == null ? "" : source;
        String hint = hostHint;
        HostNameSource hs = HostNameSource.EXPLICIT;
        if (hint == null || hint.isBlank()) {
            String[] fromName = hostFromFileName(s);
            hint = fromName[0];
            hs = fromName[0] == null ? HostNameSource.NONE : HostNameSource.valueOf(fromName[1]);
        }
        this.hostHint = hint;
        this.hintSource = hs;
        this.topology = new HostTopology(s, hint != null ? hint : fallbackName(s));
    }

    public HostTopologyBuilder(String source) {
        this(source, null);
    }

    /** The host the file name suggests, or null: see {@link #hostFromFileName}. */
    public String hostHint() {
        return hostHint;
    }

    public HostNameSource hintSource() {
        return hintSource;
    }

    public List<Diagnostic> diagnostics() {
        return diagnostics;
    }

    public String source() {
        return topology.source;
    }

    /** Whether anything was read: a CPU, a graph or a matrix. */
    public boolean isEmpty() {
        return topology.cpus.isEmpty() && topology.graphs.isEmpty() && topology.reportedMatrices.isEmpty();
    }

    /**
     * The host a file name names, and whether from the file ({@code FILE_NAME}) or its folder
     * ({@code FOLDER_NAME}): {@code dgx-01.xml}, {@code dgx-01.topo.xml} and {@code dgx-01/topo.xml}
     * all give {@code dgx-01}. Generic names ({@code topo.xml}, {@code graph.xml},
     * {@code nvidia-smi.txt}) defer to the folder. Archive entries ({@code a.tgz!/dgx-01/topo.xml}) work.
     */
    public static String[] hostFromFileName(String source) {
        String s = source.replace('\\', '/');
        int bang = s.lastIndexOf("!/");
        String inner = bang >= 0 ? s.substring(bang + 2) : s;
        String[] parts = inner.split("/");
        String file = parts.length == 0 ? "" : parts[parts.length - 1];
        int dot = file.indexOf('.');
        String stem = dot < 0 ? file : file.substring(0, dot);
        if (!stem.isEmpty() && !isGeneric(stem)) {
            return new String[] {stem, "FILE_NAME"};
        }
        if (parts.length >= 2) {
            String folder = parts[parts.length - 2];
            if (!folder.isEmpty() && !folder.equals(".") && !folder.equals("..")) {
                return new String[] {folder, "FOLDER_NAME"};
            }
        }
        return new String[] {null, "NONE"};
    }

    private static boolean isGeneric(String stem) {
        String s = stem.toLowerCase(Locale.ROOT).replace('_', '-');
        return s.startsWith("topo") || s.startsWith("graph") || s.startsWith("nccl") || s.startsWith("nvidia-smi")
                || s.startsWith("system") || s.equals("smi") || s.equals("dump") || s.equals("xml");
    }

    private static String fallbackName(String source) {
        String s = source.replace('\\', '/');
        int slash = s.lastIndexOf('/');
        return "unknown-host(" + (slash >= 0 ? s.substring(slash + 1) : s) + ")";
    }

    // ---- system, cpu, pci -------------------------------------------------------------------

    /** {@code <system version name>}. Versions other than 1 (NCCL) and 2 (RCCL) are read with a warning. */
    public void system(Map<String, String> attrs, Evidence e) {
        topology.evidence = e;
        String v = attrs.get("version");
        topology.version = intAttr(attrs, "version", -1, e);
        if (v == null) {
            warn(e, "<system> has no version (NCCL requires it); read as version 1");
        } else if (topology.version != 1 && topology.version != 2) {
            warn(e, "<system version=\"" + v + "\">: NCCL reads version 1 and RCCL writes 2; read anyway");
        }
        topology.systemName = str(attrs, "name", e);
    }

    public Cpu cpu(Map<String, String> attrs, Evidence e) {
        Cpu c = new Cpu(topology, topology.cpus.size(), e);
        if (!attrs.containsKey("numaid")) {
            warn(e, "<cpu> has no numaid (NCCL requires it)");
        }
        c.numaId = intAttr(attrs, "numaid", -1, e);
        c.affinity = str(attrs, "affinity", e);
        c.arch = str(attrs, "arch", e);
        c.vendor = str(attrs, "vendor", e).strip();
        c.familyId = intAttr(attrs, "familyid", -1, e);
        c.modelId = intAttr(attrs, "modelid", -1, e);
        c.hostHash = str(attrs, "host_hash", e);
        topology.cpus.add(c);
        return c;
    }

    /**
     * {@code <pci busid class link_speed link_width ...>} under a CPU ({@code parent} null) or another
     * PCI node. Returns null (with a diagnostic) when busid is missing or already used.
     */
    public PciDevice pci(Cpu cpu, PciDevice parent, Map<String, String> attrs, Evidence e) {
        String busId = str(attrs, "busid", e).strip().toLowerCase(Locale.ROOT);
        if (busId.isEmpty()) {
            warn(e, "<pci> without busid; skipped with what it contains");
            return null;
        }
        if (topology.pciByBusId.containsKey(busId)) {
            warn(e, "<pci busid=\"" + busId + "\"> appears twice; the second is skipped with what it contains");
            return null;
        }
        String cls = str(attrs, "class", e).strip();
        if (cls.isEmpty()) {
            warn(e, "<pci busid=\"" + busId + "\"> has no class; read as a plain PCI node");
        }
        PciDevice p = new PciDevice(topology, busId, cls, parent, cpu, e);
        p.linkSpeed = str(attrs, "link_speed", e);
        if (!p.linkSpeed.isBlank() && p.linkGts() <= 0) {
            warn(e, "link_speed \"" + p.linkSpeed + "\" is not a speed in GT/s");
        }
        p.linkWidth = intAttr(attrs, "link_width", -1, e);
        p.vendor = str(attrs, "vendor", e);
        p.device = str(attrs, "device", e);
        p.subsystemVendor = str(attrs, "subsystem_vendor", e);
        p.subsystemDevice = str(attrs, "subsystem_device", e);
        if (parent != null) {
            parent.children.add(p);
        } else {
            cpu.pciDevices.add(p);
        }
        topology.pciDevices.add(p);
        topology.pciByBusId.put(busId, p);
        return p;
    }

    public void pcilink(PciDevice pci, Map<String, String> attrs, Evidence e) {
        pci.pciLinks.add(new PciDevice.PciLinkInfo(str(attrs, "target", e), str(attrs, "class", e),
                str(attrs, "link", e), e));
    }

    // ---- gpu ----------------------------------------------------------------------------------

    /** {@code <gpu dev sm rank gdr>} under its PCI device. A second one under the same device is skipped. */
    public Gpu gpu(PciDevice pci, Map<String, String> attrs, Evidence e) {
        if (pci.gpu != null && pci.gpu.dev >= 0) {
            warn(e, "second <gpu> under " + pci.busId + "; skipped");
            return null;
        }
        if (pci.kind != PciKind.GPU) {
            info(e, "<gpu> under " + pci.busId + " whose class " + pci.pciClass + " is not a GPU class (0x03..)");
        }
        Gpu g = pci.gpu != null ? pci.gpu : new Gpu(topology, pci, e);
        g.evidence = e;
        for (String required : new String[] {"dev", "sm", "rank", "gdr"}) {
            if (!attrs.containsKey(required)) {
                warn(e, "<gpu> has no " + required + " (NCCL requires it)");
            }
        }
        g.dev = intAttr(attrs, "dev", -1, e);
        g.sm = intAttr(attrs, "sm", -1, e);
        g.rank = intAttr(attrs, "rank", -1, e);
        g.gdr = intAttr(attrs, "gdr", -1, e);
        g.gcn = str(attrs, "gcn", e);
        g.arch = str(attrs, "arch", e);
        pci.gpu = g;
        return g;
    }

    public NvLink nvlink(Gpu gpu, Map<String, String> attrs, Evidence e) {
        String target = str(attrs, "target", e).strip().toLowerCase(Locale.ROOT);
        if (target.isEmpty()) {
            warn(e, "<nvlink> without target; skipped");
            return null;
        }
        int count = intAttr(attrs, "count", 1, e);
        if (count < 0 || count > MAX_NVLINK_COUNT) {
            warn(e, "<nvlink count=\"" + attrs.get("count") + "\"> is out of range (0.." + MAX_NVLINK_COUNT
                    + " links); skipped");
            return null;
        }
        NvLink l = new NvLink(gpu, target, count, str(attrs, "tclass", e).strip(), e);
        gpu.nvlinks.add(l);
        if (l.targetKind() == NvLink.TargetKind.NVSWITCH) {
            topology.nvswitches.computeIfAbsent(target, b -> new NvSwitch(topology, b));
        }
        return l;
    }

    public C2cLink c2c(Gpu gpu, Map<String, String> attrs, Evidence e) {
        C2cLink c = new C2cLink(gpu, intAttr(attrs, "bw", 0, e), intAttr(attrs, "count", 1, e), e);
        gpu.c2c.add(c);
        return c;
    }

    // ---- nic, net -----------------------------------------------------------------------------

    /** {@code <nic>} under a PCI device ({@code pci} non-null) or straight under a CPU. */
    public Nic nic(Cpu cpu, PciDevice pci, Evidence e) {
        if (pci != null && pci.nic != null) {
            return pci.nic; // NCCL merges nets of one device into its one nic
        }
        Nic n = new Nic(topology, pci, pci != null ? pci.cpu : cpu, topology.nics.size(), e);
        if (pci != null) {
            pci.nic = n;
        } else {
            cpu.nics.add(n);
        }
        topology.nics.add(n);
        return n;
    }

    /** {@code <net name dev speed port guid gdr ...>}. */
    public NetPort net(Nic nic, Map<String, String> attrs, Evidence e) {
        String name = str(attrs, "name", e).strip();
        if (name.isEmpty()) {
            warn(e, "<net> without name");
            name = "net" + topology.nets.size();
        }
        NetPort n = new NetPort(nic, name, e);
        if (!attrs.containsKey("dev")) {
            warn(e, "<net name=\"" + name + "\"> has no dev (NCCL requires it)");
        }
        n.dev = intAttr(attrs, "dev", -1, e);
        n.speed = intAttr(attrs, "speed", -1, e);
        n.port = intAttr(attrs, "port", -1, e);
        n.guidText = str(attrs, "guid", e).strip();
        if (!n.guidText.isEmpty()) {
            Long g = parseLong(n.guidText);
            if (g == null) {
                warn(e, "guid \"" + n.guidText + "\" is neither hex (0x...) nor decimal");
            } else {
                n.guid = g;
            }
        }
        n.gdr = intAttr(attrs, "gdr", -1, e);
        n.latency = str(attrs, "latency", e);
        n.maxconn = intAttr(attrs, "maxconn", -1, e);
        n.coll = intAttr(attrs, "coll", -1, e);
        n.rail = intAttr(attrs, "rail", -1, e);
        n.plane = intAttr(attrs, "plane", -1, e);
        nic.nets.add(n);
        topology.nets.add(n);
        return n;
    }

    // ---- graph and nvidia-smi ---------------------------------------------------------------------

    public void graph(NcclGraph graph) {
        topology.graphs.add(graph);
    }

    public void matrix(NvidiaSmiMatrix matrix) {
        topology.reportedMatrices.add(matrix);
    }

    public void diagnostic(Diagnostic d) {
        diagnostics.add(d);
    }

    // ---- finishing --------------------------------------------------------------------------------

    /**
     * Turns bare PCI leaves of a flattened file into GPUs ({@code 0x03..}) and NICs ({@code 0x02..}),
     * and orders GPUs, NICs and nets by PCI bus id, as nvidia-smi numbers them.
     */
    void finish() {
        HostTopology t = topology;
        java.util.Set<Gpu> listed = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        listed.addAll(t.gpus);
        for (PciDevice p : t.pciDevices) {
            if (p.kind == PciKind.GPU && p.gpu == null) {
                p.gpu = new Gpu(t, p, p.evidence);
            }
            if (p.kind == PciKind.NIC && p.nic == null) {
                Nic n = new Nic(t, p, p.cpu, t.nics.size(), p.evidence);
                p.nic = n;
                t.nics.add(n);
            }
            if (p.gpu != null && listed.add(p.gpu)) {
                t.gpus.add(p.gpu);
            }
        }
        Comparator<String> bus = HostTopologyBuilder::compareBusIds;
        t.gpus.sort(Comparator.comparing((Gpu g) -> g.busId(), bus).thenComparingInt(g -> g.dev));
        for (int i = 0; i < t.gpus.size(); i++) {
            t.gpus.get(i).index = i;
        }
        t.nics.sort(Comparator.comparing((Nic n) -> n.pci == null ? 1 : 0)
                .thenComparing(n -> n.pci == null ? "" : n.pci.busId, bus)
                .thenComparingInt(n -> n.index));
        t.nets.clear();
        int nic = 0;
        for (Nic n : t.nics) {
            n.nets.sort(Comparator.comparingInt((NetPort p) -> p.dev).thenComparing(p -> p.name));
            for (NetPort p : n.nets) {
                t.nets.add(p);
                p.index = n.pci != null ? nic++ : -1;
            }
            if (n.pci != null && n.nets.isEmpty()) {
                nic++;
            }
        }
        gpuCount = t.gpus.size();
    }

    /** Builds GPUs and nets from nvidia-smi names for a host that has no tree. */
    void synthesiseFromMatrix(NvidiaSmiMatrix m) {
        HostTopology t = topology;
        for (String d : m.devices()) {
            if (d.startsWith("GPU")) {
                Gpu g = new Gpu(t, null, m.evidence());
                g.dev = parseIntOr(d.substring(3), t.gpus.size());
                g.index = g.dev;
                t.gpus.add(g);
            } else if (d.startsWith("NIC") || d.startsWith("mlx")) {
                Nic n = new Nic(t, null, null, t.nics.size(), m.evidence());
                t.nics.add(n);
                NetPort p = new NetPort(n, m.nicLegend().getOrDefault(d, d), m.evidence());
                p.index = t.nets.size();
                n.nets.add(p);
                t.nets.add(p);
            }
        }
    }

    int gpuCount() {
        return gpuCount;
    }

    /** Orders {@code dddd:bb:dd.f} numerically field by field; other shapes after, as text. */
    static int compareBusIds(String a, String b) {
        long[] x = busKey(a);
        long[] y = busKey(b);
        if (x != null && y != null) {
            for (int i = 0; i < 4; i++) {
                int c = Long.compare(x[i], y[i]);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        }
        if (x != null) {
            return -1;
        }
        if (y != null) {
            return 1;
        }
        return a.compareTo(b);
    }

    private static long[] busKey(String s) {
        String[] p = s.split("[:.]");
        if (p.length != 4) {
            return null;
        }
        long[] k = new long[4];
        try {
            for (int i = 0; i < 4; i++) {
                k[i] = Long.parseLong(p[i], 16);
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return k;
    }

    // ---- attribute helpers ------------------------------------------------------------------------

    private String str(Map<String, String> attrs, String key, Evidence e) {
        String v = attrs.get(key);
        if (v == null) {
            return "";
        }
        if (v.length() > MAX_VALUE) {
            warn(e, key + " is longer than " + MAX_VALUE + " characters (NCCL's limit); cut");
            return v.substring(0, MAX_VALUE);
        }
        return v;
    }

    private int intAttr(Map<String, String> attrs, String key, int dflt, Evidence e) {
        String v = attrs.get(key);
        if (v == null) {
            return dflt;
        }
        Long l = parseLong(v.strip());
        if (l == null || l < Integer.MIN_VALUE || l > Integer.MAX_VALUE) {
            if (v.isBlank()) {
                return dflt;
            }
            warn(e, key + "=\"" + v + "\" is not a number");
            return dflt;
        }
        return (int) (long) l;
    }

    /** strtoull(s, 0) as NCCL uses it: 0x hex, otherwise decimal (negative allowed); null if not a number. */
    static Long parseLong(String s) {
        if (s == null || s.isEmpty()) {
            return null;
        }
        try {
            if (s.startsWith("0x") || s.startsWith("0X")) {
                String h = s.substring(2);
                if (h.isEmpty() || h.length() > 16) {
                    return null;
                }
                return Long.parseUnsignedLong(h, 16);
            }
            if (s.startsWith("-")) {
                return Long.parseLong(s);
            }
            BigInteger b = new BigInteger(s);
            if (b.signum() < 0 || b.bitLength() > 64) {
                return null;
            }
            return b.longValue();
        } catch (NumberFormatException ex) {
            return null;
        }
    }

    private static int parseIntOr(String s, int dflt) {
        try {
            return Integer.parseInt(s.strip());
        } catch (NumberFormatException ex) {
            return dflt;
        }
    }

    private void warn(Evidence e, String message) {
        diagnostics.add(Diagnostic.warning(e == null ? topology.source : e.source(), e == null ? 0 : e.line(), message));
    }

    private void info(Evidence e, String message) {
        diagnostics.add(Diagnostic.info(e == null ? topology.source : e.source(), e == null ? 0 : e.line(), message));
    }
}
