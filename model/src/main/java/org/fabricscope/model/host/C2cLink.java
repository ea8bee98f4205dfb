package org.fabricscope.model.host;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.FabricEdge;

/**
 * {@code <c2c bw=... count=...>}: NVLink-C2C between a GPU and its CPU (Grace Hopper, GB200).
 * topo.cc computes the bandwidth as {@code bw * count / 1000.0} GB/s.
 */
public final class C2cLink implements FabricEdge {
    final Gpu gpu;
    final int bw;
    final int count;
    final Evidence evidence;

    C2cLink(Gpu gpu, int bw, int count, Evidence evidence) {
        this.gpu = gpu;
        this.bw = bw;
        this.count = count;
        this.evidence = evidence;
    }

    public Gpu gpu() {
        return gpu;
    }

    public int bw() {
        return bw;
    }

    public int count() {
        return count;
    }

    /** Total bandwidth in GB/s as NCCL computes it. */
    public double gigabytesPerSecond() {
        return bw * (double) count / 1000.0;
    }

    public Evidence evidence() {
        return evidence;
    }
}
