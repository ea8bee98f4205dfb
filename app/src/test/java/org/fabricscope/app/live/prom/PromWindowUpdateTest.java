package org.fabricscope.app.live.prom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.fabricscope.importers.core.Cancellation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A window that ends now, read again: the second read asks only for the steps since the first, and what it
 * gives is the window's samples, the earlier ones kept. Against a scripted server that answers range queries
 * as Prometheus does (one sample per step from start to end) for one symbol-error series that grows by one
 * each step, and remembers what it was asked.
 */
class PromWindowUpdateTest {
    private static final String METRIC = "node_infiniband_symbol_error_total";
    private static final Instant NOW = Instant.parse("2026-11-27T06:00:00Z");
    /** The step of an hour's window (120 samples: 30 s). */
    private static final long STEP = PromApi.step(Duration.ofHours(1)).toSeconds();
    private HttpServer server;
    /** start and end (unix seconds) of each range query of METRIC. */
    private final List<long[]> asked = Collections.synchronizedList(new ArrayList<>());
    /** metric names whose queries fail with a 503 */
    private final Set<String> failing = ConcurrentHashMap.newKeySet();
    private final List<AutoCloseable> open = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/api/v1/status/buildinfo", ex -> reply(ex, 200, "{\"status\":\"success\",\"data\":{\"version\":\"2.42.0\"}}"));
        server.createContext("/api/v1/query_range", this::range);
        server.start();
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
        server.stop(0);
    }

    private void range(HttpExchange ex) throws IOException {
        Map<String, String> q = new HashMap<>();
        for (String kv : ex.getRequestURI().getRawQuery().split("&")) {
            String[] p = kv.split("=", 2);
            q.put(URLDecoder.decode(p[0], StandardCharsets.UTF_8), URLDecoder.decode(p[1], StandardCharsets.UTF_8));
        }
        String name = q.get("query");
        if (failing.contains(name)) {
            reply(ex, 503, "{\"status\":\"error\",\"errorType\":\"unavailable\",\"error\":\"store is busy\"}");
            return;
        }
        if (!METRIC.equals(name)) {
            reply(ex, 200, "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}");
            return;
        }
        long start = (long) Double.parseDouble(q.get("start"));
        long end = (long) Double.parseDouble(q.get("end"));
        long step = (long) Double.parseDouble(q.get("step").replace("s", ""));
        asked.add(new long[] {start, end});
        StringBuilder values = new StringBuilder();
        for (long t = start; t <= end; t += step) {
            values.append(values.length() == 0 ? "" : ",").append("[").append(t).append(",\"").append(count(t)).append("\"]");
        }
        reply(ex, 200, "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{\"__name__\":\""
                + METRIC + "\",\"instance\":\"node-1:9100\",\"device\":\"mlx5_0\",\"port\":\"1\"},\"values\":[" + values + "]}]}}");
    }

    /** The counter at unix second {@code t}: one more error every 15 s. */
    private static long count(long t) {
        return (t - NOW.getEpochSecond() + 86_400) / 15;
    }

    private static void reply(HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(status, b.length);
        try (OutputStream o = ex.getResponseBody()) {
            o.write(b);
        }
    }

    private PromSnapshot read(Instant now, PromSnapshot previous) throws PromException {
        PromTarget t = PromTarget.of("http://127.0.0.1:" + server.getAddress().getPort()).withWindow(null, Duration.ofHours(1));
        PromApi api = new PromApi(t, Duration.ofSeconds(5), Instant.now().plusSeconds(30));
        open.add(api);
        return PromRead.read(api, now, Cancellation.NEVER, previous);
    }

    private static PromSeries only(PromSnapshot s) {
        assertEquals(1, s.of("node_exporter").size(), s.counts());
        return s.of("node_exporter").get(0);
    }

    @Test
    void aSecondReadAsksOnlyForTheNewStepsAndKeepsTheWindow() throws Exception {
        PromSnapshot first = read(NOW, null);
        assertEquals(1, asked.size());
        assertEquals(NOW.minus(Duration.ofHours(1)).getEpochSecond(), asked.get(0)[0], "the first read asks for the whole hour");
        PromSeries s1 = only(first);
        assertEquals(3600 / STEP + 1, s1.size(), "an hour at its step, both ends");

        Instant later = NOW.plusSeconds(40);
        PromSnapshot second = read(later, first);
        assertEquals(2, asked.size());
        long[] q = asked.get(1);
        assertEquals(NOW.getEpochSecond() + STEP, q[0], "the second read starts at the step after the last one read");
        assertEquals(later.getEpochSecond(), q[1]);

        PromSeries s2 = only(second);
        long windowStart = later.minus(Duration.ofHours(1)).toEpochMilli();
        assertTrue(s2.millis()[0] >= windowStart, "samples before the window are dropped");
        assertTrue(s2.millis()[0] < windowStart + STEP * 1000, "and no more than those");
        assertEquals(NOW.plusSeconds(40 / STEP * STEP).toEpochMilli(), s2.millis()[s2.size() - 1], "the new steps are appended");
        for (int i = 1; i < s2.size(); i++) {
            assertEquals(STEP * 1000, s2.millis()[i] - s2.millis()[i - 1], "evenly spaced across the two reads, at " + i);
            assertEquals(count(s2.millis()[i] / 1000), (long) s2.values()[i], "each sample its own value, at " + i);
        }
        assertTrue(second.diagnostics().stream().anyMatch(d -> d.message().contains("kept from the last read")),
                second.diagnostics().toString());
    }

    @Test
    void aReadWithinTheSameStepAsksForNothing() throws Exception {
        PromSnapshot first = read(NOW, null);
        PromSnapshot again = read(NOW.plusSeconds(5), first);
        assertEquals(1, asked.size(), "no step has passed: no range query");
        assertEquals(only(first).size() - 1, only(again).size(), "the one sample that left the window is dropped");
        assertEquals(only(first).millis()[only(first).size() - 1], only(again).millis()[only(again).size() - 1]);
    }

    @Test
    void aKindThatFailsMakesTheNextReadAWholeOne() throws Exception {
        PromSnapshot first = read(NOW, null);
        failing.add("DCGM_FI_DEV_XID_ERRORS");
        PromSnapshot second = read(NOW.plusSeconds(40), first);
        assertFalse(second.failures().isEmpty(), "the DCGM query failed: " + second.failures());
        long wholeStart = NOW.plusSeconds(40).minus(Duration.ofHours(1)).getEpochSecond();
        assertEquals(wholeStart, asked.get(asked.size() - 1)[0], "read whole again, not pieced together");
        failing.clear();
        read(NOW.plusSeconds(80), second);
        assertEquals(NOW.plusSeconds(80).minus(Duration.ofHours(1)).getEpochSecond(), asked.get(asked.size() - 1)[0],
                "after a read with a failure the next is whole too (nothing to build on)");
    }
}
