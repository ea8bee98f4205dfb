package org.fabricscope.model.k8s;

import java.util.Map;
import java.util.TreeMap;

/** Resource-name facts: which extended resources are RDMA devices, and summing request maps. */
public final class Resources {
    public static final String GPU = "nvidia.com/gpu";
    public static final String ERDMA = "aliyun/erdma";

    private Resources() {
    }

    /**
     * RDMA device resources: {@code aliyun/erdma} (ACK eRDMA controller), {@code rdma/*}
     * (k8s-rdma-shared-dev-plugin, Network Operator, Arena {@code rdma/hca}, RunAI {@code rdma/rdma}).
     */
    public static boolean isRdma(String resource) {
        return resource != null && (resource.equals(ERDMA) || resource.startsWith("rdma/"));
    }

    /** The RDMA resources a node offers (count above zero), by name. */
    public static Map<String, Quantity> rdmaOffered(Map<String, Quantity> allocatable) {
        Map<String, Quantity> out = new TreeMap<>();
        allocatable.forEach((k, v) -> {
            if (isRdma(k) && v.isPositive()) {
                out.put(k, v);
            }
        });
        return out;
    }

    public static boolean requestsRdma(Map<String, Quantity> requests) {
        return requests.entrySet().stream().anyMatch(e -> isRdma(e.getKey()) && e.getValue().isPositive());
    }

    /** Adds {@code add} into {@code into}, resource by resource. */
    public static void addAll(Map<String, Quantity> into, Map<String, Quantity> add) {
        add.forEach((k, v) -> into.merge(k, v, Quantity::plus));
    }
}
