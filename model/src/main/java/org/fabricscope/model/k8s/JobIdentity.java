package org.fabricscope.model.k8s;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which training job a pod belongs to, and its role: from Kubeflow training-operator labels
 * ({@code training.kubeflow.org/job-name}, {@code replica-type}, {@code replica-index}, or the
 * deprecated unprefixed ones), mpi-operator's {@code job-role}, Arena's {@code release} label, or
 * failing those the pod name ({@code <job>-master-0}, {@code <job>-worker-N},
 * {@code <job>-launcher-<rand>}); Kubeflow Trainer v2 pods by their JobSet labels
 * ({@code jobset.sigs.k8s.io/jobset-name}, {@code replicatedjob-name}; index from
 * {@code batch.kubernetes.io/job-completion-index}, else {@code jobset.sigs.k8s.io/job-index}).
 * {@code source} says which one was used.
 */
public record JobIdentity(String jobName, String replicaType, Integer replicaIndex, String source) {
    private static final String KF = "training.kubeflow.org/";
    private static final String JOBSET = "jobset.sigs.k8s.io/";
    private static final Pattern NAME = Pattern.compile("^(.+)-(master|worker|chief|ps|evaluator)-(\\d+)$");
    private static final Pattern LAUNCHER = Pattern.compile("^(.+)-launcher(?:-[a-z0-9]{5})?$");

    /** The identity, or null for a pod that shows no sign of a training job. */
    public static JobIdentity of(String podName, Map<String, String> labels) {
        String job = label(labels, "job-name");
        String type = label(labels, "replica-type");
        if (type == null) {
            type = label(labels, "job-role");
        }
        Integer index = parseIndex(label(labels, "replica-index"));
        String source = labels.containsKey(KF + "job-name") ? "kubeflow-labels" : "kubeflow-labels (deprecated)";
        if (job == null && labels.containsKey(JOBSET + "jobset-name")) {
            // Kubeflow Trainer v2 (TrainJob -> JobSet): pods <job>-<replicatedjob>-<job index>-<pod index>-<rand>;
            // the rank of a node is its Indexed Job completion index when labelled, else the Job's index
            Integer idx = parseIndex(labels.get("batch.kubernetes.io/job-completion-index"));
            return new JobIdentity(labels.get(JOBSET + "jobset-name"), labels.get(JOBSET + "replicatedjob-name"),
                    idx != null ? idx : parseIndex(labels.get(JOBSET + "job-index")), "jobset labels");
        }
        String release = labels.get("release");
        if (job == null && release != null && arenaPod(podName, release, labels)) {
            job = release;
            source = "arena release label";
        }
        Matcher m = podName == null ? null : NAME.matcher(podName);
        Matcher l = podName == null ? null : LAUNCHER.matcher(podName);
        if (job == null) {
            if (m != null && m.matches()) {
                return new JobIdentity(m.group(1), m.group(2), parseIndex(m.group(3)), "pod name");
            }
            if (l != null && l.matches()) {
                return new JobIdentity(l.group(1), "launcher", null, "pod name");
            }
            return null;
        }
        if (type == null || index == null) {
            if (m != null && m.matches() && m.group(1).equals(job)) {
                type = type == null ? m.group(2) : type;
                index = index == null ? parseIndex(m.group(3)) : index;
            } else if (type == null && l != null && l.matches() && l.group(1).equals(job)) {
                type = "launcher";
            }
        }
        return new JobIdentity(job, type == null ? null : type.toLowerCase(Locale.ROOT), index, source);
    }

    /**
     * Every Helm chart sets {@code release}; Arena's training charts also set {@code createdBy}
     * (PyTorchJob, MPIJob, ...) and an {@code app} ending in "job", and name pods after the release.
     */
    private static boolean arenaPod(String podName, String release, Map<String, String> labels) {
        String app = labels.getOrDefault("app", "").toLowerCase(Locale.ROOT);
        return labels.containsKey("createdBy") || app.endsWith("job")
                || (podName != null && podName.startsWith(release + "-") && (NAME.matcher(podName).matches()
                || LAUNCHER.matcher(podName).matches()));
    }

    private static String label(Map<String, String> labels, String key) {
        String v = labels.get(KF + key);
        return v != null ? v : labels.get(key);
    }

    /** A replica index (an int that is never negative), or null when there is none or it does not fit one. */
    private static Integer parseIndex(String s) {
        if (s == null) {
            return null;
        }
        try {
            int v = Integer.parseInt(s.trim());
            return v < 0 ? null : v;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * What is wrong with the replica index a pod carries, or null when nothing is: an index in its
     * labels or at the end of its name ({@code bert-worker-99999999999}) past the range of an int
     * (Kubernetes' own indexes are 32-bit). {@link #of} reads such a pod without an index; the
     * importers report this text with the pod's file and line.
     */
    public static String indexProblem(String podName, Map<String, String> labels) {
        boolean labelled = false;
        for (String key : new String[] {KF + "replica-index", "replica-index", "batch.kubernetes.io/job-completion-index",
            JOBSET + "job-index"}) {
            String v = labels.get(key);
            if (v != null && !v.isBlank()) {
                if (parseIndex(v) == null) {
                    return "label " + key + "=" + shorten(v.strip()) + " is not a replica index (0.." + Integer.MAX_VALUE
                            + "); ignored";
                }
                labelled = true;
            }
        }
        Matcher m = podName == null ? null : NAME.matcher(podName);
        if (!labelled && m != null && m.matches() && parseIndex(m.group(3)) == null) {
            return "replica index " + shorten(m.group(3)) + " at the end of pod name " + shorten(podName)
                    + " is out of range (0.." + Integer.MAX_VALUE + "); the pod is read without one";
        }
        return null;
    }

    private static String shorten(String s) {
        return s.length() > 60 ? s.substring(0, 57) + "..." : s;
    }
}
