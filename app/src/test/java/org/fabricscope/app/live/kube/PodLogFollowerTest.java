package org.fabricscope.app.live.kube;

import org.fabricscope.app.live.source.LogLine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.fabricscope.importers.logs.NcclLogParser;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.training.Rank;
import org.fabricscope.model.training.TrainingLog;
import org.fabricscope.model.training.TrainingLogBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The follower against a stub API server that serves the real log path, cuts connections mid-line and
 * honours {@code sinceTime} at second precision: every line arrives exactly once, in order per pod.
 * Waits are bounded only to fail instead of hanging; nothing asserts on time.
 */
class PodLogFollowerTest {
    private static final String NS = "train";
    private static final long START = Instant.parse("2026-11-22T03:04:05Z").getEpochSecond() * 1_000_000_000L;
    private static final PodLogFollower.Options FAST = new PodLogFollower.Options(4, Duration.ofMillis(20),
            Duration.ofMillis(200), Duration.ZERO, Duration.ofSeconds(10));

    private PodLogStubServer stub;
    private KubernetesClient client;
    private final Collector sink = new Collector();

    /** Records everything, per stream, and checks that one stream's calls never overlap. */
    static final class Collector implements PodLogSink {
        final Map<String, List<LogLine>> lines = new ConcurrentHashMap<>();
        final List<PodLogStatus> statuses = new CopyOnWriteArrayList<>();
        final AtomicInteger overlaps = new AtomicInteger();
        private final Map<String, AtomicInteger> inside = new ConcurrentHashMap<>();

        @Override
        public void line(LogLine l) {
            String k = l.source();
            AtomicInteger in = inside.computeIfAbsent(k, x -> new AtomicInteger());
            if (in.incrementAndGet() != 1) {
                overlaps.incrementAndGet();
            }
            lines.computeIfAbsent(k, x -> new CopyOnWriteArrayList<>()).add(l);
            in.decrementAndGet();
        }

        @Override
        public void status(PodLogStatus s) {
            statuses.add(s);
        }

        List<PodLogStatus> of(String pod) {
            return statuses.stream().filter(s -> s.pod().equals(pod)).toList();
        }

        boolean finished(String pod) {
            return of(pod).stream().anyMatch(PodLogStatus::isFinal);
        }

        List<String> texts(String pod, String container) {
            return lines.getOrDefault(pod + "/" + container, List.of()).stream().map(LogLine::text).toList();
        }
    }

    @BeforeEach
    void start() throws IOException {
        stub = new PodLogStubServer(NS);
        client = stub.client();
    }

    @AfterEach
    void stop() {
        client.close();
        stub.close();
    }

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("gave up waiting for " + what);
            }
            Thread.sleep(10);
        }
    }

    static List<String> ncclBodies() throws IOException {
        List<String> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(PodLogFollowerTest.class.getResourceAsStream(
                "/reference/nccl-logs/h200x2-nccl-2.28.9/normal/nccl.vm.640.log"), StandardCharsets.UTF_8))) {
            String l;
            while ((l = r.readLine()) != null) {
                int at = l.indexOf(" NCCL INFO ");
                if (l.startsWith("vm:640:640 [0]") && at > 0) {
                    out.add(l.substring(at + " NCCL INFO ".length()));
                }
            }
        }
        return out;
    }

    private PodLogScript pod(String name, int lines, List<String> nccl) {
        PodLogScript s = PodLogScript.forPod(name, lines, START, nccl, () -> stub.phases.put(name, "Succeeded"));
        stub.pod(name, s);
        return s;
    }

    @Test
    void everyLineOnceInOrderAcrossMidLineCuts() throws Exception {
        List<String> nccl = ncclBodies();
        List<PodLogScript> scripts = new ArrayList<>();
        for (int p = 0; p < 5; p++) {
            PodLogScript s = pod("job-worker-" + p, 400 + 37 * p, nccl);
            // two to four cuts per pod, abrupt and clean, inside runs of lines that share a second and a stamp
            s.cut(50 + p, p % 2 == 0).cut(151 + 3 * p, p % 2 == 1).cut(152 + 3 * p, true);
            if (p >= 2) {
                s.cut(303, false);
            }
            scripts.add(s);
        }
        try (PodLogFollower f = new PodLogFollower(client, NS, sink, FAST)) {
            for (int p = 0; p < 5; p++) {
                f.follow("job-worker-" + p, "main");
            }
            await("all pods to end", () -> java.util.stream.IntStream.range(0, 5).allMatch(p -> sink.finished("job-worker-" + p)));
        }
        for (int p = 0; p < 5; p++) {
            String pod = "job-worker-" + p;
            PodLogScript s = scripts.get(p);
            assertEquals(s.texts(), sink.texts(pod, "main"), pod + ": every line once, in order");
            List<LogLine> got = sink.lines.get(pod + "/main");
            for (int i = 0; i < got.size(); i++) {
                assertEquals(i, got.get(i).seq(), "gapless sequence");
                assertEquals(s.lines.get(i).epochNanos(), got.get(i).epochNanos(), "kubelet timestamp kept");
            }
            List<PodLogStubServer.Request> reqs = stub.requestsFor(pod);
            int cuts = p >= 2 ? 4 : 3;
            assertEquals(cuts + 1, reqs.size(), pod + ": one reconnect per cut: " + reqs);
            assertTrue(reqs.stream().allMatch(r -> r.follow() && r.timestamps() && r.container().equals("main")));
            assertEquals(null, reqs.get(0).sinceTime(), "first request reads the whole log");
            for (PodLogStubServer.Request r : reqs.subList(1, reqs.size())) {
                assertTrue(r.sinceTime().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"), r.sinceTime());
            }
            assertTrue(s.linesWritten > s.lines.size(), pod + ": the stub replayed lines that had to be dropped");
            List<PodLogStatus> st = sink.of(pod);
            assertEquals(cuts, st.stream().filter(x -> x.state() == PodLogStatus.State.RETRYING).count(), st.toString());
            PodLogStatus last = st.get(st.size() - 1);
            assertEquals(PodLogStatus.State.ENDED, last.state());
            assertEquals("pod Succeeded", last.message());
        }
        assertEquals(0, sink.overlaps.get(), "calls for one stream never overlap");
    }

    @Test
    void liveLinesFeedTheNcclParser() throws Exception {
        List<String> nccl = ncclBodies();
        pod("job-worker-0", 3 * nccl.size() + 10, nccl).cut(40, true);
        TrainingLogBuilder log = new TrainingLogBuilder();
        List<Diagnostic> diagnostics = new ArrayList<>();
        NcclLogParser parser = new NcclLogParser(log, diagnostics);
        try (LogLineBatcher batcher = new LogLineBatcher(1000);
             PodLogFollower f = new PodLogFollower(client, NS, batcher, FAST)) {
            List<PodLogStatus> statuses = new CopyOnWriteArrayList<>();
            batcher.start(Duration.ofMillis(16), b -> {
                for (LogLine l : b.lines()) {
                    parser.line(l.text(), l.source(), l.lineNumber());
                }
                statuses.addAll(b.statuses());
            });
            f.follow("job-worker-0", "main");
            await("the pod to end", () -> statuses.stream().anyMatch(PodLogStatus::isFinal));
        }
        Rank r = log.ranks().stream().filter(Rank::initCompleted).findFirst().orElse(null);
        assertNotNull(r, "the live stream's Init COMPLETE made a rank: " + log.ranks());
        assertEquals("job-worker-0", r.host(), "in Kubernetes the NCCL host is the pod");
        assertEquals("2.28.9", r.ncclVersion());
        assertTrue(diagnostics.isEmpty(), diagnostics.toString());
    }

    @Test
    void missingPodEndsTheFollow() throws Exception {
        try (PodLogFollower f = new PodLogFollower(client, NS, sink, FAST)) {
            f.follow("gone", "main");
            await("an end", () -> sink.finished("gone"));
            assertTrue(f.following().isEmpty());
        }
        List<PodLogStatus> st = sink.of("gone");
        assertEquals(1, st.size(), st.toString());
        assertEquals(PodLogStatus.State.ENDED, st.get(0).state());
        assertEquals("404: pods \"gone\" not found", st.get(0).message());
        assertEquals(1, stub.requestsFor("gone").size(), "404 is not retried");
    }

    @Test
    void forbiddenIsOneLineAndFinal() throws Exception {
        pod("job-worker-0", 10, List.of());
        stub.gate = (p, c) -> new PodLogStubServer.Answer(403, "Forbidden", "pods \"" + p + "\" is forbidden: User "
                + "\"alice\" cannot get resource \"pods/log\" in API group \"\" in the namespace \"" + NS + "\"\n(extra detail)");
        try (PodLogFollower f = new PodLogFollower(client, NS, sink, FAST)) {
            f.follow("job-worker-0", "main");
            await("failure", () -> sink.finished("job-worker-0"));
        }
        PodLogStatus s = sink.of("job-worker-0").get(0);
        assertEquals(PodLogStatus.State.FAILED, s.state());
        assertEquals("403: pods \"job-worker-0\" is forbidden: User \"alice\" cannot get resource \"pods/log\" in API group"
                + " \"\" in the namespace \"train\"", s.message());
        assertFalse(s.message().contains("\n") || s.message().contains("Exception"), s.message());
        assertTrue(sink.lines.isEmpty());
    }

    @Test
    void containerWaitingToStartIsRetried() throws Exception {
        PodLogScript script = pod("job-worker-0", 30, List.of());
        AtomicInteger refusals = new AtomicInteger(2);
        stub.gate = (p, c) -> refusals.getAndDecrement() > 0 ? new PodLogStubServer.Answer(400, "BadRequest",
                "container \"" + c + "\" in pod \"" + p + "\" is waiting to start: ContainerCreating") : null;
        try (PodLogFollower f = new PodLogFollower(client, NS, sink, FAST)) {
            f.follow("job-worker-0", "main");
            await("the end", () -> sink.finished("job-worker-0"));
        }
        List<PodLogStatus> st = sink.of("job-worker-0");
        assertEquals(PodLogStatus.State.RETRYING, st.get(0).state());
        assertEquals("400: container \"main\" in pod \"job-worker-0\" is waiting to start: ContainerCreating", st.get(0).message());
        assertEquals(PodLogStatus.State.RETRYING, st.get(1).state());
        assertEquals(PodLogStatus.State.CONNECTED, st.get(2).state());
        assertEquals(script.texts(), sink.texts("job-worker-0", "main"));
    }

    @Test
    void badContainerNameFails() throws Exception {
        pod("job-worker-0", 5, List.of());
        stub.gate = (p, c) -> new PodLogStubServer.Answer(400, "BadRequest",
                "container " + c + " is not valid for pod " + p);
        try (PodLogFollower f = new PodLogFollower(client, NS, sink, FAST)) {
            f.follow("job-worker-0", "sidecar");
            await("failure", () -> sink.finished("job-worker-0"));
        }
        PodLogStatus s = sink.of("job-worker-0").get(0);
        assertEquals(PodLogStatus.State.FAILED, s.state());
        assertEquals("400: container sidecar is not valid for pod job-worker-0", s.message());
    }

    @Test
    void stuckConnectionIsReopenedAfterTheIdleTimeout() throws Exception {
        PodLogScript script = pod("job-worker-0", 60, List.of());
        script.stallAfter = 25;
        PodLogFollower.Options idle = new PodLogFollower.Options(4, Duration.ofMillis(20), Duration.ofMillis(200),
                Duration.ofMillis(300), Duration.ofSeconds(10));
        try (PodLogFollower f = new PodLogFollower(client, NS, sink, idle)) {
            f.follow("job-worker-0", "main");
            await("the end", () -> sink.finished("job-worker-0"));
        }
        assertEquals(script.texts(), sink.texts("job-worker-0", "main"));
        PodLogStatus retry = sink.of("job-worker-0").stream().filter(s -> s.state() == PodLogStatus.State.RETRYING)
                .findFirst().orElseThrow();
        assertEquals("no data for 0 s", retry.message().replaceAll("\\d+", "0"));
        assertEquals(2, stub.requestsFor("job-worker-0").size());
    }

    @Test
    void stopEndsOneContainerOnly() throws Exception {
        pod("job-worker-0", 20, List.of());
        stub.pod("job-worker-1", PodLogScript.forPod("job-worker-1", 20, START, List.of(), null));   // stays open
        try (PodLogFollower f = new PodLogFollower(client, NS, sink, FAST)) {
            f.follow("job-worker-1", "main");
            f.follow("job-worker-1", "main");   // again: ignored
            await("20 lines", () -> sink.texts("job-worker-1", "main").size() == 20);
            assertEquals(List.of("job-worker-1/main"), f.following());
            f.stop("job-worker-1");
            PodLogStatus s = sink.of("job-worker-1").get(sink.of("job-worker-1").size() - 1);
            assertEquals(PodLogStatus.State.ENDED, s.state());
            assertEquals("stopped", s.message());
            assertTrue(f.following().isEmpty());
        }
        assertEquals(1, stub.requestsFor("job-worker-1").size());
    }

    @Test
    void aFullBatcherHoldsStreamsBackWithoutLosingLines() throws Exception {
        List<PodLogScript> scripts = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            scripts.add(pod("job-worker-" + p, 700, List.of()).cut(333, true));
        }
        Map<String, List<String>> got = new ConcurrentHashMap<>();
        List<PodLogStatus> statuses = new CopyOnWriteArrayList<>();
        try (LogLineBatcher batcher = new LogLineBatcher(50);
             PodLogFollower f = new PodLogFollower(client, NS, batcher, FAST)) {
            for (int p = 0; p < 3; p++) {
                f.follow("job-worker-" + p, "main");
            }
            await("all ends", () -> {   // a slow consumer: one small batch at a time
                LogLineBatch b = batcher.poll();
                for (LogLine l : b.lines()) {
                    got.computeIfAbsent(l.pod(), x -> new ArrayList<>()).add(l.text());
                }
                statuses.addAll(b.statuses());
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    throw new RuntimeException(e);
                }
                return statuses.stream().filter(PodLogStatus::isFinal).count() == 3 && batcher.poll().isEmpty();
            });
            assertTrue(batcher.timesFull() > 0, "the batcher filled up and held the streams back");
            assertEquals(2100, batcher.totalLines());
        }
        for (int p = 0; p < 3; p++) {
            assertEquals(scripts.get(p).texts(), got.get("job-worker-" + p));
        }
    }
    @Test
    void unreachableApiServerIsRetriedWithOneLineReasonsAndBackoff() throws Exception {
        String url = stub.url();
        stub.close();   // nothing listens there any more
        try (KubernetesClient c = new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(
                new io.fabric8.kubernetes.client.ConfigBuilder().withMasterUrl(url).withRequestRetryBackoffLimit(0).build()).build();
             PodLogFollower f = new PodLogFollower(c, NS, sink, FAST)) {
            f.follow("job-worker-0", "main");
            await("three retries", () -> sink.of("job-worker-0").size() >= 3);
        }
        List<PodLogStatus> st = sink.of("job-worker-0").subList(0, 3);
        for (PodLogStatus s : st) {
            assertEquals(PodLogStatus.State.RETRYING, s.state());
            assertTrue(s.message().startsWith("cannot connect: ") && !s.message().contains("\n"), s.message());
            assertTrue(s.retryIn().compareTo(FAST.maxBackoff()) <= 0, s.toString());
        }
        assertTrue(st.get(2).retryIn().compareTo(Duration.ofMillis(40)) >= 0, "the delay grows: " + st);
    }
}
