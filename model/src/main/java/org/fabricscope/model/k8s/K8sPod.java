package org.fabricscope.model.k8s;

import java.util.Map;

import org.fabricscope.model.core.Evidence;

/**
 * A pod: where it runs ({@code node} null while Pending and unscheduled), its phase, labels,
 * training-job identity (null when none) and the spec facts the checks use.
 */
public record K8sPod(String name, String namespace, String node, String phase, Map<String, String> labels,
                     JobIdentity job, PodSpecSummary spec, Evidence evidence) {
    public K8sPod {
        namespace = namespace == null || namespace.isBlank() ? "default" : namespace;
        labels = Map.copyOf(labels);
        spec = spec == null ? PodSpecSummary.EMPTY : spec;
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
