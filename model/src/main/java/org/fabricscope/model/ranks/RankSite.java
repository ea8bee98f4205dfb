package org.fabricscope.model.ranks;

import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.host.Gpu;
import org.fabricscope.model.training.Rank;

/**
 * Where one training rank ran, joined across the layers: the log's host name (the pod name in
 * Kubernetes), the pod and node it names, the fabric host, the GPU (by the busId of its Init
 * line), and the HCA and leaf port its traffic leaves by (the GPU's nearest NIC). Parts that the
 * loaded inputs cannot give are null.
 */
public record RankSite(Rank rank, String pod, String k8sNode, String host, Gpu gpu, FabricNode hca, Port hcaPort,
                       Port leafPort) {
    /** {@code rank 12 (gpt-train-worker-0 on dgx-su2-h07, GPU4, mlx5_4 -> leaf-su2-r5 port 7)}, as much as is known. */
    public String describe() {
        return "rank " + rank.rank() + " " + place();
    }

    /** {@code (gpt-train-worker-0 on dgx-su2-h07, GPU4, mlx5_4 -> leaf-su2-r5 port 7)}: where the rank ran, as much as is known. */
    public String place() {
        StringBuilder b = new StringBuilder("(");
        b.append(pod != null ? pod : rank.host());
        if (host != null && !host.equals(pod != null ? pod : rank.host())) {
            b.append(" on ").append(host);
        }
        if (gpu != null) {
            b.append(", ").append(gpu.label());
        }
        if (hca != null) {
            b.append(", ").append(hca.displayName());
            if (leafPort != null) {
                b.append(" -> ").append(leafPort.node().displayName()).append(" port ").append(leafPort.number());
            }
        }
        return b.append(')').toString();
    }
}
