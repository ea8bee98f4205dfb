package org.fabricscope.app.live.prom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

/**
 * Servers that misbehave: one that accepts and never answers, one that trickles a byte a second, a
 * refused port, HTTP errors with and without Prometheus' error field, replies that are not JSON, not
 * Prometheus' JSON, too large or with too many series. Each gives one line naming the URL, within the
 * deadline, never a stack trace or a Java class name.
 */
class PromHostileServerTest {
    private static final Duration REQUEST = Duration.ofSeconds(2);
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    private PromApi api(int port) throws PromException {
        PromApi a = new PromApi(PromTarget.of("http://127.0.0.1:" + port), REQUEST, Instant.now().plusSeconds(30));
        open.add(a);
        return a;
    }

    /** Runs {@code body} and returns its PromException's message, checking it came within the deadline and reads as one line. */
    private static String failure(long withinMillis, Attempt body) {
        long t0 = System.nanoTime();
        PromException e = assertThrows(PromException.class, body::run);
        long took = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(took < withinMillis, "took " + took + " ms: " + e.getMessage());
        String m = e.getMessage();
        assertFalse(m.contains("\n"), m);
        assertFalse(m.matches(".*\\b(java|javax|sun|com\\.fasterxml)\\.[a-z]+\\..*"), "a Java class name: " + m);
        assertFalse(m.contains("Exception"), m);
        return m;
    }

    private interface Attempt {
        void run() throws Exception;
    }

    private ServerSocket socket() throws IOException {
        ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        open.add(s);
        return s;
    }

    private Thread daemon(Runnable r) {
        Thread t = new Thread(r, "hostile-server");
        t.setDaemon(true);
        t.start();
        return t;
    }

    @Test
    void aServerThatAcceptsAndNeverAnswersIsCutAtTheDeadline() throws Exception {
        ServerSocket s = socket();
        List<Socket> held = new ArrayList<>();
        daemon(() -> {
            try {
                while (true) {
                    held.add(s.accept()); // read nothing, write nothing
                }
            } catch (IOException closed) {
                // the test ended
            }
        });
        String m = failure(REQUEST.toMillis() + 1500, () -> api(s.getLocalPort()).buildInfo());
        assertEquals("http://127.0.0.1:" + s.getLocalPort() + "/api/v1/status/buildinfo did not answer within 2 s "
                + "(PromLimits.REQUEST)", m);
    }

    @Test
    void aServerThatTricklesItsBodyIsCutAtTheDeadline() throws Exception {
        ServerSocket s = socket();
        daemon(() -> {
            try {
                while (true) {
                    Socket c = s.accept();
                    daemon(() -> {
                        try (c) {
                            c.getInputStream().read(new byte[4096]);
                            OutputStream out = c.getOutputStream();
                            out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n")
                                    .getBytes(StandardCharsets.US_ASCII));
                            out.flush();
                            for (int i = 0; i < 1000; i++) {
                                out.write(i == 0 ? '{' : ' ');
                                out.flush();
                                Thread.sleep(1000);
                            }
                        } catch (IOException | InterruptedException gone) {
                            // the client gave up, as it should
                        }
                    });
                }
            } catch (IOException closed) {
                // the test ended
            }
        });
        String m = failure(REQUEST.toMillis() + 1500, () -> api(s.getLocalPort()).buildInfo());
        assertTrue(m.startsWith("http://127.0.0.1:" + s.getLocalPort() + "/api/v1/status/buildinfo did not finish its reply "
                + "within 2 s"), m);
        assertTrue(m.contains("stalls or trickles"), m);
    }

    @Test
    void theOverallDeadlineHoldsAcrossRequests() throws Exception {
        ServerSocket s = socket();
        daemon(() -> {
            try {
                while (true) {
                    s.accept();
                }
            } catch (IOException closed) {
                // the test ended
            }
        });
        PromApi a = new PromApi(PromTarget.of("http://127.0.0.1:" + s.getLocalPort()), Duration.ofSeconds(20),
                Instant.now().plusMillis(1500));
        open.add(a);
        String m = failure(3000, a::buildInfo);
        assertTrue(m.contains("did not answer within 1."), m);
    }

    @Test
    void aReadAfterCloseSaysTheConnectionIsClosed() throws Exception {
        // a poll that races the source's close: one clear line, not a RejectedExecutionException from the HTTP client
        int port = http(200, "application/json", "{\"status\":\"success\",\"data\":{\"version\":\"2.42.0\"}}");
        PromApi a = api(port);
        a.buildInfo();
        a.close();
        String m = failure(1000, a::buildInfo);
        assertEquals("http://127.0.0.1:" + port + "/api/v1/status/buildinfo: not read, the connection to Prometheus is closed",
                m);
    }

    @Test
    void aRefusedPortSaysSo() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        String m = failure(4000, () -> api(port).buildInfo());
        assertEquals("http://127.0.0.1:" + port + "/api/v1/status/buildinfo refused the connection (nothing listens there?)", m);
    }

    private int http(int status, String type, String body) throws IOException {
        HttpServer h = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        h.createContext("/", x -> {
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            if (type != null) {
                x.getResponseHeaders().add("Content-Type", type);
            }
            x.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
            try (OutputStream o = x.getResponseBody()) {
                o.write(b);
            }
        });
        h.start();
        open.add(() -> h.stop(0));
        return h.getAddress().getPort();
    }

    @Test
    void prometheusErrorsAreQuotedWithTheirType() throws Exception {
        int port = http(400, "application/json", "{\"status\":\"error\",\"errorType\":\"bad_data\","
                + "\"error\":\"1:1: parse error: unexpected end of input\"}");
        String m = failure(4000, () -> api(port).query("up{", Instant.now()));
        assertEquals("http://127.0.0.1:" + port + "/api/v1/query answered HTTP 400: bad_data: 1:1: parse error: "
                + "unexpected end of input", m);
    }

    @Test
    void anUnauthorizedServerSaysWhatToCheck() throws Exception {
        int port = http(401, "text/plain", "Unauthorized\n");
        String m = failure(4000, () -> api(port).labels());
        assertTrue(m.startsWith("http://127.0.0.1:" + port + "/api/v1/labels answered HTTP 401 (unauthorized: check the "
                + "bearer token or the user and password)"), m);
    }

    @Test
    void aPageThatIsNotTheApiIsRefused() throws Exception {
        int port = http(200, "text/html; charset=utf-8", "<html><body>Grafana</body></html>");
        String m = failure(4000, () -> api(port).labels());
        assertTrue(m.startsWith("http://127.0.0.1:" + port + "/api/v1/labels answered with text/html, not JSON"), m);
    }

    @Test
    void jsonThatIsNotPrometheusIsRefused() throws Exception {
        for (String body : List.of("{\"status\":\"success\"}", "{\"status\":\"success\",\"data\":[]} trailing",
                "{\"status\":\"success\",\"status\":\"success\",\"data\":[]}", "[1,2,3]", "{\"status\":\"success\",\"data\":",
                "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{},\"values\":[[1,\"x\"]]}]}}",
                "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{\"a\":1}}]}}")) {
            int port = http(200, "application/json", body);
            String m = failure(4000, () -> api(port).query("up", Instant.now()));
            assertTrue(m.startsWith("http://127.0.0.1:" + port + "/api/v1/query "), body + " -> " + m);
        }
    }

    @Test
    void repliesPastTheSizeCapAreRefusedNamingTheLimit() throws Exception {
        int port = http(200, "application/json", "{\"status\":\"success\",\"data\":[\"" + "a".repeat(5000) + "\"]}");
        PromApi a = new PromApi(PromTarget.of("http://127.0.0.1:" + port), REQUEST, Instant.now().plusSeconds(30), 4096);
        open.add(a);
        String m = failure(4000, a::labels);
        assertTrue(m.contains("larger than 0 MiB (PromLimits.MAX_REPLY_BYTES)") || m.contains("PromLimits.MAX_REPLY_BYTES"), m);
    }

    @Test
    void tooManySeriesAreRefusedNamingTheLimit() {
        StringBuilder b = new StringBuilder("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[");
        for (int i = 0; i < 5; i++) {
            b.append(i == 0 ? "" : ",").append("{\"metric\":{\"i\":\"").append(i).append("\"},\"value\":[1,\"1\"]}");
        }
        b.append("]}}");
        PromHttp.Reply r = new PromHttp.Reply(200, "application/json", b.toString().getBytes(StandardCharsets.UTF_8), "http://x/api/v1/query");
        PromException e = assertThrows(PromException.class, () -> PromReply.series(r, 4));
        assertEquals("http://x/api/v1/query returned more than 4 series (PromLimits.MAX_SERIES); narrow the query", e.getMessage());
    }

    @Test
    void aGoodReplyParses() throws Exception {
        String body = "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{\"__name__\":"
                + "\"node_infiniband_symbol_error_total\",\"device\":\"mlx5_0\",\"port\":\"1\"},\"values\":[[1795734000,\"3\"],"
                + "[1795734030.5,\"NaN\"],[1795734060,\"+Inf\"]]}]}}";
        PromHttp.Reply r = new PromHttp.Reply(200, "application/json", body.getBytes(StandardCharsets.UTF_8), "u");
        List<PromSeries> s = PromReply.series(r, 10);
        assertEquals(1, s.size());
        assertEquals("node_infiniband_symbol_error_total", s.get(0).name());
        assertEquals(1795734030500L, s.get(0).millis()[1]);
        assertEquals(3.0, s.get(0).values()[0]);
        assertTrue(Double.isNaN(s.get(0).values()[1]));
        assertTrue(Double.isInfinite(s.get(0).values()[2]));
    }
}
