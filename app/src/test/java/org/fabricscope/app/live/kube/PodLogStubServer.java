package org.fabricscope.app.live.kube;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A stand-in for the Kubernetes API server's pod endpoints, on the JDK's own HTTP server (the fabric8
 * mock server's chunked answers are broken in 7.8.0):
 * {@code GET /api/v1/namespaces/NS/pods/POD} (a pod with a phase) and
 * {@code GET /api/v1/namespaces/NS/pods/POD/log?container=C&follow=true&timestamps=true&sinceTime=T}
 * (chunked, served by a {@link LogSource}). Errors are answered as the API server does, with a
 * {@code Status} JSON body.
 */
final class PodLogStubServer implements AutoCloseable {

    /** Serves one log request of one pod. */
    interface LogSource {
        /**
         * Writes the log body (status 200 already sent). {@code since} is the {@code sinceTime} asked for, or
         * null. Return normally to end the stream cleanly; throw to cut the connection without ending the
         * chunked body (the client sees an abrupt disconnect).
         */
        void serve(String container, Instant since, OutputStream out) throws IOException, InterruptedException;
    }

    /** An error answer for a log request, or null to serve the log. Decided per request. */
    interface Gate {
        Answer check(String pod, String container);
    }

    record Answer(int code, String reason, String message) {
    }

    /** One log request as received. */
    record Request(String pod, String container, boolean follow, boolean timestamps, String sinceTime) {
    }

    final String namespace;
    private final HttpServer server;
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "stub-apiserver");
        t.setDaemon(true);
        return t;
    });
    final Map<String, LogSource> logs = new ConcurrentHashMap<>();
    final Map<String, String> phases = new ConcurrentHashMap<>();
    final List<Request> requests = new CopyOnWriteArrayList<>();
    volatile Gate gate = (p, c) -> null;

    PodLogStubServer(String namespace) throws IOException {
        this.namespace = namespace;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 2048);
        server.setExecutor(pool);
        server.createContext("/", this::handle);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** A fabric8 client pointed at this stub: plain HTTP, short timeouts, no retries inside the client. */
    KubernetesClient client() {
        Config config = new ConfigBuilder().withMasterUrl(url()).withNamespace(namespace).withTrustCerts(true)
                .withConnectionTimeout(2000).withRequestTimeout(5000).withRequestRetryBackoffLimit(0).build();
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    /** Adds a running pod whose log the source serves. */
    void pod(String name, LogSource source) {
        logs.put(name, source);
        phases.put(name, "Running");
    }

    List<Request> requestsFor(String pod) {
        return requests.stream().filter(r -> r.pod().equals(pod)).toList();
    }

    private void handle(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getRawPath();
        String prefix = "/api/v1/namespaces/" + namespace + "/pods/";
        if (!"GET".equals(ex.getRequestMethod()) || !path.startsWith(prefix)) {
            error(ex, new Answer(404, "NotFound", "the server could not find the requested resource"));
            return;
        }
        String rest = path.substring(prefix.length());
        boolean log = rest.endsWith("/log");
        String pod = URLDecoder.decode(log ? rest.substring(0, rest.length() - 4) : rest, StandardCharsets.UTF_8);
        if (!log) {
            String phase = phases.get(pod);
            if (phase == null) {
                error(ex, new Answer(404, "NotFound", "pods \"" + pod + "\" not found"));
                return;
            }
            byte[] b = ("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + pod + "\",\"namespace\":\""
                    + namespace + "\"},\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"main\"}]},"
                    + "\"status\":{\"phase\":\"" + phase + "\"}}").getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
            return;
        }
        Map<String, String> q = query(ex.getRequestURI().getRawQuery());
        String container = q.getOrDefault("container", "");
        requests.add(new Request(pod, container, "true".equals(q.get("follow")), "true".equals(q.get("timestamps")),
                q.get("sinceTime")));
        LogSource source = logs.get(pod);
        if (source == null) {
            error(ex, new Answer(404, "NotFound", "pods \"" + pod + "\" not found"));
            return;
        }
        Answer refuse = gate.check(pod, container);
        if (refuse != null) {
            error(ex, refuse);
            return;
        }
        ex.getResponseHeaders().set("Content-Type", "text/plain");
        ex.sendResponseHeaders(200, 0);   // chunked
        OutputStream out = ex.getResponseBody();
        try {
            source.serve(container, q.containsKey("sinceTime") ? Instant.parse(q.get("sinceTime")) : null, out);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("stub stopped");
        }
        ex.close();
    }

    private static void error(HttpExchange ex, Answer a) throws IOException {
        byte[] b = ("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":"
                + json(a.message()) + ",\"reason\":\"" + a.reason() + "\",\"code\":" + a.code() + "}")
                .getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(a.code(), b.length);
        ex.getResponseBody().write(b);
        ex.close();
    }

    private static String json(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> m = new LinkedHashMap<>();
        if (raw != null) {
            for (String kv : raw.split("&")) {
                int eq = kv.indexOf('=');
                m.put(URLDecoder.decode(eq < 0 ? kv : kv.substring(0, eq), StandardCharsets.UTF_8),
                        eq < 0 ? "" : URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return m;
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }
}
