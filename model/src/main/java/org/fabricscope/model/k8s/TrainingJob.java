package org.fabricscope.model.k8s;

import java.util.List;

import org.fabricscope.model.core.Evidence;

/**
 * A training job: from a PyTorchJob / MPIJob manifest (with its replica templates) or, when no
 * manifest was read, gathered from the labels and names of its pods ({@code kind} "pods").
 */
public record TrainingJob(String name, String namespace, String kind, List<Replica> replicas, List<String> podNames,
                          Evidence evidence, List<Condition> conditions) {
    public TrainingJob {
        namespace = namespace == null || namespace.isBlank() ? "default" : namespace;
        replicas = List.copyOf(replicas);
        podNames = List.copyOf(podNames);
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
    }

    /** A job without status conditions (a manifest, or the pods of one). */
    public TrainingJob(String name, String namespace, String kind, List<Replica> replicas, List<String> podNames,
                       Evidence evidence) {
        this(name, namespace, kind, replicas, podNames, evidence, List.of());
    }

    /**
     * One of the job's {@code status.conditions} (Kubeflow's Created, Running, Restarting, Succeeded,
     * Failed; a batch Job's Failed, Complete): type, status ({@code True}/{@code False}), reason, message and
     * {@code lastTransitionTime} as written (empty when not).
     */
    public record Condition(String type, String status, String reason, String message, String lastTransition) {
        public Condition {
            type = type == null ? "" : type;
            status = status == null ? "" : status;
            reason = reason == null ? "" : reason;
            message = message == null ? "" : message;
            lastTransition = lastTransition == null ? "" : lastTransition;
        }
    }

    /** One replica type of a manifest: {@code Master}, {@code Worker}, {@code Launcher}; its count and pod template. */
    public record Replica(String type, int count, PodSpecSummary template, Evidence evidence) {
    }

    public String key() {
        return namespace + "/" + name;
    }

    /** Whether any replica template asks for RDMA (an RDMA resource, or NCCL_IB_HCA). */
    public boolean templatesExpectRdma() {
        return replicas.stream().anyMatch(r -> r.template().expectsRdma());
    }
}
