package org.fabricscope.model.compare;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.Quantity;
import org.fabricscope.model.k8s.Taint;

/**
 * The Kubernetes layer's differences, per node (by name): added and removed nodes, each allocatable resource,
 * each label, each taint (by key and effect), readiness and whether it is cordoned.
 */
final class KubeDiff {
    private KubeDiff() {
    }

    static void compare(FabricModel before, FabricModel after, List<Change> out) {
        Map<String, K8sNode> b = before.k8sNodes();
        Map<String, K8sNode> a = after.k8sNodes();
        for (String name : Values.union(b.keySet(), a.keySet())) {
            K8sNode x = b.get(name);
            K8sNode y = a.get(name);
            String subject = "node " + name;
            if (x == null || y == null) {
                out.add(new Change(Change.KUBERNETES, x == null ? Change.ADDED : Change.REMOVED, subject, "node", null, null));
                continue;
            }
            Values.compare(Change.KUBERNETES, subject, "allocatable ", quantities(x.allocatable()), quantities(y.allocatable()), out);
            Values.compare(Change.KUBERNETES, subject, "label ", x.labels(), y.labels(), out);
            Values.compare(Change.KUBERNETES, subject, "taint ", taints(x.taints()), taints(y.taints()), out);
            Values.compare(Change.KUBERNETES, subject, "", state(x), state(y), out);
        }
    }

    private static Map<String, String> quantities(Map<String, Quantity> q) {
        Map<String, String> out = new LinkedHashMap<>();
        q.forEach((k, v) -> out.put(k, v.text()));
        return out;
    }

    private static Map<String, String> taints(List<Taint> taints) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Taint t : taints) {
            out.put(t.key() + ":" + t.effect(), t.value() == null ? "" : t.value());
        }
        return out;
    }

    private static Map<String, String> state(K8sNode n) {
        Map<String, String> out = new LinkedHashMap<>();
        if (n.ready() != null) {
            out.put("ready", n.ready().toString());
        }
        out.put("unschedulable", Boolean.toString(n.unschedulable()));
        return out;
    }
}
