package org.fabricscope.app.live.kube;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.model.core.Diagnostic;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * The logs part of a one-shot read ({@link ClusterReader}): each scheduled, started container's current log, fetched
 * {@value ClusterReader#LOG_CONCURRENCY} at a time within the read's deadlines, as text for the log readers; a log that
 * cannot be had is one warning naming the container and why.
 */
final class ClusterLogs {
    private final KubeConnection connection;
    /** How long the next reply may take (0: the read's budget is used up). */
    private final LongSupplier allowedMillis;
    /** "within 60 s", or the budget's words, for a deadline of that many milliseconds. */
    private final LongFunction<String> within;
    private final long budgetMillis;

    ClusterLogs(KubeConnection connection, LongSupplier allowedMillis, LongFunction<String> within, long budgetMillis) {
        this.connection = connection;
        this.allowedMillis = allowedMillis;
        this.within = within;
        this.budgetMillis = budgetMillis;
    }

    /** A container's log to fetch: where it goes and what it is. */
    private record LogRequest(String pod, String container, String source) {
    }

    private record LogResult(byte[] bytes, String problem) {
    }

    /**
     * The current logs of the pods' containers, {@value ClusterReader#LOG_CONCURRENCY} at a time, in a stable
     * order. A container that has not started, or whose log the server will not give, is a warning.
     */
    List<ImportSource> logs(KubeTarget target, String ns, Collection<Pod> pods, List<Diagnostic> diagnostics,
                                    Cancellation cancel) {
        String prefix = connection.sourcePrefix() + "/" + ns + "/pods/";
        List<LogRequest> requests = new ArrayList<>();
        for (Pod p : pods) {
            String pod = p.getMetadata().getName();
            String shown = KubeErrors.clean(pod); // names come from the server: printed only cleaned
            if (p.getSpec() == null || p.getSpec().getNodeName() == null || p.getSpec().getNodeName().isBlank()) {
                diagnostics.add(Diagnostic.info(prefix + shown, 0, "pod " + shown + " is not scheduled on a node; no log yet"));
                continue;
            }
            Map<String, ContainerStatus> statuses = new LinkedHashMap<>();
            if (p.getStatus() != null && p.getStatus().getContainerStatuses() != null) {
                p.getStatus().getContainerStatuses().forEach(s -> statuses.put(s.getName(), s));
            }
            for (var c : p.getSpec().getContainers()) {
                String source = prefix + shown + "/" + KubeErrors.clean(c.getName());
                ContainerStatus s = statuses.get(c.getName());
                if (s != null && s.getState() != null && s.getState().getWaiting() != null
                        && (s.getRestartCount() == null || s.getRestartCount() == 0)) {
                    String reason = s.getState().getWaiting().getReason();
                    diagnostics.add(Diagnostic.warning(source, 0, "container " + KubeErrors.clean(c.getName()) + " of pod "
                            + shown + " has not started" + (reason == null ? "" : " (" + KubeErrors.clean(reason) + ")")
                            + "; no log read"));
                    continue;
                }
                requests.add(new LogRequest(pod, c.getName(), source));
            }
        }
        if (requests.isEmpty()) {
            return List.of();
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(ClusterReader.LOG_CONCURRENCY, requests.size()), r -> {
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
                    byte[] bytes = res.bytes(); // a log: content-detected like a file in a bundle
                    out.add(new ImportSource(r.source(), bytes.length, () -> new java.io.ByteArrayInputStream(bytes), false));
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
            ClusterReader.checkCancel(cancel);
            try {
                return f.get(100, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                // ask again whether the read was cancelled
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ImportCancelledException();
            } catch (ExecutionException e) {
                return new LogResult(null, "log not read: " + KubeErrors.message(e));
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
        StringBuilder uri = new StringBuilder(connection.server()).append("/api/v1/namespaces/").append(ClusterReader.enc(ns))
                .append("/pods/").append(ClusterReader.enc(r.pod())).append("/log?container=").append(ClusterReader.enc(r.container()))
                .append("&timestamps=true");
        if (target.logTailLines() > 0) {
            uri.append("&tailLines=").append(target.logTailLines());
        }
        if (target.logLimitBytes() > 0) {
            uri.append("&limitBytes=").append(target.logLimitBytes());
        }
        long allowed = allowedMillis.getAsLong();
        if (allowed <= 0) {
            return new LogResult(null, "log of " + KubeErrors.clean(r.pod() + "/" + r.container()) + " not read: the one-shot "
                    + "read's " + ClusterReader.millis(budgetMillis) + " were used up");
        }
        try {
            BoundedGet.Answer resp = BoundedGet.get(connection.client().getHttpClient(), URI.create(uri.toString()),
                    Math.min(connection.requestTimeoutMillis(), allowed), allowed, connection.maxResponseBytes());
            if (resp.successful()) {
                return new LogResult(resp.body(), null);
            }
            Status status = ClusterReader.status(resp.body());
            if (resp.code() == 400) {
                return new LogResult(null, "log of " + KubeErrors.clean(r.pod() + "/" + r.container()) + " not available: "
                        + (status != null && status.getMessage() != null ? KubeErrors.firstLine(status.getMessage())
                        : "HTTP 400"));
            }
            KubernetesClientException e = new KubernetesClientException(status != null && status.getMessage() != null
                    ? status.getMessage() : "HTTP " + resp.code(), resp.code(), status);
            return new LogResult(null, KubeErrors.describe(e, connection, "get", "pods/log", ns));
        } catch (BoundedGet.DeadlineExceeded e) {
            return new LogResult(null, "log of " + KubeErrors.clean(r.pod() + "/" + r.container()) + " not read: the API server did not "
                    + (e.headers ? "finish sending it" : "answer") + " " + within.apply(allowed));
        } catch (BoundedGet.TooLarge e) {
            return new LogResult(null, "log of " + KubeErrors.clean(r.pod() + "/" + r.container()) + " not read: larger than "
                    + ClusterReader.size(connection.maxResponseBytes()) + " (the limit for one reply)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new LogResult(null, "log of " + KubeErrors.clean(r.pod() + "/" + r.container()) + " not read: cancelled");
        } catch (Exception e) {
            return new LogResult(null, KubeErrors.describe(e, connection, "get", "pods/log", ns));
        }
    }
}
