package org.fabricscope.app.live.kube;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import io.fabric8.kubernetes.api.model.Pod;

/**
 * Which pods belong to a training job, in the terms {@code JobIdentity} reads them: the Kubeflow
 * training-operator label, the JobSet label of Kubeflow Trainer v2, Arena's Helm {@code release}
 * label, and failing all three the operators' pod names ({@code <job>-master-N},
 * {@code <job>-worker-N}, {@code <job>-launcher...}).
 */
final class JobPods {
    static final List<String> LABELS = List.of("training.kubeflow.org/job-name", "jobset.sigs.k8s.io/jobset-name", "release");

    private JobPods() {
    }

    /** The label selectors tried in turn for a job (the job name is already a valid object name). */
    static List<String> selectors(String job) {
        return LABELS.stream().map(l -> l + "=" + job).toList();
    }

    /** Whether a pod's labels name the job. */
    static boolean labelled(Pod p, String job) {
        Map<String, String> labels = p.getMetadata() == null ? null : p.getMetadata().getLabels();
        return labels != null && LABELS.stream().anyMatch(l -> job.equals(labels.get(l)));
    }

    /** Whether a pod's name is one the operators give the job's pods. */
    static boolean named(String podName, String job) {
        if (podName == null || !podName.startsWith(job + "-")) {
            return false;
        }
        String rest = podName.substring(job.length() + 1);
        return Pattern.matches("(?:master|worker)-\\d+", rest) || rest.startsWith("launcher");
    }

    static boolean belongs(Pod p, String job) {
        return labelled(p, job) || named(p.getMetadata() == null ? null : p.getMetadata().getName(), job);
    }

    static String describe(String job) {
        return "labels " + String.join(", ", LABELS.stream().map(l -> l + "=" + job).toList()) + ", and names " + job
                + "-master-N, " + job + "-worker-N, " + job + "-launcher";
    }
}
