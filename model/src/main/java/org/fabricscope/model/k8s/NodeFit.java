package org.fabricscope.model.k8s;

import java.util.List;

/**
 * Whether a pod fits a node, and if not why, in the scheduler's words: {@code Insufficient <resource>}
 * (request above allocatable minus the requests of the pods already there), {@code node(s) had
 * untolerated taint {key: value}}, {@code node(s) didn't match Pod's node affinity/selector}
 * (nodeSelector only; affinity expressions are not evaluated), {@code node(s) were unschedulable}.
 */
public record NodeFit(String node, List<String> reasons) {
    public NodeFit {
        reasons = List.copyOf(reasons);
    }

    public boolean fits() {
        return reasons.isEmpty();
    }
}
