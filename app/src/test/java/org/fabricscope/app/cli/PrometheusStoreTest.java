package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import org.fabricscope.app.live.StandardSources;
import org.fabricscope.app.live.prom.PromTarget;
import org.fabricscope.app.live.source.LiveDeadlines;
import org.fabricscope.app.live.source.LiveSnapshot;
import org.fabricscope.app.live.source.LiveSource;
import org.fabricscope.app.live.source.LiveSources;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The Prometheus source against real servers: Debian's {@code prometheus}, loaded with promtool's
 * OpenMetrics backfill, and {@code victoria-metrics}, loaded through its import API, both from the
 * history {@code sample-fabrics/tools/gen-prom-history.py} writes (hours in the past: backfilled blocks
 * must be older than the head). The same CLI commands and assertions run against both. Skips with a
 * message where a binary is absent; CI installs them ({@code .ci/install-tools.sh}).
 */
class PrometheusStoreTest {
    private static final Path GENERATOR = Path.of("..", "sample-fabrics", "tools", "gen-prom-history.py");
    private static final Path CAPTURE = Path.of("..", "sample-fabrics", "fat-tree-3tier-small", "ibnetdiscover.txt");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Path dir;
    private static final List<Process> servers = new ArrayList<>();
    private static String prometheus;
    private static String victoria;
    private static String whyNoPrometheus = "not started";
    private static String whyNoVictoria = "not started";
    /** The window's end as the generator printed it; the window starts an hour before. */
    private static long at;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("fabricscope-prom");
        assumeTrue(Files.isRegularFile(GENERATOR), "run from the app module");
        long start = Instant.now().getEpochSecond() - 6 * 3600;
        start -= start % 60;
        Path om = generate(start, "openmetrics");
        if (Files.isExecutable(Path.of("/usr/bin/prometheus")) && Files.isExecutable(Path.of("/usr/bin/promtool"))) {
            Path data = dir.resolve("prom-data");
            exec(List.of("/usr/bin/promtool", "tsdb", "create-blocks-from", "openmetrics", om.toString(), data.toString()),
                    dir.resolve("promtool.log"));
            Path config = Files.writeString(dir.resolve("prometheus.yml"), "global:\n  scrape_interval: 1m\n");
            int port = freePort();
            servers.add(new ProcessBuilder("/usr/bin/prometheus", "--storage.tsdb.path=" + data,
                    "--web.listen-address=127.0.0.1:" + port, "--config.file=" + config,
                    "--storage.tsdb.retention.time=30d").redirectErrorStream(true)
                    .redirectOutput(dir.resolve("prometheus.log").toFile()).start());
            prometheus = "http://127.0.0.1:" + port;
            waitFor(prometheus + "/-/ready", dir.resolve("prometheus.log"));
            whyNoPrometheus = null;
        } else {
            whyNoPrometheus = "/usr/bin/prometheus or promtool is not installed (Debian: apt-get install prometheus; "
                    + "CI: .ci/install-tools.sh)";
        }
        if (Files.isExecutable(Path.of("/usr/bin/victoria-metrics"))) {
            Path text = generate(start, "prometheus");
            int port = freePort();
            servers.add(new ProcessBuilder("/usr/bin/victoria-metrics", "-storageDataPath=" + dir.resolve("vm-data"),
                    "-httpListenAddr=127.0.0.1:" + port, "-retentionPeriod=30d", "-search.latencyOffset=0s")
                    .redirectErrorStream(true).redirectOutput(dir.resolve("victoria.log").toFile()).start());
            victoria = "http://127.0.0.1:" + port;
            waitFor(victoria + "/health", dir.resolve("victoria.log"));
            post(victoria + "/api/v1/import/prometheus", Files.readAllBytes(text));
            get(victoria + "/internal/force_flush");
            whyNoVictoria = null;
        } else {
            whyNoVictoria = "/usr/bin/victoria-metrics is not installed (Debian: apt-get install victoria-metrics; "
                    + "CI: .ci/install-tools.sh)";
        }
    }

    @AfterAll
    static void stop() throws Exception {
        for (Process p : servers) {
            p.destroy();
        }
        for (Process p : servers) {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
        if (dir != null) {
            try (Stream<Path> all = Files.walk(dir)) {
                all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static Path generate(long start, String format) throws Exception {
        Path out = dir.resolve("history-" + format + ".txt");
        Path err = dir.resolve("gen-" + format + ".log");
        Process p = new ProcessBuilder("python3", GENERATOR.toString(), "--start", Long.toString(start), "--format", format)
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the generator did not finish in 60 s");
        String said = Files.readString(err);
        assertEquals(0, p.exitValue(), said);
        Matcher m = Pattern.compile("--at (\\d+) --window 1h").matcher(said);
        assertTrue(m.find(), said);
        at = Long.parseLong(m.group(1));
        return out;
    }

    private static void exec(List<String> command, Path log) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), command + " did not finish in 60 s");
        assertEquals(0, p.exitValue(), command + ": " + Files.readString(log));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static void waitFor(String url, Path log) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < until) {
            try {
                if (get(url) == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // starting
            }
            Thread.sleep(200);
        }
        throw new AssertionError(url + " not ready in 30 s: " + Files.readString(log));
    }

    private static int get(String url) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
        c.setConnectTimeout(2000);
        c.setReadTimeout(20000);
        try {
            c.getInputStream().readAllBytes();
            return c.getResponseCode();
        } finally {
            c.disconnect();
        }
    }

    private static void post(String url, byte[] body) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
        c.setRequestMethod("POST");
        c.setDoOutput(true);
        c.setConnectTimeout(2000);
        c.setReadTimeout(60000);
        c.getOutputStream().write(body);
        int status = c.getResponseCode();
        assertTrue(status / 100 == 2, url + " answered " + status);
        c.disconnect();
    }

    private static String server(String which) {
        if (which.equals("prometheus")) {
            assumeTrue(whyNoPrometheus == null, whyNoPrometheus);
            return prometheus;
        }
        assumeTrue(whyNoVictoria == null, whyNoVictoria);
        return victoria;
    }

    private static JsonNode json(String... args) throws IOException {
        CliTest.Run r = CliTest.run(args);
        assertEquals(0, r.status(), r.err() + r.out());
        assertFalse(r.err().contains("Exception"), r.err());
        return JSON.readTree(r.out());
    }

    private static List<JsonNode> findings(JsonNode doc, String id) {
        List<JsonNode> out = new ArrayList<>();
        doc.get("findings").forEach(f -> {
            if (f.get("id").asText().equals(id)) {
                out.add(f);
            }
        });
        return out;
    }

    /** Symbol errors rising in the window: a link-errors finding with the rate, citing the query and its time. */
    private static void risingCountersAreJudgedAsRates(String url) throws IOException {
        JsonNode d = json("diagnose", "--json", "--prometheus", url, "--at", Long.toString(at), "--window", "1h");
        List<JsonNode> errors = findings(d, "link-errors");
        List<String> titles = errors.stream().map(f -> f.get("title").asText()).toList();
        assertTrue(titles.contains("Link errors on cn0021 mlx5_0 port 1"), titles.toString());
        assertFalse(titles.stream().anyMatch(t -> t.contains("cn0020")), "5,000 old symbol errors that do not grow: " + titles);
        JsonNode f = errors.get(titles.indexOf("Link errors on cn0021 mlx5_0 port 1"));
        assertEquals("error", f.get("severity").asText(), "150/h is more than ten times 10/h");
        JsonNode ev = f.get("evidence").get(0);
        assertEquals("query", ev.get("kind").asText());
        assertEquals(url, ev.get("source").asText());
        assertTrue(ev.get("text").asText().startsWith("SymbolErrorCounter +150 in 1.0 h = 150/h (threshold 10/h;"), ev.toString());
        assertEquals(Instant.ofEpochSecond(at).toString(), ev.get("time").asText());
    }

    /** The flap and the Xid, on the timeline with their times; the Xid is the first error. */
    private static void flapsAndXidsAreOnTheTimeline(String url) throws IOException {
        JsonNode t = json("timeline", "--json", "--prometheus", url, "--at", Long.toString(at), "--window", "1h");
        List<String> flaps = new ArrayList<>();
        String xid = null;
        for (JsonNode e : t.get("events")) {
            if (e.get("id").asText().equals("prometheus.ib-link-downed")) {
                flaps.add(e.get("time").asText() + " " + e.get("fields").get("port").asText());
            }
            if (e.get("id").asText().equals("prometheus.dcgm-xid")) {
                xid = e.get("time").asText() + " " + e.get("fields").get("xid").asText() + " " + e.get("fields").get("gpu").asText()
                        + " " + e.get("fields").get("host").asText();
                assertEquals("query", e.get("evidence").get("kind").asText());
            }
        }
        String flapAt = Instant.ofEpochSecond(at - 3600 + 1200).toString();
        assertTrue(flaps.contains(flapAt + " cn0022 mlx5_1 port 1"), flaps.toString());
        assertTrue(flaps.contains(flapAt + " MF0;leaf-p3-04:MQM8700/U1 port 6"), "the leaf's end too: " + flaps);
        assertEquals(Instant.ofEpochSecond(at - 3600 + 1800) + " 79 3 cn0023", xid);
        assertEquals("prometheus.dcgm-xid", t.get("rootCause").get("id").asText());
    }

    @Test
    void prometheusRisingCounters() throws IOException {
        risingCountersAreJudgedAsRates(server("prometheus"));
    }

    @Test
    void victoriaMetricsRisingCounters() throws IOException {
        risingCountersAreJudgedAsRates(server("victoria"));
    }

    @Test
    void prometheusTimeline() throws IOException {
        flapsAndXidsAreOnTheTimeline(server("prometheus"));
    }

    @Test
    void victoriaMetricsTimeline() throws IOException {
        flapsAndXidsAreOnTheTimeline(server("victoria"));
    }

    @Test
    void aFabricFromPrometheusAlone() throws IOException {
        JsonNode s = json("summary", "--json", "--prometheus", server("prometheus"), "--at", Long.toString(at), "--window", "1h");
        assertEquals(16, s.get("cas").asInt(), "the HCAs of 8 hosts, two each, from infiniband-exporter's local ends");
        assertEquals(8, s.get("hosts").asInt());
        assertEquals(16, s.get("cables").asInt(), "both ends of every cable");
        assertEquals(7, s.get("switches").asInt(), "the leaves those HCAs are cabled to");
    }

    @Test
    void joinedToACapture() throws IOException {
        JsonNode d = json("diagnose", "--json", CAPTURE.toString(), "--prometheus", server("prometheus"), "--at", Long.toString(at),
                "--window", "1h");
        JsonNode f = findings(d, "link-errors").stream().filter(x -> x.get("title").asText()
                .equals("Link errors on cn0021 mlx5_0 port 1")).findFirst().orElseThrow();
        List<String> where = new ArrayList<>();
        f.get("evidence").forEach(e -> where.add(e.get("source").asText() + ":" + e.get("line").asInt()));
        assertTrue(where.contains(CAPTURE + ":31"), "the capture's cable line, joined by GUID and by name: " + where);
        JsonNode s = json("summary", "--json", CAPTURE.toString(), "--prometheus", server("prometheus"), "--at",
                Long.toString(at), "--window", "1h");
        JsonNode alone = json("summary", "--json", CAPTURE.toString());
        assertEquals(alone.get("cables").asInt(), s.get("cables").asInt(), "no cable added or duplicated by the join");
        assertEquals(alone.get("cas").asInt(), s.get("cas").asInt(), "no HCA duplicated by the join");
    }

    @Test
    void aWindowBeforeTheRiseFindsNothingRising() throws IOException {
        JsonNode d = json("diagnose", "--json", "--prometheus", server("prometheus"), "--at", Long.toString(at - 3600),
                "--window", "30m");
        assertEquals(List.of(), findings(d, "link-errors").stream().map(f -> f.get("title").asText()).toList());
    }

    @Test
    void anEmptyWindowSaysWhatToCheck() {
        CliTest.Run r = CliTest.run("diagnose", "--prometheus", server("prometheus"), "--at",
                Long.toString(at - 30 * 24 * 3600), "--window", "1h");
        assertEquals(1, r.status(), r.out());
        assertTrue(r.err().contains("no InfiniBand, DCGM or NCCL Inspector series between"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    @Test
    void aStartedSourcePushesTheWindowAndStopsWithinItsDeadline() throws Exception {
        PromTarget t = PromTarget.of(server("prometheus")).withWindow(Instant.ofEpochSecond(at), java.time.Duration.ofHours(1));
        LiveSource source = StandardSources.registry().open(t, LiveSources.Hints.DIALOG);
        BlockingQueue<LiveSnapshot> snapshots = new LinkedBlockingQueue<>();
        BlockingQueue<String> errors = new LinkedBlockingQueue<>();
        source.start(new LiveSource.Listener() {
            @Override
            public void snapshot(LiveSnapshot s) {
                snapshots.add(s);
            }

            @Override
            public void error(String message) {
                errors.add(message);
            }
        }, false);
        LiveSnapshot s = snapshots.poll(LiveDeadlines.FIRST_SNAPSHOT.toSeconds(), TimeUnit.SECONDS);
        assertTrue(s != null, "no snapshot within the first snapshot's deadline: " + errors);
        assertFalse(s.disconnected());
        assertTrue(s.counts().startsWith("208 node_exporter, 384 infiniband-exporter"), s.counts());
        long t0 = System.nanoTime();
        source.close();
        assertTrue(System.nanoTime() - t0 < LiveDeadlines.STOP.toNanos(), "closing took past LiveDeadlines.STOP");
    }
}
