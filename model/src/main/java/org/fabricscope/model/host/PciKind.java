package org.fabricscope.model.host;

import java.util.Locale;

/**
 * What a PCI function is, from its class code, as NCCL's {@code kvDictPciClass} tells them apart
 * (src/graph/topo.cc): prefixes are matched, so {@code 0x0302..} (3D controller) and {@code 0x0300..}
 * are both GPUs and {@code 0x0207..} (InfiniBand) and {@code 0x0200..} (Ethernet) are both NICs.
 */
public enum PciKind {
    /** A PCI bridge or switch ({@code 0x0604..}), including virtual switches ({@code ffff:ff:01.0}). */
    BRIDGE,
    GPU,
    NIC,
    /** An NVSwitch ({@code 0x068000}). */
    NVSWITCH,
    /** A CPU seen as a PCI target ({@code 0x068001}, NVLink-C2C hosts). */
    CPU,
    /** Anything else NCCL treats as a plain PCI node (e.g. ConnectX-8 data direct {@code 0x080100}). */
    OTHER;

    /** Classifies {@code 0x030200}, {@code 0x0302}, {@code 030200}; null or blank gives OTHER. */
    public static PciKind ofClass(String pciClass) {
        if (pciClass == null) {
            return OTHER;
        }
        String c = pciClass.strip().toLowerCase(Locale.ROOT);
        if (!c.startsWith("0x")) {
            c = "0x" + c;
        }
        if (c.startsWith("0x068000")) {
            return NVSWITCH;
        }
        if (c.startsWith("0x068001")) {
            return CPU;
        }
        if (c.startsWith("0x0604")) {
            return BRIDGE;
        }
        if (c.startsWith("0x03")) {
            return GPU;
        }
        if (c.startsWith("0x02")) {
            return NIC;
        }
        return OTHER;
    }
}
