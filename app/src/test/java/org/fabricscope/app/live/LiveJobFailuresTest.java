package org.fabricscope.app.live;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.fabricscope.importers.ImportResult;
import org.fabricscope.app.live.kube.KubeLiveSource;
import org.fabricscope.app.live.source.LiveSnapshot;
import org.fabricscope.app.live.kube.KubeConnector;
import org.fabricscope.app.live.kube.KubeFixtures;
import org.fabricscope.app.live.kube.KubeTarget;
import org.fabricscope.app.live.source.LogLine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sun.net.httpserver.HttpServer;

/**
 * A live job whose cluster cannot be read says why, by kind and in the status line, instead of
 * counting 0 nodes, 0 pods and 0 events: a refused port, a server that is not TLS, 401, 403 (verb and
 * resource) and 404.
 */
class LiveJobFailuresTest {
    @TempDir
    Path dir;
    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    /** Listens on a loopback port answering every request with {@code code} and a Kubernetes Status. */
    private String answering(int code, String reason, String message) throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", ex -> {
            byte[] body = ("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"" + reason
                    + "\",\"message\":\"" + message + "\",\"code\":" + code + "}").getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(code, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    static int closedPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort(); // closed again when this returns: nothing listens there
        }
    }

    private record Told(String problem, String status) {
    }

    /** Starts a job on {@code server} and waits for its first problem and the status line then. */
    private Told problemOf(String serverUrl) throws Exception {
        Path kubeconfig = KubeFixtures.kubeconfig(dir, serverUrl, "lab");
        BlockingQueue<String> problems = new LinkedBlockingQueue<>();
        KubeConnector connector = new KubeConnector(Duration.ofSeconds(2), Duration.ofSeconds(5), 0);
        try (LiveJob job = LiveJob.start(KubeLiveSource.open(connector,
                KubeTarget.current().withKubeconfig(kubeconfig).withJob("bert"), Duration.ofMillis(16)),
                List.of(), false, Duration.ofMillis(100), new LiveJob.Listener() {
                    @Override
                    public void model(ImportResult result, LiveSnapshot snapshot) {
                    }

                    @Override
                    public void lines(List<LogLine> lines) {
                    }

                    @Override
                    public void status(String message) {
                    }

                    @Override
                    public void error(String message) {
                    }

                    @Override
                    public void problem(String problem) {
                        if (problem != null) {
                            problems.add(problem);
                        }
                    }
                })) {
            String p = problems.poll(30, TimeUnit.SECONDS);
            assertTrue(p != null, "no problem reported; status " + job.statusLine());
            // the status line follows the same snapshot; wait until every kind has failed
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!job.statusLine().contains("not connected") && System.nanoTime() < end) {
                Thread.sleep(50);
            }
            return new Told(p, job.statusLine());
        }
    }

    @Test
    void aRefusedConnectionIsNotAnIdleCluster() throws Exception {
        Told t = problemOf("http://127.0.0.1:" + closedPort());
        assertTrue(t.problem().contains("connection refused"), t.problem());
        assertTrue(t.status().startsWith("Live: lab/") && t.status().contains("not connected: cannot connect to the API server"),
                t.status());
        assertTrue(!t.status().contains("0 nodes"), t.status());
    }

    @Test
    void aServerThatIsNotTlsSaysTls() throws Exception {
        // a plain HTTP server (as nginx does) answers a TLS ClientHello with a 400 in clear text
        ServerSocket plain = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        Thread t0 = new Thread(() -> {
            while (!plain.isClosed()) {
                try (java.net.Socket s = plain.accept()) {
                    s.getInputStream().read(new byte[512]);
                    s.getOutputStream().write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                } catch (java.io.IOException e) {
                    // closed
                }
            }
        }, "plain-http");
        t0.setDaemon(true);
        t0.start();
        Told t;
        try {
            t = problemOf("https://127.0.0.1:" + plain.getLocalPort());
        } finally {
            plain.close();
        }
        assertTrue(t.problem().contains("TLS with the API server https://127.0.0.1:"), t.problem());
        assertTrue(t.status().contains("not connected: TLS"), t.status());
    }

    @Test
    void unauthorizedNamesTheVerbAndResource() throws Exception {
        Told t = problemOf("http://" + answering(401, "Unauthorized", "Unauthorized"));
        assertTrue(t.problem().contains("credentials refused (401 Unauthorized)") && t.problem().contains("to list "),
                t.problem());
    }

    @Test
    void forbiddenNamesTheVerbAndResource() throws Exception {
        Told t = problemOf("http://" + answering(403, "Forbidden",
                "nodes is forbidden: User \\\"system:serviceaccount:ml:viewer\\\" cannot list resource \\\"nodes\\\" in API group \\\"\\\" at the cluster scope"));
        assertTrue(t.problem().contains("forbidden: cannot list nodes (cluster-wide) (user \"system:serviceaccount:ml:viewer\")"),
                t.problem());
    }

    @Test
    void notFoundSaysWhatWasNotFound() throws Exception {
        Told t = problemOf("http://" + answering(404, "NotFound", "the server could not find the requested resource"));
        assertTrue(t.problem().contains("not found (404): list "), t.problem());
        assertTrue(t.status().contains("not connected: not found (404)"), t.status());
    }
}
