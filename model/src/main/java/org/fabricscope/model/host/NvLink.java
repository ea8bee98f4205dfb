package org.fabricscope.model.host;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.FabricEdge;

/**
 * One {@code <nvlink target=... count=... tclass=...>}: {@code count} NVLinks from a GPU to a peer
 * GPU, an NVSwitch or a CPU. The target {@code fffffff:ff:ff.0} is NCCL's sentinel for an NVSwitch
 * the host cannot see (multi-node NVLink, or a VM given the GPUs but not the switches).
 */
public final class NvLink implements FabricEdge {
    /** Where the links go, from {@code tclass}. */
    public enum TargetKind { GPU, NVSWITCH, CPU, UNKNOWN }

    /** NCCL's "invisible remote" target; xml.cc writes it with 7 f's in the domain. */
    public static final String SENTINEL = "fffffff:ff:ff.0";

    final Gpu gpu;
    final String target;
    final int count;
    final String tclass;
    final TargetKind targetKind;
    final Evidence evidence;

    NvLink(Gpu gpu, String target, int count, String tclass, Evidence evidence) {
        this.gpu = gpu;
        this.target = target;
        this.count = count;
        this.tclass = tclass;
        this.evidence = evidence;
        PciKind k = PciKind.ofClass(tclass);
        this.targetKind = switch (k) {
            case GPU -> TargetKind.GPU;
            case NVSWITCH -> TargetKind.NVSWITCH;
            case CPU -> TargetKind.CPU;
            default -> isSentinel(target) ? TargetKind.NVSWITCH : TargetKind.UNKNOWN;
        };
    }

    static boolean isSentinel(String busId) {
        return busId != null && busId.toLowerCase(java.util.Locale.ROOT).startsWith("fffffff:");
    }

    public Gpu gpu() {
        return gpu;
    }

    /** Peer bus id as written. */
    public String target() {
        return target;
    }

    /** Whether the target is the invisible-remote sentinel. */
    public boolean remote() {
        return isSentinel(target);
    }

    public int count() {
        return count;
    }

    public String tclass() {
        return tclass;
    }

    public TargetKind targetKind() {
        return targetKind;
    }

    /** The peer GPU when the target is a GPU of the same host, else null. */
    public Gpu peerGpu() {
        return targetKind == TargetKind.GPU ? gpu.topology.gpuByBusId(target) : null;
    }

    public Evidence evidence() {
        return evidence;
    }

    @Override
    public String toString() {
        return gpu.label() + " -" + count + "x NVLink-> " + target + " (" + targetKind + ")";
    }
}
