package org.fabricscope.model.host;

/**
 * How two devices of a host reach each other, with the labels and meanings {@code nvidia-smi topo -m}
 * prints in its legend. Declared nearest first, so {@code compareTo} orders by distance.
 */
public enum PathType {
    /** Self. */
    X("X"),
    /** A bonded set of NVLinks (the label carries the count: {@code NV18}). */
    NV("NV"),
    /** At most a single PCIe bridge (both ends below the same PCIe switch). */
    PIX("PIX"),
    /** Multiple PCIe bridges, without the host bridge. */
    PXB("PXB"),
    /** PCIe and a PCIe host bridge (typically the CPU). */
    PHB("PHB"),
    /** PCIe and the interconnect between PCIe host bridges within a NUMA node. */
    NODE("NODE"),
    /** PCIe and the SMP interconnect between NUMA nodes (QPI/UPI, xGMI). */
    SYS("SYS");

    private final String label;

    PathType(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Parses a matrix cell ({@code X}, {@code NV12}, {@code PIX} ...); null when it is none of them. */
    public static PathType parse(String cell) {
        String c = cell.strip();
        if (c.equals("X")) {
            return X;
        }
        if (c.startsWith("NV") && c.length() > 2 && c.substring(2).chars().allMatch(Character::isDigit)) {
            return NV;
        }
        for (PathType t : values()) {
            if (t != NV && t.label.equals(c)) {
                return t;
            }
        }
        return null;
    }
}
