package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.Subject;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.FindingSpec;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.host.AffinityMatrix;
import org.fabricscope.model.host.Gpu;
import org.fabricscope.model.host.HostTopology;
import org.fabricscope.model.host.NetPort;
import org.fabricscope.model.host.PathType;
import org.fabricscope.model.core.Vertex;

/**
 * {@code gpu-nic-far}: a GPU whose nearest NIC is only reachable through the CPU interconnect
 * ({@code SYS} in the {@code nvidia-smi topo -m} sense): every byte it sends to another host
 * crosses QPI/UPI/xGMI, and NCCL will not use GPUDirect RDMA at that distance by default.
 */
public final class GpuNicFarCheck implements FabricCheck {
    static final FindingSpec SPEC = new FindingSpec("gpu-nic-far", Layer.HOST, Severity.WARNING,
            "GPUs whose nearest NIC is on another CPU socket (SYS)",
            "GPU-NIC affinity computed from the NCCL topology's PCIe tree (nvidia-smi topo -m SYS)");

    @Override
    public List<FindingSpec> findings() {
        return List.of(SPEC);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        FabricModel model = context.model();
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
                        evidence.add(n.evidence().withText(
                                n.evidence().text() + "  (" + m.label(g, n) + " from " + g.label() + ")"));
                    }
                }
                Subject.GpuRef subject = HostSubjects.gpu(g);
                out.add(new Finding(SPEC.id(), Severity.WARNING,
                        subject.label() + " reaches its nearest NIC only through the CPU interconnect (SYS)",
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
