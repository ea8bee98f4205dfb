package org.fabricscope.model.k8s;

import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Evidence;

/**
 * What the checks need from a pod spec or a job's pod template: container requests and limits
 * summed over the (non-init) containers, the containers' environment (first value of a name
 * wins), the Multus {@code k8s.v1.cni.cncf.io/networks} annotation (null when absent), the
 * volume mounted at {@code /dev/shm} (null when none), and the node selector. {@code citations}
 * point at the input lines of single settings where the reader could find them: keys
 * {@code NCCL_SOCKET_IFNAME} (the env entry), {@code /dev/shm} (the mount) and {@code sizeLimit}.
 * {@code tolerations} are the pod's tolerations of node taints.
 */
public record PodSpecSummary(Map<String, Quantity> requests, Map<String, Quantity> limits, Map<String, String> env,
                             String networks, ShmVolume devShm, Map<String, String> nodeSelector,
                             Map<String, Evidence> citations, List<Toleration> tolerations) {
    public static final String NETWORKS_ANNOTATION = "k8s.v1.cni.cncf.io/networks";
    public static final PodSpecSummary EMPTY = new PodSpecSummary(Map.of(), Map.of(), Map.of(), null, null, Map.of());

    public PodSpecSummary {
        requests = org.fabricscope.model.core.OrderedMaps.copyOf(requests);
        limits = org.fabricscope.model.core.OrderedMaps.copyOf(limits);
        env = org.fabricscope.model.core.OrderedMaps.copyOf(env);
        nodeSelector = org.fabricscope.model.core.OrderedMaps.copyOf(nodeSelector);
        citations = citations == null ? Map.of() : org.fabricscope.model.core.OrderedMaps.copyOf(citations);
        tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
    }

    public PodSpecSummary(Map<String, Quantity> requests, Map<String, Quantity> limits, Map<String, String> env,
                          String networks, ShmVolume devShm, Map<String, String> nodeSelector,
                          Map<String, Evidence> citations) {
        this(requests, limits, env, networks, devShm, nodeSelector, citations, List.of());
    }

    public PodSpecSummary(Map<String, Quantity> requests, Map<String, Quantity> limits, Map<String, String> env,
                          String networks, ShmVolume devShm, Map<String, String> nodeSelector) {
        this(requests, limits, env, networks, devShm, nodeSelector, Map.of(), List.of());
    }

    /** The same spec citing these input lines. */
    public PodSpecSummary withCitations(Map<String, Evidence> cites) {
        return new PodSpecSummary(requests, limits, env, networks, devShm, nodeSelector, cites, tolerations);
    }

    /** The cited evidence for a setting, or null. */
    public Evidence citation(String key) {
        return citations.get(key);
    }

    /**
     * What the scheduler counts: the request, or the limit where no request is set (Kubernetes
     * defaults requests to limits; extended resources such as {@code aliyun/erdma} are usually
     * given only as limits).
     */
    public Map<String, Quantity> effectiveRequests() {
        java.util.Map<String, Quantity> out = new java.util.TreeMap<>(limits);
        out.putAll(requests);
        return out;
    }

    public boolean requestsRdma() {
        return Resources.requestsRdma(effectiveRequests());
    }

    /** The interfaces NCCL_SOCKET_IFNAME names ({@code ^} and {@code =} prefixes dropped), in order. */
    public List<String> socketInterfaces() {
        String v = env.get("NCCL_SOCKET_IFNAME");
        if (v == null || v.isBlank()) {
            return List.of();
        }
        String t = v.trim();
        if (t.startsWith("^")) {
            return List.of(); // an exclusion list names no interface to use
        }
        return java.util.Arrays.stream(t.split(",")).map(s -> s.trim().replaceFirst("^=", ""))
                .filter(s -> !s.isEmpty()).toList();
    }

    /** True when the environment selects InfiniBand/RoCE HCAs for NCCL (NCCL_IB_HCA set, IB not disabled). */
    public boolean expectsRdma() {
        String disable = env.get("NCCL_IB_DISABLE");
        if (disable != null && disable.trim().equals("1")) {
            return false;
        }
        String hca = env.get("NCCL_IB_HCA");
        return requestsRdma() || (hca != null && !hca.isBlank());
    }
}
