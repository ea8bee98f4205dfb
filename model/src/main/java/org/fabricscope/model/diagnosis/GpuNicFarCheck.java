package org.fabricscope.model.diagnosis;

import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.Evidence;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.Finding;
import org.fabricscope.model.Severity;
import org.fabricscope.model.host.AffinityMatrix;
import org.fabricscope.model.host.Gpu;
import org.fabricscope.model.host.HostTopology;
import org.fabricscope.model.host.NetPort;
import org.fabricscope.model.host.PathType;
import org.fabricscope.model.Vertex;

/**
 * {@code gpu-nic-far}: a GPU whose nearest NIC is only reachable through the CPU interconnect
 * ({@code SYS} in the {@code nvidia-smi topo -m} sense): every byte it sends to another host
 * crosses QPI/UPI/xGMI, and NCCL will not use GPUDirect RDMA at that distance by default.
 */
public final class GpuNicFarCheck implements FabricCheck {
    @Override
    public String id() {
        return "gpu-nic-far";
    }

    @Override
    public String description() {
        return "GPUs whose nearest NIC is on another CPU socket (SYS)";
    }

    @Override
    public List<Finding> run(FabricModel model) {
        List<Finding> out = new ArrayList<>();
        for (HostTopology t : model.hostTopologies().values()) {
            AffinityMatrix m = t.affinity();
            if (m == null || m.nicColumns().isEmpty()) {
                continue;
            }
            for (Gpu g : t.gpus()) {
                if (m.nearestNicType(g) != PathType.SYS) {
                    continue;
                }
                List<Evidence> evidence = new ArrayList<>();
                if (g.evidence() != null) {
                    evidence.add(g.evidence());
                }
                for (Vertex v : m.nicColumns()) {
                    if (v instanceof NetPort n && n.evidence() != null && evidence.size() < 4) {
                        evidence.add(new Evidence(n.evidence().source(), n.evidence().line(),
                                n.evidence().text() + "  (" + m.label(g, n) + " from " + g.label() + ")"));
                    }
                }
                String subject = HostSubjects.gpu(g);
                out.add(new Finding(id(), Severity.WARNING,
                        subject + " reaches its nearest NIC only through the CPU interconnect (SYS)",
                        List.of(subject), evidence,
                        List.of("Place a NIC on this GPU's CPU socket, ideally under the same PCIe switch "
                                        + "(PIX/PXB in nvidia-smi topo -m); GPUDirect RDMA needs GPU and NIC on the "
                                        + "same PCIe root complex.",
                                "Check that NCCL_IB_HCA does not leave out the NICs near this GPU, and that every "
                                        + "NIC of the host shows up in the topology dump.",
                                "Confirm with nvidia-smi topo -m on the host: this GPU's row should show SYS for "
                                        + "every NIC.")));
            }
        }
        return out;
    }
}
