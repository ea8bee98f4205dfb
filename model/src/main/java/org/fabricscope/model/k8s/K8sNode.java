package org.fabricscope.model.k8s;

import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Evidence;

/**
 * A Kubernetes node as {@code kubectl get nodes -o json|yaml} shows it, or only its allocatable
 * map (from {@code kubectl get node X -o jsonpath='{.status.allocatable}'}), in which case labels,
 * taints and capacity are empty and {@code ready} is null (unknown).
 * {@code allocatableEvidence} cites where the allocatable map was read.
 */
public record K8sNode(String name, Map<String, String> labels, List<Taint> taints, Map<String, Quantity> allocatable,
                      Map<String, Quantity> capacity, Boolean ready, String internalIp, boolean unschedulable,
                      Evidence evidence, Evidence allocatableEvidence) {
    public static final String HOSTNAME_LABEL = "kubernetes.io/hostname";

    public K8sNode {
        labels = org.fabricscope.model.core.OrderedMaps.copyOf(labels);
        taints = List.copyOf(taints);
        allocatable = org.fabricscope.model.core.OrderedMaps.copyOf(allocatable);
        capacity = org.fabricscope.model.core.OrderedMaps.copyOf(capacity);
        allocatableEvidence = allocatableEvidence == null ? evidence : allocatableEvidence;
    }

    /** The {@code kubernetes.io/hostname} label, or null. */
    public String hostname() {
        return labels.get(HOSTNAME_LABEL);
    }

    public Quantity allocatable(String resource) {
        return allocatable.get(resource);
    }

    /** This node with another allocatable map, read from another file. */
    public K8sNode withAllocatable(Map<String, Quantity> map, Evidence from) {
        return new K8sNode(name, labels, taints, map, capacity, ready, internalIp, unschedulable,
                evidence == null ? from : evidence, from);
    }
}
