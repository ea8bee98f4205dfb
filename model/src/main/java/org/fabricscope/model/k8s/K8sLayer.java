package org.fabricscope.model.k8s;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.NaturalOrder;

/**
 * The Kubernetes layer of a model: nodes by name, pods, events, training jobs, and which fabric
 * host each node is (joined by node name, {@code kubernetes.io/hostname}, InternalIP, or the short
 * form of a fully qualified name). Immutable.
 */
public final class K8sLayer {
    public static final K8sLayer EMPTY = new K8sLayer(Map.of(), List.of(), List.of(), List.of(), Map.of());

    private final Map<String, K8sNode> nodes;
    private final List<K8sPod> pods;
    private final List<K8sEvent> events;
    private final List<TrainingJob> jobs;
    private final Map<String, String> hostOfNode;
    private final Map<String, List<K8sPod>> podsByNode = new LinkedHashMap<>();
    private final Map<String, Map<String, Quantity>> freeByNode = new LinkedHashMap<>();
    private final Map<String, List<K8sPod>> podsByJob = new LinkedHashMap<>();
    private final Map<String, List<K8sEvent>> eventsByObject = new LinkedHashMap<>();

    public K8sLayer(Map<String, K8sNode> nodes, List<K8sPod> pods, List<K8sEvent> events, List<TrainingJob> jobs,
                    Map<String, String> hostOfNode) {
        this.nodes = Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
        this.pods = List.copyOf(pods);
        this.events = List.copyOf(events);
        this.jobs = List.copyOf(jobs);
        this.hostOfNode = Map.copyOf(hostOfNode);
        for (K8sPod p : this.pods) {
            if (p.node() != null) {
                podsByNode.computeIfAbsent(p.node(), k -> new ArrayList<>()).add(p);
            }
        }
        for (K8sPod p : this.pods) {
            if (p.job() != null) {
                podsByJob.computeIfAbsent(p.namespace() + "/" + p.job().jobName(), k -> new ArrayList<>()).add(p);
            }
        }
        for (K8sEvent e : this.events) {
            eventsByObject.computeIfAbsent(e.objectName(), k -> new ArrayList<>()).add(e);
        }
        for (K8sNode n : this.nodes.values()) {
            Map<String, Quantity> free = new TreeMap<>(n.allocatable());
            for (K8sPod p : podsByNode.getOrDefault(n.name(), List.of())) {
                if (!p.terminated()) {
                    p.requests().forEach((k, v) -> free.computeIfPresent(k, (kk, have) -> have.minus(v)));
                }
            }
            freeByNode.put(n.name(), Collections.unmodifiableMap(free));
        }
    }

    public Map<String, K8sNode> nodes() {
        return nodes;
    }

    public List<K8sPod> pods() {
        return pods;
    }

    public List<K8sEvent> events() {
        return events;
    }

    public List<TrainingJob> jobs() {
        return jobs;
    }

    /** The Kubernetes node that joined this fabric host, or null (the first by node name when several did). */
    public K8sNode nodeOfHost(String hostName) {
        for (Map.Entry<String, String> e : hostOfNode.entrySet()) {
            if (e.getValue().equals(hostName)) {
                return nodes.get(e.getKey());
            }
        }
        return null;
    }

    /** The fabric host name a node joined, or null. */
    public String hostOf(String nodeName) {
        return hostOfNode.get(nodeName);
    }

    public List<K8sPod> podsOn(String nodeName) {
        return List.copyOf(podsByNode.getOrDefault(nodeName, List.of()));
    }

    public List<K8sEvent> eventsFor(K8sPod pod) {
        return eventsByObject.getOrDefault(pod.name(), List.of()).stream().filter(e -> pod.name().equals(e.objectName())
                && (e.namespace().isEmpty() || pod.namespace().equals(e.namespace()))
                && (e.objectKind() == null || e.objectKind().equals("Pod"))).toList();
    }

    /** The pods of a job (by namespace and job name), in name order. */
    public List<K8sPod> podsOf(TrainingJob job) {
        return List.copyOf(podsByJob.getOrDefault(job.key(), List.of()));
    }

    /** Allocatable minus the requests of the node's pods that hold resources (not Succeeded/Failed). */
    public Map<String, Quantity> free(String nodeName) {
        return freeByNode.getOrDefault(nodeName, Map.of());
    }

    /**
     * Which nodes the pod fits and why the others do not, as kube-scheduler's filters would say it
     * (see {@link NodeFit}); for a Pending pod the reasons should agree with its FailedScheduling event.
     */
    public List<NodeFit> fit(K8sPod pod) {
        List<NodeFit> out = new ArrayList<>();
        for (K8sNode n : nodes.values()) {
            List<String> reasons = new ArrayList<>();
            if (n.unschedulable()) {
                reasons.add("node(s) were unschedulable");
            }
            for (Taint t : n.taints()) {
                boolean hard = t.effect().equals("NoSchedule") || t.effect().equals("NoExecute");
                if (hard && pod.spec().tolerations().stream().noneMatch(x -> x.tolerates(t))) {
                    reasons.add("node(s) had untolerated taint {" + t.key() + ": " + t.value() + "}");
                    break;
                }
            }
            for (Map.Entry<String, String> s : pod.spec().nodeSelector().entrySet()) {
                if (!s.getValue().equals(n.labels().get(s.getKey()))) {
                    reasons.add("node(s) didn't match Pod's node affinity/selector");
                    break;
                }
            }
            Map<String, Quantity> free = new TreeMap<>(free(n.name()));
            if (pod.node() != null && pod.node().equals(n.name()) && !pod.terminated()) {
                Resources.addAll(free, pod.requests()); // the pod's own requests are already counted there
            }
            pod.requests().forEach((res, want) -> {
                if (!want.isPositive()) {
                    return;
                }
                Quantity have = free.get(res);
                if (have == null || have.compareTo(want) < 0) {
                    reasons.add("Insufficient " + res);
                }
            });
            out.add(new NodeFit(n.name(), reasons));
        }
        return out;
    }

    /** Total allocatable over all nodes read, per resource, as numbers in base units (cores, bytes, devices): a whole number as a long, else a double. */
    public Map<String, Number> allocatableTotals() {
        Map<String, Quantity> sum = new TreeMap<>(NaturalOrder.INSTANCE);
        for (K8sNode n : nodes.values()) {
            Resources.addAll(sum, n.allocatable());
        }
        Map<String, Number> out = new LinkedHashMap<>();
        sum.forEach((k, v) -> {
            java.math.BigDecimal d = v.value().stripTrailingZeros();
            boolean whole = d.scale() <= 0 && d.abs().compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) < 0;
            out.put(k, whole ? (Number) d.longValueExact() : (Number) d.doubleValue());
        });
        return out;
    }

    /**
     * Joins nodes to host names: the node name, its hostname label, its InternalIP, then the short
     * (unqualified) name of each, the first that names a host in {@code hostNames}.
     */
    public static Map<String, String> join(Map<String, K8sNode> nodes, Set<String> hostNames) {
        Map<String, String> lower = new LinkedHashMap<>();
        for (String h : hostNames) {
            lower.putIfAbsent(h.toLowerCase(Locale.ROOT), h);
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (K8sNode n : nodes.values()) {
            List<String> keys = new ArrayList<>();
            keys.add(n.name());
            if (n.hostname() != null) {
                keys.add(n.hostname());
            }
            if (n.internalIp() != null) {
                keys.add(n.internalIp());
            }
            for (String k : List.copyOf(keys)) {
                int dot = k.indexOf('.');
                if (dot > 0 && !Character.isDigit(k.charAt(0))) {
                    keys.add(k.substring(0, dot));
                }
            }
            for (String k : keys) {
                String h = lower.get(k.toLowerCase(Locale.ROOT));
                if (h != null) {
                    out.put(n.name(), h);
                    break;
                }
            }
        }
        return out;
    }

    /** Evidence for a node's allocatable map, or an empty citation. */
    public static Evidence allocatableEvidence(K8sNode n) {
        return n.allocatableEvidence() != null ? n.allocatableEvidence() : Evidence.at("", 0, "node " + n.name());
    }
}
