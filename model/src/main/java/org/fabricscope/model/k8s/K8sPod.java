package org.fabricscope.model.k8s;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.fabricscope.model.core.Evidence;

/**
 * A pod: where it runs ({@code node} null while Pending and unscheduled), its phase, labels,
 * training-job identity (null when none), the spec facts the checks use, and its containers'
 * statuses (restarts, exit codes; empty when the input had none, e.g. a pod template).
 */
public record K8sPod(String name, String namespace, String node, String phase, Map<String, String> labels,
                     JobIdentity job, PodSpecSummary spec, Evidence evidence, List<ContainerStatus> containers) {
    public K8sPod {
        namespace = namespace == null || namespace.isBlank() ? "default" : namespace;
        labels = org.fabricscope.model.core.OrderedMaps.copyOf(labels);
        spec = spec == null ? PodSpecSummary.EMPTY : spec;
        containers = containers == null ? List.of() : List.copyOf(containers);
    }

    /** A pod without container statuses. */
    public K8sPod(String name, String namespace, String node, String phase, Map<String, String> labels,
                  JobIdentity job, PodSpecSummary spec, Evidence evidence) {
        this(name, namespace, node, phase, labels, job, spec, evidence, List.of());
    }

    /** The restarts of all its containers (what {@code kubectl get pods} prints as RESTARTS). */
    public int restarts() {
        int n = 0;
        for (ContainerStatus c : containers) {
            n += c.init() ? 0 : c.restarts();
        }
        return n;
    }

    /** The exit codes of its containers that exited, now or in their previous run, {@code ; }-joined; empty for none. */
    public String exitCodes() {
        return containers.stream().filter(ContainerStatus::exited).map(ContainerStatus::exitText)
                .collect(Collectors.joining("; "));
    }

    public String key() {
        return namespace + "/" + name;
    }

    public boolean pending() {
        return "Pending".equalsIgnoreCase(phase);
    }

    /** Succeeded or Failed pods hold no resources on their node. */
    public boolean terminated() {
        return "Succeeded".equalsIgnoreCase(phase) || "Failed".equalsIgnoreCase(phase);
    }

    /**
     * A pod of a training job, or one that asks for GPUs. An MPI launcher only runs mpirun, so it
     * counts only when it asks for GPUs itself (mpi-operator's runLauncherAsWorker).
     */
    public boolean training() {
        boolean gpus = spec.effectiveRequests().containsKey(Resources.GPU);
        if (job != null && "launcher".equals(job.replicaType())) {
            return gpus;
        }
        return job != null || gpus;
    }

    public Map<String, Quantity> requests() {
        return spec.effectiveRequests();
    }
}
