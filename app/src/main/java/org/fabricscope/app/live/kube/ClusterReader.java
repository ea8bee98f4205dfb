package org.fabricscope.app.live.kube;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.model.core.Diagnostic;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * One read of a live cluster, no follow: all nodes (cluster-scoped; the scheduling fit needs every
 * node's allocatable), the namespace's pods narrowed to a job or a label selector, the
 * namespace's events (those of the selected pods and the job, and every FailedScheduling), the
 * Kubeflow jobs ({@code kubeflow.org} PyTorchJob, MPIJob, TFJob; skipped quietly where the CRD is
 * not installed) and, for a job or selector, the current logs of its pods. The objects become
 * {@link KubeObjectList}s that the kubectl reader's mapping contributes to the model directly (no
 * text in between); the logs are text for the log readers. A kind that cannot be read (403 on events, say) is a warning and the rest is kept; the
 * read fails only when the server cannot be reached, refuses the credentials, or nothing at all
 * could be read. Only GET requests are made.
 */
public final class ClusterReader {
    /** Logs fetched at the same time. */
    public static final int LOG_CONCURRENCY = 8;

    /** A Kubeflow job kind: group {@code kubeflow.org}, the versions tried in turn. */
    record JobKind(String kind, String plural, List<String> versions) {
    }

    static final List<JobKind> JOB_KINDS = List.of(new JobKind("PyTorchJob", "pytorchjobs", List.of("v1")),
            new JobKind("MPIJob", "mpijobs", List.of("v2beta1", "v1")), new JobKind("TFJob", "tfjobs", List.of("v1")));

    /**
     * The whole of a one-shot read (connecting, exec plugin included, every list and every log) ends
     * within this, so that a misbehaving server costs the CLI one line and exit 1 inside a minute,
     * whatever mix of slow and stalled replies it sends.
     */
    public static final Duration ONE_SHOT_BUDGET = org.fabricscope.app.live.source.LiveDeadlines.ONE_SHOT;

    private final KubeConnection connection;
    private final KubernetesClient client;
    /** System.nanoTime() by which the read must end; Long.MAX_VALUE when only each reply's deadline bounds it. */
    private final long budgetEnd;
    private final long budgetMillis;

    public ClusterReader(KubeConnection connection) {
        this(connection, 0, Long.MAX_VALUE);
    }

    private ClusterReader(KubeConnection connection, long budgetMillis, long budgetEnd) {
        this.connection = connection;
        this.client = connection.client();
        this.budgetMillis = budgetMillis;
        this.budgetEnd = budgetEnd;
    }

    /** Connects, reads once and closes: the one-shot read the CLI makes, all within {@link #ONE_SHOT_BUDGET}. */
    public static ClusterRead readOnce(KubeConnector connector, KubeTarget target, Cancellation cancel) throws KubeException {
        return readOnce(connector, target, cancel, ONE_SHOT_BUDGET);
    }

    static ClusterRead readOnce(KubeConnector connector, KubeTarget target, Cancellation cancel, Duration budget)
            throws KubeException {
        long end = System.nanoTime() + budget.toNanos();
        try (KubeConnection c = connector.connect(target)) {
            return new ClusterReader(c, budget.toMillis(), end).read(target, cancel);
        }
    }

    /**
     * Reads once through an open connection; the read ends within {@code budget} of {@code startedNanos}
     * (when connecting began, so that connecting counts too); the connection stays open.
     */
    static ClusterRead read(KubeConnection connection, KubeTarget target, Cancellation cancel, Duration budget,
                            long startedNanos) throws KubeException {
        return new ClusterReader(connection, budget.toMillis(), startedNanos + budget.toNanos()).read(target, cancel);
    }

    /** How long the next reply may take: its own deadline, or what is left of the read's budget if less (0: none left). */
    private long allowedMillis() {
        long own = connection.readDeadlineMillis();
        if (budgetEnd == Long.MAX_VALUE) {
            return own;
        }
        long left = TimeUnit.NANOSECONDS.toMillis(budgetEnd - System.nanoTime());
        return Math.max(0, Math.min(own, left));
    }

    /** "within 60 s", or "within the one-shot read's 45 s" when the budget was the tighter bound. */
    private String within(long allowed) {
        return allowed < connection.readDeadlineMillis() ? "within the one-shot read's " + millis(budgetMillis)
                : "within " + millis(allowed);
    }

    /**
     * Reads the target. Blocking: run it off the UI thread. Cancellation is checked between calls
     * (an {@link ImportCancelledException} then ends the read).
     */
    public ClusterRead read(KubeTarget target, Cancellation cancel) throws KubeException {
        String ns = connection.namespace();
        String prefix = connection.sourcePrefix();
        List<KubeObjectList> sources = new ArrayList<>();
        List<ImportSource> logs = new ArrayList<>();
        java.time.Instant now = java.time.Instant.now();
        List<Diagnostic> diagnostics = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        int read = 0;

        List<Node> nodes = items(call("/api/v1/nodes", null, NodeList.class, "list", "nodes", null, prefix + "/nodes",
                diagnostics, failures, cancel));
        if (nodes != null) {
            read++;
            sources.add(new KubeObjectList(prefix + "/nodes", "list nodes", now, KubeTrees.trees(nodes)));
        }

        String podsName = prefix + "/" + ns + "/pods";
        List<Pod> pods = pods(target, ns, podsName, diagnostics, failures, cancel);
        if (pods != null) {
            read++;
            sources.add(new KubeObjectList(podsName, "list pods in namespace " + ns + (target.selector() != null
                    ? " -l " + target.selector() : target.job() != null ? " of job " + target.job() : ""), now,
                    KubeTrees.trees(pods)));
            if (pods.isEmpty() && target.narrowed()) {
                diagnostics.add(Diagnostic.warning(podsName, 0, "no pods of " + (target.job() != null
                        ? "job " + target.job() + " in namespace " + ns + " (looked for " + JobPods.describe(target.job()) + ")"
                        : "selector " + target.selector() + " in namespace " + ns)));
            }
        }

        String eventsName = prefix + "/" + ns + "/events";
        List<Event> events = items(call(nsPath(ns, "events"), null, EventList.class, "list", "events", ns,
                eventsName, diagnostics, failures, cancel));
        if (events != null) {
            read++;
            if (target.narrowed()) {
                Set<String> podNames = pods == null ? Set.of() : pods.stream().map(p -> p.getMetadata().getName())
                        .collect(Collectors.toSet());
                events = events.stream().filter(e -> relevant(e, podNames, target.job())).toList();
            }
            sources.add(new KubeObjectList(eventsName, "list events in namespace " + ns, now, KubeTrees.trees(events)));
        }

        checkCancel(cancel);
        sources.addAll(jobSources(target.job(), diagnostics));

        if (read == 0) {
            throw new KubeException(failures.isEmpty() ? "nothing could be read from " + connection.server()
                    : failures.get(0) + (failures.size() > 1 ? " (and " + (failures.size() - 1) + " more failures)" : ""));
        }
        if (target.includeLogs() && pods != null && !pods.isEmpty()) {
            if (target.narrowed()) {
                logs.addAll(new ClusterLogs(connection, this::allowedMillis, this::within, budgetMillis).logs(target, ns, pods, diagnostics, cancel));
            } else {
                diagnostics.add(Diagnostic.info(podsName, 0, "pod logs are read for a job or a label selector only; "
                        + "name one to read its pods' logs"));
            }
        }
        return new ClusterRead(sources, logs, diagnostics, now);
    }

    /** The selected pods, or null when they could not be listed. */
    private List<Pod> pods(KubeTarget target, String ns, String source, List<Diagnostic> diagnostics,
                           List<String> failures, Cancellation cancel) throws KubeException {
        if (target.selector() != null) {
            return items(call(nsPath(ns, "pods"), target.selector(), PodList.class, "list", "pods", ns, source, diagnostics,
                    failures, cancel));
        }
        if (target.job() == null) {
            return items(call(nsPath(ns, "pods"), null, PodList.class, "list", "pods", ns, source, diagnostics, failures,
                    cancel));
        }
        Map<String, Pod> byName = new LinkedHashMap<>();
        boolean listed = false;
        for (String selector : JobPods.selectors(target.job())) {
            List<Pod> found = items(call(nsPath(ns, "pods"), selector, PodList.class, "list", "pods", ns, source, diagnostics,
                    failures, cancel));
            if (found != null) {
                listed = true;
                found.forEach(p -> byName.putIfAbsent(p.getMetadata().getName(), p));
            } else {
                break; // the same refusal would repeat for the next selector
            }
        }
        if (listed && byName.isEmpty()) {
            List<Pod> all = items(call(nsPath(ns, "pods"), null, PodList.class, "list", "pods", ns, source, diagnostics,
                    failures, cancel));
            if (all != null) {
                all.stream().filter(p -> JobPods.named(p.getMetadata().getName(), target.job()))
                        .forEach(p -> byName.putIfAbsent(p.getMetadata().getName(), p));
            }
        }
        if (!listed) {
            return null;
        }
        List<Pod> out = new ArrayList<>(byName.values());
        out.sort(Comparator.comparing(p -> p.getMetadata().getName()));
        return out;
    }

    static boolean relevant(Event e, Set<String> podNames, String job) {
        String name = e.getInvolvedObject() == null ? null : e.getInvolvedObject().getName();
        return podNames.contains(name) || "FailedScheduling".equals(e.getReason()) || (job != null && job.equals(name));
    }

    /**
     * The Kubeflow jobs of the namespace (only {@code job} when given) as sources, one per kind that
     * has any; a kind whose CRD is absent is an info diagnostic, a refused one a warning.
     */
    List<KubeObjectList> jobSources(String job, List<Diagnostic> diagnostics) throws KubeException {
        String ns = connection.namespace();
        List<KubeObjectList> out = new ArrayList<>();
        for (JobKind k : JOB_KINDS) {
            List<GenericKubernetesResource> jobs = jobs(k, job, ns, connection.sourcePrefix(), diagnostics,
                    new ArrayList<>(), Cancellation.NEVER);
            if (jobs != null && !jobs.isEmpty()) {
                out.add(new KubeObjectList(connection.sourcePrefix() + "/" + ns + "/" + k.plural(), "list " + k.plural()
                        + ".kubeflow.org in namespace " + ns, java.time.Instant.now(), KubeTrees.trees(jobs)));
            }
        }
        return out;
    }

    private List<GenericKubernetesResource> jobs(JobKind k, String job, String ns, String prefix,
                                                 List<Diagnostic> diagnostics, List<String> failures, Cancellation cancel)
            throws KubeException {
        String source = prefix + "/" + ns + "/" + k.plural();
        for (String version : k.versions()) {
            checkCancel(cancel);
            String what = k.plural() + ".kubeflow.org";
            try {
                GenericKubernetesResourceList list = fetch("/apis/kubeflow.org/" + version + "/namespaces/" + enc(ns) + "/"
                        + k.plural(), null, GenericKubernetesResourceList.class, "list", what, ns);
                List<GenericKubernetesResource> out = new ArrayList<>();
                for (GenericKubernetesResource r : list.getItems() == null ? List.<GenericKubernetesResource>of() : list.getItems()) {
                    if (r.getMetadata() == null || (job != null && !job.equals(r.getMetadata().getName()))) {
                        continue;
                    }
                    // list items carry no kind or apiVersion of their own
                    if (r.getKind() == null) {
                        r.setKind(k.kind());
                    }
                    if (r.getApiVersion() == null) {
                        r.setApiVersion("kubeflow.org/" + version);
                    }
                    out.add(r);
                }
                return out;
            } catch (KubernetesClientException e) {
                if (KubeErrors.code(e) == 404) {
                    continue; // this version of the CRD is not served; try the next
                }
                String msg = KubeErrors.describe(e, connection, "list", what, ns);
                if (KubeErrors.affectsEveryCall(e)) {
                    throw new KubeException(msg);
                }
                diagnostics.add(Diagnostic.warning(source, 0, msg + "; " + k.kind() + "s not read"));
                return null;
            } catch (ReplyProblem e) {
                diagnostics.add(Diagnostic.warning(source, 0, e.getMessage() + "; " + k.kind() + "s not read"));
                return null;
            }
        }
        diagnostics.add(Diagnostic.info(source, 0, "kubeflow.org " + k.kind() + " is not served by this cluster (CRD not "
                + "installed); skipped"));
        return null;
    }

    /**
     * One list call. A failure every call would share (refused credentials, no connection, a server
     * that does not finish its reply in time) ends the read; any other (a refusal of this kind, a
     * reply too large, empty or not JSON) becomes a warning and null.
     */
    private <L> L call(String path, String selector, Class<L> type, String verb, String resource, String namespace,
                       String source, List<Diagnostic> diagnostics, List<String> failures, Cancellation cancel)
            throws KubeException {
        checkCancel(cancel);
        try {
            return fetch(path, selector, type, verb, resource, namespace);
        } catch (KubernetesClientException e) {
            String msg = KubeErrors.describe(e, connection, verb, resource, namespace);
            if (KubeErrors.affectsEveryCall(e)) {
                throw new KubeException(msg);
            }
            failures.add(msg);
            diagnostics.add(Diagnostic.warning(source, 0, msg));
            return null;
        } catch (ReplyProblem e) {
            failures.add(e.getMessage());
            diagnostics.add(Diagnostic.warning(source, 0, e.getMessage()));
            return null;
        }
    }

    /** A reply that came but cannot be used: too large, empty, or not JSON. One line, for a warning. */
    private static final class ReplyProblem extends Exception {
        private static final long serialVersionUID = 1L;

        ReplyProblem(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * GETs {@code path} (with {@code labelSelector}) within the connection's read deadline and reply
     * cap, and reads the JSON reply as {@code type}. An error status comes as the
     * {@link KubernetesClientException} fabric8 would raise (its code and Status), a transport
     * failure as one wrapping it; a reply past the deadline as a {@link KubeException}.
     */
    private <L> L fetch(String path, String selector, Class<L> type, String verb, String resource, String namespace)
            throws KubeException, ReplyProblem {
        String what = verb + " " + resource + (namespace == null ? " (cluster-wide)" : " in namespace " + namespace);
        String server = connection.server();
        URI uri = URI.create(server + path + (selector == null ? "" : "?labelSelector=" + enc(selector)));
        BoundedGet.Answer a;
        long allowed = allowedMillis();
        if (allowed <= 0) {
            throw new KubeException("the API server " + server + " did not answer " + what + " " + within(0)
                    + " (the replies before it took that long); the server or the network is slow or overloaded");
        }
        try {
            a = BoundedGet.get(client.getHttpClient(), uri, Math.min(connection.requestTimeoutMillis(), allowed),
                    allowed, connection.maxResponseBytes());
        } catch (BoundedGet.DeadlineExceeded e) {
            ExecPlugins.stopAfterDeadline(connection.execPlugin());
            throw new KubeException("the API server " + server + " did not " + (e.headers ? "finish its reply to " + what
                    + " " + within(allowed) + " (the headers came, then the body stalled after "
                    + e.bytes + " bytes)" : "answer " + what + " " + within(allowed))
                    + "; the server or the network is slow or overloaded");
        } catch (BoundedGet.TooLarge e) {
            throw new ReplyProblem("the reply to " + what + " from " + server + " is larger than "
                    + size(connection.maxResponseBytes()) + " (the limit for one reply); not read");
        } catch (KubernetesClientException e) {
            throw e;
        } catch (Exception e) {
            throw new KubernetesClientException(KubeErrors.message(e), e);
        }
        if (!a.successful()) {
            Status status = status(a.body());
            throw new KubernetesClientException(status != null && status.getMessage() != null ? status.getMessage()
                    : "HTTP " + a.code(), a.code(), status);
        }
        String body = new String(a.body(), StandardCharsets.UTF_8).strip();
        if (body.isEmpty()) {
            throw new ReplyProblem("the reply to " + what + " from " + server + " was empty (HTTP " + a.code()
                    + " with no body)");
        }
        if (!body.startsWith("{")) {
            throw new ReplyProblem("the reply to " + what + " from " + server + " is not JSON (it starts \""
                    + KubeErrors.firstLine(body.length() > 40 ? body.substring(0, 40) + "..." : body) + "\")");
        }
        try {
            L value = client.getKubernetesSerialization().unmarshal(body, type);
            if (value == null) {
                throw new ReplyProblem("the reply to " + what + " from " + server + " was empty");
            }
            return value;
        } catch (RuntimeException e) {
            throw new ReplyProblem("the reply to " + what + " from " + server + " is JSON but not a Kubernetes list ("
                    + KubeErrors.message(e) + ")");
        }
    }

    private static <T extends io.fabric8.kubernetes.api.model.HasMetadata> List<T> items(
            io.fabric8.kubernetes.api.model.KubernetesResourceList<T> list) {
        if (list == null) {
            return null;
        }
        List<T> items = list.getItems();
        return items == null ? new ArrayList<>() : new ArrayList<>(items);
    }

    private static String nsPath(String ns, String plural) {
        return "/api/v1/namespaces/" + enc(ns) + "/" + plural;
    }

    static String size(long bytes) {
        return bytes % (1 << 20) == 0 ? (bytes >> 20) + " MiB" : bytes % 1024 == 0 ? (bytes >> 10) + " KiB" : bytes + " bytes";
    }

    static String millis(long ms) {
        return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
    }

    static void checkCancel(Cancellation cancel) {
        if (cancel.isCancelled()) {
            throw new ImportCancelledException();
        }
    }

    /** The Status an error reply's body holds, or null. */
    static Status status(byte[] body) {
        if (body == null || body.length == 0) {
            return null;
        }
        try {
            return new KubernetesSerialization().unmarshal(new String(body, StandardCharsets.UTF_8), Status.class);
        } catch (RuntimeException e) {
            return null;
        }
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
