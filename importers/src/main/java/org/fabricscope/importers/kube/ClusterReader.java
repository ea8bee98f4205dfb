package org.fabricscope.importers.kube;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.model.core.Diagnostic;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventListBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.KubernetesListBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeListBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodListBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * One read of a live cluster, no follow: all nodes (cluster-scoped; the scheduling fit needs every
 * node's allocatable), the namespace's pods narrowed to a job or a label selector, the
 * namespace's events (those of the selected pods and the job, and every FailedScheduling), the
 * Kubeflow jobs ({@code kubeflow.org} PyTorchJob, MPIJob, TFJob; skipped quietly where the CRD is
 * not installed) and, for a job or selector, the current logs of its pods. Everything becomes
 * kubectl-style JSON sources for the same importers that read files, so there is one conversion
 * path. A kind that cannot be read (403 on events, say) is a warning and the rest is kept; the
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

    private final KubeConnection connection;
    private final KubernetesClient client;

    public ClusterReader(KubeConnection connection) {
        this.connection = connection;
        this.client = connection.client();
    }

    /** Connects, reads once and closes: the one-shot read the CLI makes. */
    public static ClusterRead readOnce(KubeConnector connector, KubeTarget target, Cancellation cancel) throws KubeException {
        try (KubeConnection c = connector.connect(target)) {
            return new ClusterReader(c).read(target, cancel);
        }
    }

    /**
     * Reads the target. Blocking: run it off the UI thread. Cancellation is checked between calls
     * (an {@link ImportCancelledException} then ends the read).
     */
    public ClusterRead read(KubeTarget target, Cancellation cancel) throws KubeException {
        String ns = connection.namespace();
        String prefix = connection.sourcePrefix();
        List<ImportSource> sources = new ArrayList<>();
        List<Diagnostic> diagnostics = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        int read = 0;

        List<Node> nodes = call(() -> client.nodes().list().getItems(), "list", "nodes", null, prefix + "/nodes",
                diagnostics, failures, cancel);
        if (nodes != null) {
            read++;
            sources.add(KubeJson.source(prefix + "/nodes", new NodeListBuilder().withItems(nodes).build()));
        }

        String podsName = prefix + "/" + ns + "/pods";
        List<Pod> pods = pods(target, ns, podsName, diagnostics, failures, cancel);
        if (pods != null) {
            read++;
            sources.add(KubeJson.source(podsName, new PodListBuilder().withItems(pods).build()));
            if (pods.isEmpty() && target.narrowed()) {
                diagnostics.add(Diagnostic.warning(podsName, 0, "no pods of " + (target.job() != null
                        ? "job " + target.job() + " in namespace " + ns + " (looked for " + JobPods.describe(target.job()) + ")"
                        : "selector " + target.selector() + " in namespace " + ns)));
            }
        }

        String eventsName = prefix + "/" + ns + "/events";
        List<Event> events = call(() -> client.v1().events().inNamespace(ns).list().getItems(), "list", "events", ns,
                eventsName, diagnostics, failures, cancel);
        if (events != null) {
            read++;
            if (target.narrowed()) {
                Set<String> podNames = pods == null ? Set.of() : pods.stream().map(p -> p.getMetadata().getName())
                        .collect(Collectors.toSet());
                events = events.stream().filter(e -> relevant(e, podNames, target.job())).toList();
            }
            sources.add(KubeJson.source(eventsName, new EventListBuilder().withItems(events).build()));
        }

        checkCancel(cancel);
        sources.addAll(jobSources(target.job(), diagnostics));

        if (read == 0) {
            throw new KubeException(failures.isEmpty() ? "nothing could be read from " + connection.server()
                    : failures.get(0) + (failures.size() > 1 ? " (and " + (failures.size() - 1) + " more failures)" : ""));
        }
        if (target.includeLogs() && pods != null && !pods.isEmpty()) {
            if (target.narrowed()) {
                sources.addAll(logs(target, ns, pods, diagnostics, cancel));
            } else {
                diagnostics.add(Diagnostic.info(podsName, 0, "pod logs are read for a job or a label selector only; "
                        + "name one to read its pods' logs"));
            }
        }
        return new ClusterRead(sources, diagnostics);
    }

    /** The selected pods, or null when they could not be listed. */
    private List<Pod> pods(KubeTarget target, String ns, String source, List<Diagnostic> diagnostics,
                           List<String> failures, Cancellation cancel) throws KubeException {
        if (target.selector() != null) {
            return call(() -> client.pods().inNamespace(ns).withLabelSelector(target.selector()).list().getItems(),
                    "list", "pods", ns, source, diagnostics, failures, cancel);
        }
        if (target.job() == null) {
            return call(() -> client.pods().inNamespace(ns).list().getItems(), "list", "pods", ns, source, diagnostics,
                    failures, cancel);
        }
        Map<String, Pod> byName = new LinkedHashMap<>();
        boolean listed = false;
        for (String selector : JobPods.selectors(target.job())) {
            List<Pod> found = call(() -> client.pods().inNamespace(ns).withLabelSelector(selector).list().getItems(),
                    "list", "pods", ns, source, diagnostics, failures, cancel);
            if (found != null) {
                listed = true;
                found.forEach(p -> byName.putIfAbsent(p.getMetadata().getName(), p));
            } else {
                break; // the same refusal would repeat for the next selector
            }
        }
        if (listed && byName.isEmpty()) {
            List<Pod> all = call(() -> client.pods().inNamespace(ns).list().getItems(), "list", "pods", ns, source,
                    diagnostics, failures, cancel);
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
    List<ImportSource> jobSources(String job, List<Diagnostic> diagnostics) throws KubeException {
        String ns = connection.namespace();
        List<ImportSource> out = new ArrayList<>();
        for (JobKind k : JOB_KINDS) {
            List<GenericKubernetesResource> jobs = jobs(k, job, ns, connection.sourcePrefix(), diagnostics,
                    new ArrayList<>(), Cancellation.NEVER);
            if (jobs != null && !jobs.isEmpty()) {
                out.add(KubeJson.source(connection.sourcePrefix() + "/" + ns + "/" + k.plural(), new KubernetesListBuilder()
                        .withItems(new ArrayList<>(jobs)).build()));
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
            ResourceDefinitionContext ctx = new ResourceDefinitionContext.Builder().withGroup("kubeflow.org")
                    .withVersion(version).withKind(k.kind()).withPlural(k.plural()).withNamespaced(true).build();
            try {
                List<GenericKubernetesResource> items = client.genericKubernetesResources(ctx).inNamespace(ns).list().getItems();
                List<GenericKubernetesResource> out = new ArrayList<>();
                for (GenericKubernetesResource r : items) {
                    if (job != null && !job.equals(r.getMetadata().getName())) {
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
                String msg = KubeErrors.describe(e, connection, "list", k.plural() + ".kubeflow.org", ns);
                if (KubeErrors.affectsEveryCall(e)) {
                    throw new KubeException(msg);
                }
                diagnostics.add(Diagnostic.warning(source, 0, msg + "; " + k.kind() + "s not read"));
                return null;
            }
        }
        diagnostics.add(Diagnostic.info(source, 0, "kubeflow.org " + k.kind() + " is not served by this cluster (CRD not "
                + "installed); skipped"));
        return null;
    }

    /**
     * One call. A failure every call would share (refused credentials, no connection) ends the read;
     * any other becomes a warning and null.
     */
    private <T> T call(Supplier<T> call, String verb, String resource, String namespace, String source,
                       List<Diagnostic> diagnostics, List<String> failures, Cancellation cancel) throws KubeException {
        checkCancel(cancel);
        try {
            return call.get();
        } catch (KubernetesClientException e) {
            String msg = KubeErrors.describe(e, connection, verb, resource, namespace);
            if (KubeErrors.affectsEveryCall(e)) {
                throw new KubeException(msg);
            }
            failures.add(msg);
            diagnostics.add(Diagnostic.warning(source, 0, msg));
            return null;
        }
    }

    private static void checkCancel(Cancellation cancel) {
        if (cancel.isCancelled()) {
            throw new ImportCancelledException();
        }
    }

    /** A container's log to fetch: where it goes and what it is. */
    private record LogRequest(String pod, String container, String source) {
    }

    private record LogResult(byte[] bytes, String problem) {
    }

    /**
     * The current logs of the pods' containers, {@value #LOG_CONCURRENCY} at a time, in a stable
     * order. A container that has not started, or whose log the server will not give, is a warning.
     */
    private List<ImportSource> logs(KubeTarget target, String ns, Collection<Pod> pods, List<Diagnostic> diagnostics,
                                    Cancellation cancel) {
        String prefix = connection.sourcePrefix() + "/" + ns + "/pods/";
        List<LogRequest> requests = new ArrayList<>();
        for (Pod p : pods) {
            String pod = p.getMetadata().getName();
            if (p.getSpec() == null || p.getSpec().getNodeName() == null || p.getSpec().getNodeName().isBlank()) {
                diagnostics.add(Diagnostic.info(prefix + pod, 0, "pod " + pod + " is not scheduled on a node; no log yet"));
                continue;
            }
            Map<String, ContainerStatus> statuses = new LinkedHashMap<>();
            if (p.getStatus() != null && p.getStatus().getContainerStatuses() != null) {
                p.getStatus().getContainerStatuses().forEach(s -> statuses.put(s.getName(), s));
            }
            for (var c : p.getSpec().getContainers()) {
                String source = prefix + pod + "/" + c.getName();
                ContainerStatus s = statuses.get(c.getName());
                if (s != null && s.getState() != null && s.getState().getWaiting() != null
                        && (s.getRestartCount() == null || s.getRestartCount() == 0)) {
                    String reason = s.getState().getWaiting().getReason();
                    diagnostics.add(Diagnostic.warning(source, 0, "container " + c.getName() + " of pod " + pod
                            + " has not started" + (reason == null ? "" : " (" + reason + ")") + "; no log read"));
                    continue;
                }
                requests.add(new LogRequest(pod, c.getName(), source));
            }
        }
        if (requests.isEmpty()) {
            return List.of();
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(LOG_CONCURRENCY, requests.size()), r -> {
            Thread t = new Thread(r, "fabricscope-kube-log");
            t.setDaemon(true);
            return t;
        });
        List<ImportSource> out = new ArrayList<>();
        try {
            List<Future<LogResult>> futures = new ArrayList<>();
            for (LogRequest r : requests) {
                futures.add(pool.submit(() -> fetchLog(target, ns, r)));
            }
            for (int i = 0; i < requests.size(); i++) {
                LogRequest r = requests.get(i);
                LogResult res = await(futures.get(i), cancel);
                if (res.problem() != null) {
                    diagnostics.add(Diagnostic.warning(r.source(), 0, res.problem()));
                } else if (res.bytes().length > 0) {
                    out.add(KubeJson.log(r.source(), res.bytes()));
                } else {
                    diagnostics.add(Diagnostic.info(r.source(), 0, "log is empty"));
                }
            }
        } finally {
            pool.shutdownNow();
        }
        return out;
    }

    private static LogResult await(Future<LogResult> f, Cancellation cancel) {
        while (true) {
            checkCancel(cancel);
            try {
                return f.get(100, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                // ask again whether the read was cancelled
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ImportCancelledException();
            } catch (ExecutionException e) {
                return new LogResult(null, "log not read: " + KubeErrors.firstLine(String.valueOf(e.getCause())));
            }
        }
    }

    /**
     * {@code GET .../pods/P/log?container=C&timestamps=true&tailLines=N&limitBytes=M}, what
     * {@code kubectl logs --timestamps --tail} sends, through the client's authenticated HTTP
     * client. (fabric8's {@code getLog()} first waits, with a watch, for the pod to become ready;
     * a one-shot read wants the log as it is now.)
     */
    private LogResult fetchLog(KubeTarget target, String ns, LogRequest r) {
        StringBuilder uri = new StringBuilder(connection.server()).append("/api/v1/namespaces/").append(enc(ns))
                .append("/pods/").append(enc(r.pod())).append("/log?container=").append(enc(r.container()))
                .append("&timestamps=true");
        if (target.logTailLines() > 0) {
            uri.append("&tailLines=").append(target.logTailLines());
        }
        if (target.logLimitBytes() > 0) {
            uri.append("&limitBytes=").append(target.logLimitBytes());
        }
        var http = client.getHttpClient();
        HttpRequest req = http.newHttpRequestBuilder().uri(URI.create(uri.toString()))
                .timeout(connection.requestTimeoutMillis(), TimeUnit.MILLISECONDS).build();
        try {
            CompletableFuture<HttpResponse<byte[]>> f = http.sendAsync(req, byte[].class);
            HttpResponse<byte[]> resp = f.get();
            if (resp.isSuccessful()) {
                return new LogResult(resp.body() == null ? new byte[0] : resp.body(), null);
            }
            Status status = status(resp.body());
            if (resp.code() == 400) {
                return new LogResult(null, "log of " + r.pod() + "/" + r.container() + " not available: "
                        + (status != null && status.getMessage() != null ? KubeErrors.firstLine(status.getMessage())
                        : "HTTP 400"));
            }
            KubernetesClientException e = new KubernetesClientException(status != null && status.getMessage() != null
                    ? status.getMessage() : "HTTP " + resp.code(), resp.code(), status);
            return new LogResult(null, KubeErrors.describe(e, connection, "get", "pods/log", ns));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new LogResult(null, "log of " + r.pod() + "/" + r.container() + " not read: cancelled");
        } catch (ExecutionException | RuntimeException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            return new LogResult(null, KubeErrors.describe(cause, connection, "get", "pods/log", ns));
        }
    }

    private static Status status(byte[] body) {
        if (body == null || body.length == 0) {
            return null;
        }
        try {
            return new KubernetesSerialization().unmarshal(new String(body, StandardCharsets.UTF_8), Status.class);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
