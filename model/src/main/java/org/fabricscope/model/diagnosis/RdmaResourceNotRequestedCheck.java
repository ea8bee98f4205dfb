package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.Subject;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.FindingSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.k8s.Quantity;
import org.fabricscope.model.k8s.Resources;

/**
 * {@code rdma-resource-not-requested}: a training pod scheduled on a node that offers an RDMA
 * device resource ({@code aliyun/erdma}, {@code rdma/*}) but requests none, so the device plugin
 * mounts no RDMA device and NCCL falls back to TCP sockets. The ACK eRDMA guide's FAQ ("Why doesn't the log
 * show NET/IB : Using erdma_0?": the {@code --device=aliyun/erdma=1} parameter was not added) and
 * the RunAI RoCE guide (RunAI {@code --extended-resource rdma/rdma=1}).
 */
public final class RdmaResourceNotRequestedCheck implements FabricCheck {
    static final FindingSpec SPEC = new FindingSpec("rdma-resource-not-requested", Layer.KUBERNETES, Severity.WARNING,
            "Training pods that request no RDMA resource although their node offers one (NCCL then uses TCP)",
            "the ACK eRDMA guide (--device=aliyun/erdma=1), the RunAI RoCE guide (rdma/rdma extended resource)");

    @Override
    public List<FindingSpec> findings() {
        return List.of(SPEC);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        FabricModel model = context.model();
        List<Finding> out = new ArrayList<>();
        for (K8sPod pod : model.pods()) {
            if (!pod.training() || pod.node() == null || pod.terminated() || pod.spec().requestsRdma()) {
                continue;
            }
            K8sNode node = model.k8sNodes().get(pod.node());
            if (node == null) {
                continue;
            }
            Map<String, Quantity> offered = Resources.rdmaOffered(node.allocatable());
            if (offered.isEmpty()) {
                continue;
            }
            String res = offered.keySet().iterator().next();
            List<Evidence> evidence = new ArrayList<>();
            if (pod.evidence() != null) {
                evidence.add(pod.evidence());
            }
            if (node.allocatableEvidence() != null) {
                evidence.add(node.allocatableEvidence());
            }
            List<String> remedies = new ArrayList<>();
            remedies.add("Request the RDMA resource in the pod template: resources.limits \"" + res + "\": 1 (extended "
                    + "resources are requested through limits).");
            if (res.equals(Resources.ERDMA)) {
                remedies.add("With Arena, add --device=aliyun/erdma=1 to arena submit pytorch.");
            } else {
                remedies.add("With RunAI, add --extended-resource " + res + "=1 (the RunAI RoCE guide's cluster names it rdma/rdma: "
                        + "--extended-resource rdma/rdma=1); with Arena, --device=" + res + "=1.");
            }
            remedies.add("Then look for \"NET/IB : Using\" in the NCCL_DEBUG=INFO log of rank 0 instead of \"Using network Socket\".");
            out.add(new Finding(SPEC.id(), Severity.WARNING,
                    "Training pod " + pod.key() + " on node " + node.name() + " requests no RDMA resource although the node "
                            + "offers " + res + "=" + offered.get(res).text() + "; NCCL will fall back to TCP sockets",
                    List.of(Subjects.pod(pod), Subjects.node(node)), evidence, remedies));
        }
        return out;
    }
}
