package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.Plural;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.FindingSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.k8s.K8sEvent;
import org.fabricscope.model.k8s.K8sLayer;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.k8s.Quantity;
import org.fabricscope.model.k8s.SchedulingFailure;

/**
 * {@code insufficient-resources}: a Pending pod that no node can fit. The resources come from the
 * scheduler's FailedScheduling reasons ({@code Insufficient X}) or, without an event, from comparing
 * the pod's requests with each node's free capacity; the per-node shortfall is the request minus
 * (allocatable minus the requests of the pods already on that node). Remedies are the ACK eRDMA guide's FAQ
 * ("What should I do if an Arena job submission fails with an insufficient resources error?").
 */
public final class InsufficientResourcesCheck implements FabricCheck {
    /** Per resource, the title lists at most this many nodes (those closest to fitting on a big cluster). */
    static final int MAX_NODES_SHOWN = 8;

    static final FindingSpec SPEC = new FindingSpec("insufficient-resources", Layer.KUBERNETES, Severity.ERROR,
            "Pending pods that request more of a resource than any node has free, with the per-node shortfall",
            "the ACK eRDMA guide FAQ (insufficient resources); the scheduler's FailedScheduling reasons");

    @Override
    public List<FindingSpec> findings() {
        return List.of(SPEC);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        FabricModel model = context.model();
        K8sLayer k8s = model.k8s();
        List<Finding> out = new ArrayList<>();
        for (K8sPod pod : k8s.pods()) {
            if (!pod.pending() || pod.node() != null) {
                continue;
            }
            List<Evidence> evidence = new ArrayList<>();
            Set<String> resources = new LinkedHashSet<>();
            List<String> otherReasons = new ArrayList<>();
            for (K8sEvent e : k8s.eventsFor(pod)) {
                SchedulingFailure f = e.scheduling();
                if (f == null) {
                    continue;
                }
                evidence.add(e.evidence());
                for (SchedulingFailure.Reason r : f.reasons()) {
                    if (r.kind() == SchedulingFailure.Kind.INSUFFICIENT) {
                        resources.add(r.subject());
                    } else {
                        otherReasons.add(r.count() + " " + r.text());
                    }
                }
            }
            Map<String, Quantity> req = pod.requests();
            if (resources.isEmpty() && evidence.isEmpty() && !k8s.nodes().isEmpty()) {
                for (Map.Entry<String, Quantity> r : req.entrySet()) {
                    boolean fitsSomewhere = k8s.nodes().keySet().stream().anyMatch(n -> {
                        Quantity free = k8s.free(n).get(r.getKey());
                        return free != null && free.compareTo(r.getValue()) >= 0;
                    });
                    if (r.getValue().isPositive() && !fitsSomewhere) {
                        resources.add(r.getKey());
                    }
                }
            }
            if (resources.isEmpty()) {
                continue;
            }
            List<String> detail = new ArrayList<>();
            List<Subject> subjects = new ArrayList<>();
            subjects.add(Subjects.pod(pod));
            Set<K8sNode> cited = new LinkedHashSet<>();
            for (String res : resources) {
                Quantity want = req.get(res);
                StringBuilder sb = new StringBuilder(res).append(": requests ")
                        .append(want == null ? "?" : want.display(res)).append(" per pod; free");
                List<K8sNode> shown = new ArrayList<>(k8s.nodes().values());
                int more = 0;
                if (shown.size() > MAX_NODES_SHOWN) { // a big cluster: the nodes closest to fitting
                    shown.sort(Comparator.comparing(n -> k8s.free(n.name()).getOrDefault(res, Quantity.ZERO),
                            Comparator.reverseOrder()));
                    more = shown.size() - MAX_NODES_SHOWN;
                    shown = shown.subList(0, MAX_NODES_SHOWN);
                }
                cited.addAll(shown);
                for (K8sNode n : shown) {
                    Quantity alloc = n.allocatable(res);
                    Quantity free = k8s.free(n.name()).getOrDefault(res, Quantity.ZERO);
                    sb.append(' ').append(n.name()).append(' ').append(free.display(res));
                    if (want != null && free.compareTo(want) < 0) {
                        sb.append(" (short ").append(want.minus(free).display(res)).append(')');
                    }
                    if (alloc == null) {
                        sb.append(" [not offered]");
                    }
                    sb.append(',');
                }
                sb.setLength(sb.length() - 1);
                if (more > 0) {
                    sb.append(" and ").append(Plural.of(more, "more node", "more nodes")).append(" with less free");
                }
                detail.add(sb.toString());
            }
            cited.stream().filter(n -> n.allocatableEvidence() != null).forEach(n -> evidence.add(n.allocatableEvidence()));
            if (pod.evidence() != null) {
                evidence.add(0, pod.evidence());
            }
            StringBuilder title = new StringBuilder("Pod ").append(pod.key()).append(" is Pending: insufficient ")
                    .append(String.join(", ", resources)).append(" (").append(String.join("; ", detail))
                    .append(')');
            if (!otherReasons.isEmpty()) {
                title.append("; also ").append(String.join(", ", otherReasons));
            }
            List<String> remedies = new ArrayList<>();
            remedies.add("Lower the request (for example fewer GPUs per worker: arena --gpus, or the job's "
                    + "resources.limits) so that a pod fits one node's free " + String.join(", ", resources) + ".");
            remedies.add("Free resources (delete finished or idle jobs holding them) or add nodes; run kubectl get nodes "
                    + "and kubectl get node <node> -o jsonpath='{.status.allocatable}' to see what each node offers.");
            remedies.add("Check the scheduling conditions: node selectors, affinity and taint tolerations; kubectl describe pod "
                    + pod.name() + " -n " + pod.namespace() + " shows the scheduler's reason for each node.");
            out.add(new Finding(SPEC.id(), Severity.ERROR, title.toString(), subjects, evidence, remedies));
        }
        return out;
    }
}
