package org.fabricscope.model.host;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Vertex;

/**
 * One {@code <pci>} element: a PCIe switch or bridge, a GPU, a NIC or another function, with the
 * link it trained at towards its parent. NCCL folds each PCIe switch (upstream and downstream
 * ports) into one node, so a child of a switch node sits behind exactly one switch.
 */
public final class PciDevice implements Vertex {
    final HostTopology topology;
    final String busId;
    final String pciClass;
    final PciKind kind;
    String linkSpeed = "";
    int linkWidth = -1;
    String vendor = "";
    String device = "";
    String subsystemVendor = "";
    String subsystemDevice = "";
    final PciDevice parent;
    final Cpu cpu;
    final List<PciDevice> children = new ArrayList<>();
    final List<PciLinkInfo> pciLinks = new ArrayList<>();
    Gpu gpu;
    Nic nic;
    final Evidence evidence;

    /** A {@code <pcilink>} element: a Broadcom PEX switch's peer-to-peer link to {@code target}. */
    public record PciLinkInfo(String target, String pciClass, String link, Evidence evidence) {
    }

    PciDevice(HostTopology topology, String busId, String pciClass, PciDevice parent, Cpu cpu, Evidence evidence) {
        this.topology = topology;
        this.busId = busId;
        this.pciClass = pciClass;
        this.kind = PciKind.ofClass(pciClass);
        this.parent = parent;
        this.cpu = cpu;
        this.evidence = evidence;
    }

    public HostTopology topology() {
        return topology;
    }

    /** {@code 0000:1b:00.0} as written (lower case); virtual switches use {@code ffff:ff:01.0}. */
    public String busId() {
        return busId;
    }

    public String pciClass() {
        return pciClass;
    }

    public PciKind kind() {
        return kind;
    }

    /** Whether the bus id is a virtual one ({@code ffff:...}), as in cloud and hand-written files. */
    public boolean isVirtual() {
        return busId.startsWith("ffff:");
    }

    /** The link speed string as written ({@code 32.0 GT/s PCIe}, {@code 16 GT/s}, or empty). */
    public String linkSpeed() {
        return linkSpeed;
    }

    /** The speed in GT/s per lane parsed from {@link #linkSpeed()}, or 0 when unknown or empty. */
    public double linkGts() {
        return parseGts(linkSpeed);
    }

    /** PCIe generation for the speed (2.5 GT/s = 1 ... 64 GT/s = 6), or 0 when unknown. */
    public int pcieGeneration() {
        double g = linkGts();
        if (g <= 0) {
            return 0;
        }
        double[] gens = {2.5, 5, 8, 16, 32, 64};
        for (int i = 0; i < gens.length; i++) {
            if (g <= gens[i] + 0.01) {
                return i + 1;
            }
        }
        return gens.length;
    }

    /** The width as written; -1 when absent. 0 is what NCCL writes when it could not read it. */
    public int linkWidthRaw() {
        return linkWidth;
    }

    /** The width NCCL uses: as written, 0 treated as 16 (topo.cc does), -1 when absent. */
    public int linkWidth() {
        return linkWidth == 0 ? 16 : linkWidth;
    }

    public String vendor() {
        return vendor;
    }

    public String device() {
        return device;
    }

    public String subsystemVendor() {
        return subsystemVendor;
    }

    public String subsystemDevice() {
        return subsystemDevice;
    }

    /** The PCI node above, or null when this device hangs directly off a CPU. */
    public PciDevice parent() {
        return parent;
    }

    public Cpu cpu() {
        return cpu;
    }

    public List<PciDevice> children() {
        return Collections.unmodifiableList(children);
    }

    public List<PciLinkInfo> pciLinks() {
        return Collections.unmodifiableList(pciLinks);
    }

    /** The GPU this device is, or null. */
    public Gpu gpu() {
        return gpu;
    }

    /** The NIC this device is, or null. */
    public Nic nic() {
        return nic;
    }

    public Evidence evidence() {
        return evidence;
    }

    /** {@code x16 32.0 GT/s} or what is known of it. */
    public String linkLabel() {
        String w = linkWidth() > 0 ? "x" + linkWidth() : "x?";
        double g = linkGts();
        return w + " " + (g > 0 ? (g == Math.rint(g) ? String.valueOf((long) g) : String.valueOf(g)) + " GT/s" : "? GT/s");
    }

    @Override
    public String id() {
        return "pci:" + topology.name() + "/" + busId;
    }

    @Override
    public String displayName() {
        return busId + " " + kind.name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return id();
    }

    static double parseGts(String s) {
        if (s == null) {
            return 0;
        }
        String t = s.strip();
        int end = 0;
        while (end < t.length() && (Character.isDigit(t.charAt(end)) || t.charAt(end) == '.')) {
            end++;
        }
        if (end == 0) {
            return 0;
        }
        try {
            return Double.parseDouble(t.substring(0, end));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
