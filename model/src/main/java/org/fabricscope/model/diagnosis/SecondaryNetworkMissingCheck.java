package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.Subject;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.FindingSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.k8s.PodSpecSummary;

/**
 * {@code secondary-network-missing}: NCCL_SOCKET_IFNAME names a Multus secondary interface
 * ({@code net1}, {@code net2}, ...) but the pod carries no {@code k8s.v1.cni.cncf.io/networks}
 * annotation, so that interface will not exist and NCCL's bootstrap fails or falls back (the distributed-training module:
 * "Annotate Pods to attach secondary networks ... NCCL_SOCKET_IFNAME: net1").
 */
public final class SecondaryNetworkMissingCheck implements FabricCheck {
    private static final Pattern MULTUS_IF = Pattern.compile("^net\\d+$");

    static final FindingSpec SPEC = new FindingSpec("secondary-network-missing", Layer.KUBERNETES, Severity.ERROR,
            "Pods whose NCCL_SOCKET_IFNAME names a Multus interface (net1) with no networks annotation",
            "the distributed-training module (Multus net1 and NCCL_SOCKET_IFNAME)");

    @Override
    public List<FindingSpec> findings() {
        return List.of(SPEC);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        FabricModel model = context.model();
        List<Finding> out = new ArrayList<>();
        for (K8sSubjects.Spec s : K8sSubjects.trainingSpecs(model)) {
            List<String> ifs = s.spec().socketInterfaces().stream().filter(i -> MULTUS_IF.matcher(i).matches()).toList();
            String nets = s.spec().networks();
            if (ifs.isEmpty() || (nets != null && !nets.isBlank())) {
                continue;
            }
            out.add(new Finding(SPEC.id(), Severity.ERROR,
                    s.label() + " sets NCCL_SOCKET_IFNAME=" + s.spec().env().get("NCCL_SOCKET_IFNAME") + " but has no "
                            + PodSpecSummary.NETWORKS_ANNOTATION + " annotation: interface " + ifs.get(0)
                            + " will not exist in the pod",
                    List.of(s.subject()), K8sSubjects.cite(s, "NCCL_SOCKET_IFNAME"),
                    List.of("Add the annotation " + PodSpecSummary.NETWORKS_ANNOTATION + ": <NetworkAttachmentDefinition> "
                                    + "(for example roce-network) to this replica's pod template metadata, not only the master's; "
                                    + "with RunAI, --annotation k8s.v1.cni.cncf.io/networks=kube-system/roce.",
                            "Check Multus runs (kubectl get pods -n kube-system -l app=multus) and the "
                                    + "NetworkAttachmentDefinition exists in the pod's namespace (kubectl get net-attach-def).",
                            "Or, if no secondary network is intended, set NCCL_SOCKET_IFNAME=eth0.")));
        }
        return out;
    }
}
