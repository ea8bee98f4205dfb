package org.fabricscope.app.live.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Severity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabric8.kubernetes.api.model.EventListBuilder;
import io.fabric8.kubernetes.api.model.NodeListBuilder;
import io.fabric8.kubernetes.api.model.PodListBuilder;

/**
 * Issue 10, the live bounds: a loopback stand-in API server that stalls after its headers, trickles
 * its body, answers empty, not JSON, too much, or with control characters, and kubeconfigs that
 * fabric8 cannot parse or whose exec plugin hangs. Each gives one line, within its deadline.
 */
class KubeHostileTest {
    static final String NODES = KubeFaultsTest.NODES;
    static final String PODS = KubeFaultsTest.PODS;
    static final String EVENTS = KubeFaultsTest.EVENTS;
    private static final Pattern CLASS_NAME = Pattern.compile(
            "\\b(?:java|javax|jdk|sun|com\\.fasterxml|org\\.yaml|org\\.snakeyaml|io\\.fabric8)\\.\\w|\\b\\w+(?:Exception|Error)\\b");

    @TempDir
    Path dir;
    StubApiServer stub;
    final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void stop() {
        release.countDown();
        if (stub != null) {
            stub.close();
        }
    }

    /** 800 ms for headers, 1.5 s for a whole reply, 64 KiB a reply; no retries. */
    private ClusterRead read(String server, KubeTarget target) throws Exception {
        Path kc = KubeFixtures.kubeconfig(dir, server, "stub");
        return ClusterReader.readOnce(new KubeConnector(Duration.ofSeconds(2), Duration.ofMillis(800), 0,
                Duration.ofSeconds(5), Duration.ofMillis(1500), 64 * 1024), target.withKubeconfig(kc), Cancellation.NEVER);
    }

    private StubApiServer healthy() throws IOException {
        return new StubApiServer()
                .route(NODES, StubApiServer.ok(new NodeListBuilder().withItems(KubeFixtures.node("gpu-node-1", "rdma/rdma", "1k"))
                        .build()))
                .route(PODS, StubApiServer.ok(new PodListBuilder().withItems(KubeFixtures.jobPod("bert", "worker", 0,
                        "gpu-node-1", "8")).build()))
                .route(EVENTS, StubApiServer.ok(new EventListBuilder().build()));
    }

    static void assertOneCleanLine(String message) {
        assertFalse(message.contains("\n") || message.contains("\r"), message);
        assertFalse(CLASS_NAME.matcher(message).find(), "a Java class name in: " + message);
        assertTrue(message.chars().noneMatch(c -> Character.isISOControl(c)), "a control character in: " + message);
    }

    /** Headers, then a part of the body, then nothing until the test ends. */
    private StubApiServer.Reply stallAfterHeaders() {
        return ex -> {
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(200, 0);
            OutputStream o = ex.getResponseBody();
            o.write("{\"kind\":\"NodeList\",\"apiVersion\":\"v1\",\"items\":[".getBytes(StandardCharsets.UTF_8));
            o.flush();
            await();
        };
    }

    /** Headers, then one byte of a valid body every 100 ms: it would take minutes. */
    private StubApiServer.Reply trickle() {
        return ex -> {
            byte[] b = ("{\"kind\":\"NodeList\",\"apiVersion\":\"v1\",\"items\":[]" + " ".repeat(4000) + "}")
                    .getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(200, b.length);
            OutputStream o = ex.getResponseBody();
            for (byte x : b) {
                o.write(x);
                o.flush();
                try {
                    if (release.await(100, TimeUnit.MILLISECONDS)) {
                        return;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        };
    }

    private void await() {
        try {
            release.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void serverThatStallsAfterItsHeadersFailsWithinTheDeadline() throws Exception {
        stub = healthy().route(NODES, stallAfterHeaders());
        long t0 = System.nanoTime();
        KubeException e = assertThrows(KubeException.class, () -> read(stub.url(), KubeTarget.current()));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(e.getMessage().matches("the API server " + Pattern.quote(stub.url()) + " did not finish its reply to "
                + "list nodes \\(cluster-wide\\) within 1500 ms \\(the headers came, then the body stalled after \\d+ bytes\\); "
                + "the server or the network is slow or overloaded"), e.getMessage());
        assertTrue(ms < 6_000, "gave up after " + ms + " ms");
    }

    @Test
    void serverThatTricklesItsBodyFailsWithinTheDeadline() throws Exception {
        stub = healthy().route(NODES, trickle());
        long t0 = System.nanoTime();
        KubeException e = assertThrows(KubeException.class, () -> read(stub.url(), KubeTarget.current()));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(e.getMessage().startsWith("the API server " + stub.url() + " did not finish its reply to list nodes "
                + "(cluster-wide) within 1500 ms (the headers came, then the body stalled after "), e.getMessage());
        assertOneCleanLine(e.getMessage());
        assertTrue(ms < 6_000, "gave up after " + ms + " ms");
    }

    /** Answers after {@code ms}: slow, but each reply within its own deadline. */
    private StubApiServer.Reply slow(long ms, StubApiServer.Reply then) {
        return ex -> {
            try {
                if (release.await(ms, TimeUnit.MILLISECONDS)) {
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            then.send(ex);
        };
    }

    @Test
    void slowRepliesThenAStallEndWithinTheOneShotBudget() throws Exception {
        // each reply alone is within its 1.5 s; together they would take 1.1 + 1.1 + 1.5 s
        stub = new StubApiServer()
                .route(NODES, slow(1100, StubApiServer.ok(new NodeListBuilder().withItems(
                        KubeFixtures.node("gpu-node-1", "rdma/rdma", "1k")).build())))
                .route(PODS, slow(1100, StubApiServer.ok(new PodListBuilder().build())))
                .route(EVENTS, stallAfterHeaders());
        Path kc = KubeFixtures.kubeconfig(dir, stub.url(), "stub");
        long t0 = System.nanoTime();
        KubeException e = assertThrows(KubeException.class, () -> ClusterReader.readOnce(new KubeConnector(
                Duration.ofSeconds(2), Duration.ofMillis(1500), 0, Duration.ofSeconds(5), Duration.ofMillis(1500), 64 * 1024),
                KubeTarget.current().withKubeconfig(kc).withLogs(false), Cancellation.NEVER, Duration.ofMillis(2500)));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(e.getMessage().startsWith("the API server " + stub.url() + " did not "), e.getMessage());
        assertTrue(e.getMessage().contains("list events in namespace team-a within the one-shot read's 2500 ms"),
                e.getMessage());
        assertOneCleanLine(e.getMessage());
        assertTrue(ms < 5_000, "gave up after " + ms + " ms");
    }

    @Test
    void emptyAndNonJsonRepliesAreOneLineEachAndTheRestIsRead() throws Exception {
        stub = healthy().route(NODES, StubApiServer.json(200, "")).route(EVENTS, StubApiServer.text(200,
                "<html><body>\u001b[31mgateway says hi</body></html>"));
        ClusterRead r = read(stub.url(), KubeTarget.current().withJob("bert").withLogs(false));
        Diagnostic nodes = only(r, "kube://stub/nodes");
        assertEquals("the reply to list nodes (cluster-wide) from " + stub.url() + " was empty (HTTP 200 with no body)",
                nodes.message());
        Diagnostic events = only(r, "kube://stub/team-a/events");
        assertTrue(events.message().startsWith("the reply to list events in namespace team-a from " + stub.url()
                + " is not JSON (it starts \"<html><body>"), events.message());
        assertOneCleanLine(events.message());
        assertTrue(r.objects().stream().anyMatch(s -> s.source().equals("kube://stub/team-a/pods")), "pods are read");
    }

    @Test
    void aReplyLargerThanTheCapIsRefusedUnread() throws Exception {
        PodListBuilder many = new PodListBuilder();
        for (int i = 0; i < 200; i++) {
            many.addToItems(KubeFixtures.jobPod("bert", "worker", i, "gpu-node-1", "8"));
        }
        stub = healthy().route(PODS, StubApiServer.ok(many.build()));
        ClusterRead r = read(stub.url(), KubeTarget.current().withLogs(false));
        Diagnostic pods = only(r, "kube://stub/team-a/pods");
        assertEquals("the reply to list pods in namespace team-a from " + stub.url() + " is larger than 64 KiB (the limit "
                + "for one reply); not read", pods.message());
        assertTrue(r.objects().stream().anyMatch(s -> s.source().equals("kube://stub/nodes")));
    }

    @Test
    void controlCharactersAServerSendsAreNotPrinted() throws Exception {
        stub = healthy().route(EVENTS, StubApiServer.status(403, "Forbidden", "events is forbidden: User \"\u001b]0;pwned\u0007"
                + "mallory\u001b[2J\" cannot list resource \"events\" in API group \"\" in the namespace \"team-a\"\u202e"));
        ClusterRead r = read(stub.url(), KubeTarget.current().withJob("bert").withLogs(false));
        Diagnostic d = only(r, "kube://stub/team-a/events");
        assertOneCleanLine(d.message());
        assertFalse(d.message().contains("\u202e"), d.message());
        assertTrue(d.message().contains("(user \"mallory\")"), d.message());
    }

    private static Diagnostic only(ClusterRead r, String source) {
        List<Diagnostic> ds = r.diagnostics().stream().filter(d -> d.source().equals(source)
                && d.severity().compareTo(Severity.WARNING) <= 0).toList();
        assertEquals(1, ds.size(), r.diagnostics().toString());
        return ds.get(0);
    }

    // ---------------------------------------------------------------- kubeconfigs

    @Test
    void malformedKubeconfigsGiveOneClearLine() throws IOException {
        StringBuilder bomb = new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for (int i = 1; i < 10; i++) {
            bomb.append((char) ('a' + i)).append(": &").append((char) ('a' + i)).append(" [")
                    .append(String.join(",", java.util.Collections.nCopies(9, "*" + (char) ('a' + i - 1)))).append("]\n");
        }
        byte[] binary = new byte[3000];
        new java.util.Random(5).nextBytes(binary);
        Object[][] cases = {
            {"empty", "".getBytes(StandardCharsets.UTF_8), "is empty"},
            {"binary", binary, "is binary data, not YAML text"},
            {"garbage", "this is not a kubeconfig\n".getBytes(StandardCharsets.UTF_8), "is not a kubeconfig"},
            {"broken", "clusters:\n- name: a\n  cluster: {server: x\n".getBytes(StandardCharsets.UTF_8), "is not valid YAML (line 4)"},
            {"aliasbomb", bomb.toString().getBytes(StandardCharsets.UTF_8), "more than 20 aliases"},
            {"deep", ("clusters: " + "[".repeat(20000) + "]".repeat(20000) + "\n").getBytes(StandardCharsets.UTF_8),
                "nested deeper than 64 levels"},
        };
        KubeConnector connector = new KubeConnector();
        for (Object[] c : cases) {
            Path kc = Files.write(dir.resolve((String) c[0]), (byte[]) c[1]);
            KubeException e = assertThrows(KubeException.class, () -> connector.contexts(kc), (String) c[0]);
            assertTrue(e.getMessage().startsWith("kubeconfig " + kc + " "), e.getMessage());
            assertTrue(e.getMessage().contains((String) c[2]), c[0] + ": " + e.getMessage());
            assertOneCleanLine(e.getMessage());
            KubeException viaConnect = assertThrows(KubeException.class, () -> connector.connect(
                    KubeTarget.current().withKubeconfig(kc)), (String) c[0]);
            assertEquals(e.getMessage(), viaConnect.getMessage());
        }
    }

    @Test
    void aHungExecPluginIsStoppedAndNamed() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(System.getProperty("os.name").startsWith("Windows"), "a shell script");
        Path plugin = dir.resolve("slow-auth-plugin");
        Path pidFile = dir.resolve("plugin.pid");
        Files.writeString(plugin, "#!/bin/sh\necho $$ > " + pidFile + "\nexec sleep 60\n");
        assertTrue(plugin.toFile().setExecutable(true));
        Path kc = dir.resolve("kubeconfig");
        Files.writeString(kc, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: c
                  cluster:
                    server: http://127.0.0.1:1
                contexts:
                - name: slow
                  context:
                    cluster: c
                    user: sso
                current-context: slow
                users:
                - name: sso
                  user:
                    exec:
                      apiVersion: client.authentication.k8s.io/v1
                      command: %s
                      interactiveMode: Never
                """.formatted(plugin));
        KubeConnector connector = new KubeConnector(Duration.ofSeconds(2), Duration.ofSeconds(2), 0, Duration.ofSeconds(2),
                Duration.ofSeconds(6), 1 << 20);
        long t0 = System.nanoTime();
        KubeException e = assertThrows(KubeException.class, () -> connector.connect(KubeTarget.current().withKubeconfig(kc)));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals("the exec credential plugin 'slow-auth-plugin' (user sso, context slow) did not finish within 2 s; "
                + "it was stopped. Run it by hand to see whether it waits for a login or a network", e.getMessage());
        assertTrue(ms < 10_000, "gave up after " + ms + " ms");
        long pid = Long.parseLong(Files.readString(pidFile).strip());
        for (int i = 0; i < 50 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false); i++) {
            Thread.sleep(100);
        }
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the plugin process is gone");
    }
}
