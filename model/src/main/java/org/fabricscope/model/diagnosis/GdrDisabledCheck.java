package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.Subject;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.FindingSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.host.Gpu;
import org.fabricscope.model.host.HostTopology;
import org.fabricscope.model.host.NetPort;

/**
 * {@code gdr-disabled}: GPUs or PCIe NIC nets with {@code gdr="0"} where others of the same kind,
 * on the same host or on other loaded hosts, have {@code gdr="1"}: GPUDirect RDMA is off for
 * them, so NCCL stages their network traffic through host memory. One finding per host and kind.
 * Socket NICs that NCCL hangs off the CPU never do GDR and are not compared.
 */
public final class GdrDisabledCheck implements FabricCheck {
    private static final int MAX_EVIDENCE = 8;

    static final FindingSpec SPEC = new FindingSpec("gdr-disabled", Layer.HOST, Severity.WARNING,
            "GPUs or NICs without GPUDirect RDMA (gdr 0) where their peers have it (gdr 1)",
            "NCCL topology gdr attribute; the ACK eRDMA guide, the RDMA fabric manual");

    @Override
    public List<FindingSpec> findings() {
        return List.of(SPEC);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        FabricModel model = context.model();
        boolean anyGpu = false;
        boolean anyNet = false;
        for (HostTopology t : model.hostTopologies().values()) {
            anyGpu |= t.gpus().stream().anyMatch(g -> g.gdr() == 1);
            anyNet |= t.nets().stream().anyMatch(n -> n.onPcie() && n.gdr() == 1);
        }
        List<Finding> out = new ArrayList<>();
        for (HostTopology t : model.hostTopologies().values()) {
            if (anyGpu) {
                Map<Subject, Evidence> off = new LinkedHashMap<>();
                for (Gpu g : t.gpus()) {
                    if (g.gdr() == 0) {
                        off.put(HostSubjects.gpu(g), g.evidence());
                    }
                }
                add(out, t, "GPU", off);
            }
            if (anyNet) {
                Map<Subject, Evidence> off = new LinkedHashMap<>();
                for (NetPort n : t.nets()) {
                    if (n.onPcie() && n.gdr() == 0) {
                        off.put(HostSubjects.net(n), n.evidence());
                    }
                }
                add(out, t, "NIC", off);
            }
        }
        return out;
    }

    private void add(List<Finding> out, HostTopology t, String kind, Map<Subject, Evidence> off) {
        if (off.isEmpty()) {
            return;
        }
        List<Evidence> evidence = new ArrayList<>();
        for (Evidence e : off.values()) {
            if (e != null && evidence.size() < MAX_EVIDENCE) {
                evidence.add(e.withText(e.text() + "  (gdr 0 where peers have 1)"));
            }
        }
        out.add(new Finding(SPEC.id(), Severity.WARNING,
                "GPUDirect RDMA is off for " + off.size() + " " + kind + (off.size() == 1 ? "" : "s") + " on " + t.name()
                        + " while other " + kind + "s have it",
                List.copyOf(off.keySet()), evidence,
                List.of("Load the NVIDIA peer memory kernel module on " + t.name()
                                + ": modprobe nvidia-peermem (nv_peer_mem on older stacks); one node missing it is "
                                + "enough to slow the whole job.",
                        "In Kubernetes, let the GPU Operator manage it: ClusterPolicy driver.rdma.enabled=true "
                                + "(useHostMofed=true when the host's MLNX_OFED is used).",
                        "GPUDirect RDMA also needs the GPU and NIC on the same PCIe root complex, ideally the same "
                                + "PCIe switch, and a ConnectX-6 or newer NIC.",
                        "Check with NCCL_DEBUG=INFO: channel lines should say NET/IB/0/GDRDMA; without /GDRDMA the "
                                + "data is staged through host memory.")));
    }
}
