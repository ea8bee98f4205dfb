package org.fabricscope.model.training;

import org.fabricscope.model.core.Evidence;

/**
 * NCCL's verdict on GPU Direct RDMA for one network device of one process:
 * {@code NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'}, {@code ... Disabled for HCA 0 'mlx5_0' (no module)},
 * or the 2.4-2.7 per-GPU form {@code GPU Direct RDMA Disabled for GPU 1b000 / HCA 0 (distance 4 > 2)}.
 * {@code net} is the plugin name ({@code IB}, {@code Socket}, {@code IBext} ...; empty in the per-GPU form),
 * {@code hca} the device name when printed (else empty), {@code reason} the text in parentheses (may be empty).
 */
public record GdrSupport(String host, int pid, String net, int hcaIndex, String hca, boolean enabled, String reason,
                         Evidence evidence) {
    /** Whether it is about an RDMA device (not the socket transport, which never does GDR). */
    public boolean isRdma() {
        return !net.startsWith("Socket");
    }
}
