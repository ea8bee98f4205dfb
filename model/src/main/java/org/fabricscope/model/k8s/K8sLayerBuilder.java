package org.fabricscope.model.k8s;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.NaturalOrder;

/**
 * Collects what the Kubernetes importers read, in any file order, and builds the {@link K8sLayer}:
 * an allocatable-only map overlays the node of the same name; a pod read twice (JSON and describe)
 * keeps the first full read; the same event read twice (events list, table and describe) is kept once;
 * jobs without a manifest are gathered from their pods' identities.
 */
public final class K8sLayerBuilder {
    private final Map<String, K8sNode> nodes = new LinkedHashMap<>();
    private final Map<String, Map<String, Quantity>> allocatableOnly = new LinkedHashMap<>();
    private final Map<String, Evidence> allocatableOnlyEvidence = new LinkedHashMap<>();
    private final Map<String, K8sPod> pods = new LinkedHashMap<>();
    private final Map<String, K8sEvent> events = new LinkedHashMap<>();
    private final Map<String, TrainingJob> jobs = new LinkedHashMap<>();

    public void node(K8sNode n) {
        nodes.put(n.name(), n);
    }

    /** An allocatable map read on its own (jsonpath one-liner) for the named node. */
    public void allocatable(String nodeName, Map<String, Quantity> map, Evidence evidence) {
        allocatableOnly.put(nodeName, org.fabricscope.model.core.OrderedMaps.copyOf(map));
        allocatableOnlyEvidence.put(nodeName, evidence);
    }

    /** A pod; when {@code fromDescribe} and the pod was already read from JSON/YAML, the earlier read stays. */
    public void pod(K8sPod p, boolean fromDescribe) {
        K8sPod old = pods.get(p.key());
        if (old == null || !fromDescribe) {
            pods.put(p.key(), p);
        }
    }

    public void event(K8sEvent e) {
        // by name, not namespace: an events table read without -A does not print the namespace
        String key = e.objectName() + "|" + e.reason() + "|" + e.message();
        events.putIfAbsent(key, e);
    }

    public void job(TrainingJob j) {
        jobs.put(j.key(), j);
    }

    public boolean isEmpty() {
        return nodes.isEmpty() && allocatableOnly.isEmpty() && pods.isEmpty() && events.isEmpty() && jobs.isEmpty();
    }

    public K8sLayer build(Set<String> hostNames) {
        if (isEmpty()) {
            return K8sLayer.EMPTY;
        }
        Map<String, K8sNode> all = new LinkedHashMap<>(nodes);
        allocatableOnly.forEach((name, map) -> {
            Evidence ev = allocatableOnlyEvidence.get(name);
            K8sNode n = all.get(name);
            all.put(name, n == null
                    ? new K8sNode(name, Map.of(), List.of(), map, Map.of(), null, null, false, ev, ev)
                    : n.withAllocatable(map, ev));
        });
        Map<String, K8sNode> sortedNodes = new LinkedHashMap<>();
        all.keySet().stream().sorted(NaturalOrder.INSTANCE).forEach(k -> sortedNodes.put(k, all.get(k)));
        List<K8sPod> podList = new ArrayList<>(pods.values());
        podList.sort(Comparator.comparing(K8sPod::namespace).thenComparing(K8sPod::name, NaturalOrder.INSTANCE));
        Map<String, TrainingJob> allJobs = new LinkedHashMap<>();
        Map<String, List<String>> podsOfJob = new LinkedHashMap<>();
        Map<String, K8sPod> firstPod = new LinkedHashMap<>();
        for (K8sPod p : podList) {
            if (p.job() != null) {
                String key = p.namespace() + "/" + p.job().jobName();
                podsOfJob.computeIfAbsent(key, k -> new ArrayList<>()).add(p.name());
                firstPod.putIfAbsent(key, p);
            }
        }
        Set<String> keys = new LinkedHashSet<>(jobs.keySet());
        keys.addAll(podsOfJob.keySet());
        for (String key : keys) {
            TrainingJob j = jobs.get(key);
            List<String> names = podsOfJob.getOrDefault(key, List.of());
            if (j == null) {
                K8sPod p = firstPod.get(key);
                allJobs.put(key, new TrainingJob(p.job().jobName(), p.namespace(), "pods", List.of(), names, p.evidence()));
            } else {
                allJobs.put(key, new TrainingJob(j.name(), j.namespace(), j.kind(), j.replicas(), names, j.evidence(),
                        j.conditions()));
            }
        }
        return new K8sLayer(sortedNodes, podList, new ArrayList<>(events.values()), new ArrayList<>(allJobs.values()),
                K8sLayer.join(sortedNodes, hostNames));
    }
}
