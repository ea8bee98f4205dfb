package org.fabricscope.app.live.kube;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * A JDK HttpServer answering the real Kubernetes API paths with canned replies: for faults (401,
 * 403, 500, a reply that never comes, a reply cut off) and for pod logs, which fabric8's mock
 * server streams badly in 7.8.0. Unknown paths get the API server's 404 Status.
 */
final class StubApiServer implements AutoCloseable {
    static final KubernetesSerialization JSON = new KubernetesSerialization();

    /** How to answer one path. */
    @FunctionalInterface
    interface Reply {
        void send(HttpExchange ex) throws IOException;
    }

    private final HttpServer http;
    private final Map<String, Reply> routes = new ConcurrentHashMap<>();
    private final Reply fallback;
    final List<String> requests = new CopyOnWriteArrayList<>();
    private final CountDownLatch closing = new CountDownLatch(1);

    StubApiServer() throws IOException {
        this(null);
    }

    /** {@code fallback} answers every path without a route (null: 404). */
    StubApiServer(Reply fallback) throws IOException {
        this.fallback = fallback;
        http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "stub-api");
            t.setDaemon(true);
            return t;
        }));
        http.createContext("/", ex -> {
            requests.add(ex.getRequestMethod() + " " + ex.getRequestURI());
            Reply r = routes.get(ex.getRequestURI().getPath());
            if (r == null) {
                r = fallback != null ? fallback : status(404, "NotFound", "the server could not find the requested resource");
            }
            try {
                r.send(ex);
            } finally {
                ex.close();
            }
        });
        http.start();
    }

    StubApiServer route(String path, Reply reply) {
        routes.put(path, reply);
        return this;
    }

    String url() {
        return "http://127.0.0.1:" + http.getAddress().getPort();
    }

    static Reply json(int code, String body) {
        return ex -> {
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(code, b.length);
            try (OutputStream o = ex.getResponseBody()) {
                o.write(b);
            }
        };
    }

    static Reply ok(Object list) {
        return json(200, JSON.asJson(list));
    }

    static Reply text(int code, String body) {
        return ex -> {
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "text/plain");
            ex.sendResponseHeaders(code, b.length);
            try (OutputStream o = ex.getResponseBody()) {
                o.write(b);
            }
        };
    }

    /** A Status reply as kube-apiserver writes it. */
    static Reply status(int code, String reason, String message) {
        return json(code, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":"
                + JSON.asJson(message) + ",\"reason\":\"" + reason + "\",\"code\":" + code + "}");
    }

    /** Accepts the request and never answers (until the stub closes). */
    Reply hang() {
        return ex -> {
            try {
                closing.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
    }

    /** Announces the whole body, sends the first part and drops the connection. */
    static Reply cutOff(Object list) {
        return ex -> {
            byte[] b = JSON.asJson(list).getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(200, b.length);
            OutputStream o = ex.getResponseBody();
            o.write(b, 0, b.length / 3);
            o.flush();
            // closing the exchange now ends the connection short of Content-Length
        };
    }

    @Override
    public void close() {
        closing.countDown();
        http.stop(0);
    }
}
