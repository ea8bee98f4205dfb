package org.fabricscope.app.live.kube;

import java.nio.file.Path;
import java.util.regex.Pattern;

import org.fabricscope.app.live.source.LiveTarget;

/**
 * What to read from a live cluster: which kubeconfig (null: fabric8's own lookup, which honours
 * {@code $KUBECONFIG} and {@code ~/.kube/config}), which context (null: the current one), which
 * namespace (null: the context's namespace, else {@code default}), and which pods: those of one
 * training job, those matching a label selector, or (both null) every pod of the namespace. Logs of
 * the selected pods are read when {@code includeLogs} is set (and a job or selector narrows the
 * pods), at most {@code logTailLines} lines and {@code logLimitBytes} bytes per container.
 */
public record KubeTarget(Path kubeconfig, String context, String namespace, String job, String selector,
                         boolean includeLogs, int logTailLines, int logLimitBytes) implements LiveTarget {
    /** Default number of log lines read per container (the end of the log). */
    public static final int DEFAULT_LOG_TAIL_LINES = 20_000;
    /** Default cap on the bytes of log read per container. */
    public static final int DEFAULT_LOG_LIMIT_BYTES = 16 << 20;

    /** A Kubernetes object name (DNS-1123 subdomain); also keeps a job name out of label-selector syntax. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");

    public KubeTarget {
        context = blankToNull(context);
        namespace = blankToNull(namespace);
        job = blankToNull(job);
        selector = blankToNull(selector);
        if (job != null && selector != null) {
            throw new IllegalArgumentException("give a job name or a label selector, not both");
        }
        if (job != null && !NAME.matcher(job).matches()) {
            throw new IllegalArgumentException("'" + job + "' is not a Kubernetes object name (lower-case letters, "
                    + "digits, '-' and '.')");
        }
        if (namespace != null && !NAME.matcher(namespace).matches()) {
            throw new IllegalArgumentException("'" + namespace + "' is not a Kubernetes namespace name");
        }
        if (logTailLines < 0 || logLimitBytes < 0) {
            throw new IllegalArgumentException("log limits must not be negative");
        }
    }

    /** The current context of the default kubeconfig, its namespace, every pod, logs included. */
    public static KubeTarget current() {
        return new KubeTarget(null, null, null, null, null, true, DEFAULT_LOG_TAIL_LINES, DEFAULT_LOG_LIMIT_BYTES);
    }

    public KubeTarget withKubeconfig(Path file) {
        return new KubeTarget(file, context, namespace, job, selector, includeLogs, logTailLines, logLimitBytes);
    }

    public KubeTarget withContext(String c) {
        return new KubeTarget(kubeconfig, c, namespace, job, selector, includeLogs, logTailLines, logLimitBytes);
    }

    public KubeTarget withNamespace(String ns) {
        return new KubeTarget(kubeconfig, context, ns, job, selector, includeLogs, logTailLines, logLimitBytes);
    }

    /** Pods of this training job (replaces any selector). */
    public KubeTarget withJob(String j) {
        return new KubeTarget(kubeconfig, context, namespace, j, null, includeLogs, logTailLines, logLimitBytes);
    }

    /** Pods matching this label selector, e.g. {@code app=bert,team=nlp} (replaces any job). */
    public KubeTarget withSelector(String s) {
        return new KubeTarget(kubeconfig, context, namespace, null, s, includeLogs, logTailLines, logLimitBytes);
    }

    public KubeTarget withLogs(boolean read) {
        return new KubeTarget(kubeconfig, context, namespace, job, selector, read, logTailLines, logLimitBytes);
    }

    /** Log caps per container: the last {@code tailLines} lines (0: the whole log), at most {@code limitBytes} bytes. */
    public KubeTarget withLogLimits(int tailLines, int limitBytes) {
        return new KubeTarget(kubeconfig, context, namespace, job, selector, includeLogs, tailLines, limitBytes);
    }

    @Override
    public String kind() {
        return KubeSourceKind.ID;
    }

    /** {@code context/namespace job J} as asked (the current context and its namespace when not named). */
    @Override
    public String describe() {
        return (context == null ? "current context" : context) + (namespace == null ? "" : "/" + namespace)
                + (job != null ? " job " + job : selector != null ? " pods " + selector : "");
    }

    /** Whether a job or a selector narrows the pods. */
    public boolean narrowed() {
        return job != null || selector != null;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
