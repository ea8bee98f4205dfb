package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.Plural;
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
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.k8s.Resources;
import org.fabricscope.model.k8s.TrainingJob;

/**
 * {@code rdma-resource-missing}: a node running pods of a job that expects RDMA (a template or pod
 * requests an RDMA resource, or sets NCCL_IB_HCA) offers no RDMA extended resource: the RDMA
 * device plugin or ACK eRDMA controller is not installed or not running there (Alibaba Cloud ACK: eRDMA for PyTorch distributed training with Arena: "The
 * node does not support eRDMA, or the eRDMA Controller component is not installed correctly").
 */
public final class RdmaResourceMissingCheck implements FabricCheck {
    static final FindingSpec SPEC = new FindingSpec("rdma-resource-missing", Layer.KUBERNETES, Severity.ERROR,
            "Nodes of a job that expects RDMA that offer no RDMA extended resource (device plugin missing)",
            "the ACK eRDMA guide (ACK eRDMA Controller), the RunAI RoCE guide (RDMA device plugin)");

    @Override
    public List<FindingSpec> findings() {
        return List.of(SPEC);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        FabricModel model = context.model();
        List<Finding> out = new ArrayList<>();
        for (TrainingJob job : model.jobs()) {
            List<K8sPod> pods = model.k8s().podsOf(job);
            boolean expects = job.templatesExpectRdma() || pods.stream().anyMatch(p -> p.spec().expectsRdma());
            if (!expects) {
                continue;
            }
            Map<String, List<K8sPod>> byNode = new LinkedHashMap<>();
            for (K8sPod p : pods) {
                if (p.node() != null && !p.terminated() && p.training()) { // not an MPI launcher on a CPU node
                    byNode.computeIfAbsent(p.node(), k -> new ArrayList<>()).add(p);
                }
            }
            String wanted = wantedResource(job, pods);
            for (Map.Entry<String, List<K8sPod>> e : byNode.entrySet()) {
                K8sNode node = model.k8sNodes().get(e.getKey());
                if (node == null || node.allocatable().isEmpty() || !Resources.rdmaOffered(node.allocatable()).isEmpty()) {
                    continue;
                }
                List<Evidence> evidence = new ArrayList<>();
                if (node.allocatableEvidence() != null) {
                    evidence.add(node.allocatableEvidence());
                }
                e.getValue().stream().filter(p -> p.evidence() != null).forEach(p -> evidence.add(p.evidence()));
                List<Subject> subjects = new ArrayList<>();
                subjects.add(Subjects.node(node));
                subjects.add(Subjects.job(job));
                e.getValue().forEach(p -> subjects.add(Subjects.pod(p)));
                out.add(new Finding(SPEC.id(), Severity.ERROR,
                        "Node " + node.name() + " runs " + Plural.of(e.getValue().size(), "pod") + " of job " + job.key()
                                + ", which expects RDMA, but offers no RDMA resource (" + wanted + ") in its allocatable",
                        subjects, evidence, List.of(
                                "Install or repair the RDMA device plugin on " + node.name() + ": the ACK eRDMA Controller "
                                        + "(aliyun/erdma), k8s-rdma-shared-dev-plugin or the NVIDIA Network Operator (rdma/*); "
                                        + "check its pod on this node is Running.",
                                "Confirm with kubectl get node " + node.name()
                                        + " -o jsonpath='{.status.allocatable}' that the RDMA resource appears.",
                                "Log on to the node and run ibv_devinfo: the HCA (mlx5_N or erdma_0) must be PORT_ACTIVE.")));
            }
        }
        return out;
    }

    private static String wantedResource(TrainingJob job, List<K8sPod> pods) {
        List<java.util.Map<String, org.fabricscope.model.k8s.Quantity>> reqs = new ArrayList<>();
        job.replicas().forEach(r -> reqs.add(r.template().effectiveRequests()));
        pods.forEach(p -> reqs.add(p.requests()));
        for (var m : reqs) {
            for (String k : m.keySet()) {
                if (Resources.isRdma(k)) {
                    return "the job requests " + k;
                }
            }
        }
        return "the job sets NCCL_IB_HCA";
    }
}
