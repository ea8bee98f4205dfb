package org.fabricscope.app.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.fabricscope.app.live.kube.KubeSourceKind;
import org.fabricscope.app.live.kube.KubeTarget;
import org.fabricscope.app.live.source.LiveSnapshot;
import org.fabricscope.app.live.source.LiveSource;
import org.fabricscope.app.live.source.LiveSourceKind;
import org.fabricscope.app.live.source.LiveSources;
import org.fabricscope.app.live.source.LiveTarget;
import org.fabricscope.app.live.source.LogLine;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;
import org.junit.jupiter.api.Test;

/**
 * The live source contract (decision 0013): a source that is not Kubernetes plugs into the registry
 * and the live job with no change to either, and its snapshot reaches the model builder as objects.
 */
class LiveSourceContractTest {
    record FakeTarget(String name) implements LiveTarget {
        @Override
        public String kind() {
            return "fake";
        }

        @Override
        public String describe() {
            return "fake " + name;
        }
    }

    /** Contributes one diagnostic per refresh: what a polled source's samples would be. */
    record FakeSnapshot(int refresh) implements LiveSnapshot {
        @Override
        public void contribute(FabricModelBuilder builder) {
            builder.diagnostic(Diagnostic.info("fake://poll", 0, "refresh " + refresh));
        }

        @Override
        public List<Diagnostic> diagnostics() {
            return List.of();
        }

        @Override
        public Map<String, String> failures() {
            return Map.of();
        }

        @Override
        public Instant taken() {
            return Instant.EPOCH;
        }

        @Override
        public boolean disconnected() {
            return false;
        }

        @Override
        public String counts() {
            return "refresh " + refresh;
        }
    }

    static class FakeSource implements LiveSource {
        final FakeTarget target;
        volatile boolean closed;

        FakeSource(FakeTarget target) {
            this.target = target;
        }

        @Override
        public String kind() {
            return "fake";
        }

        @Override
        public String describe() {
            return target.describe();
        }

        @Override
        public LiveSnapshot readOnce(Cancellation cancel) {
            return new FakeSnapshot(0);
        }

        @Override
        public void start(Listener listener, boolean followStreams) {
            listener.snapshot(new FakeSnapshot(1));
            listener.lines(List.of(new LogLine("host-1", "poll", 0, "a stream line", 0)));
        }

        @Override
        public String status() {
            return "polling";
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    static final class FakeKind implements LiveSourceKind<FakeTarget> {
        @Override
        public String id() {
            return "fake";
        }

        @Override
        public String label() {
            return "a fake poller";
        }

        @Override
        public Class<FakeTarget> targetType() {
            return FakeTarget.class;
        }

        @Override
        public LiveSource open(FakeTarget target, LiveSources.Hints hints) {
            return new FakeSource(target);
        }
    }

    @Test
    void theStandardRegistryListsKubernetesOnce() {
        assertEquals(List.of(KubeSourceKind.ID, org.fabricscope.app.live.prom.PromSourceKind.ID, org.fabricscope.app.live.poll.FabricPollSourceKind.ID),
                StandardSources.registry().kinds().stream().map(LiveSourceKind::id).toList());
        assertEquals(KubeSourceKind.ID, KubeTarget.current().kind());
    }

    @Test
    void anUnknownKindIsNamedWithTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StandardSources.registry().open(new FakeTarget("x"), LiveSources.Hints.CLI));
        assertEquals("no live source of kind 'fake'; known: kubernetes, prometheus, fabric-poll", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new LiveSources(List.of(new FakeKind(), new FakeKind())));
    }

    @Test
    void anotherSourcePlugsIntoTheLiveJobUnchanged() throws Exception {
        LiveSources registry = new LiveSources(List.of(new KubeSourceKind(), new FakeKind()));
        LiveSource source = registry.open(new FakeTarget("lab"), LiveSources.Hints.DIALOG);
        BlockingQueue<ImportResult> models = new LinkedBlockingQueue<>();
        BlockingQueue<List<LogLine>> lines = new LinkedBlockingQueue<>();
        try (LiveJob job = LiveJob.start(source, List.of(), true, Duration.ofMillis(50), new LiveJob.Listener() {
            @Override
            public void model(ImportResult result, LiveSnapshot snapshot) {
                models.add(result);
            }

            @Override
            public void lines(List<LogLine> l) {
                lines.add(l);
            }

            @Override
            public void status(String message) {
            }

            @Override
            public void error(String message) {
            }
        })) {
            ImportResult r = models.poll(10, TimeUnit.SECONDS);
            assertTrue(r != null, "no model");
            assertTrue(r.model().diagnostics().stream().anyMatch(d -> d.source().equals("fake://poll")
                    && d.message().equals("refresh 1")), r.model().diagnostics().toString());
            assertEquals("a stream line", lines.poll(10, TimeUnit.SECONDS).get(0).text());
            assertEquals("Live: fake lab · polling", job.statusLine());
        }
        assertTrue(((FakeSource) source).closed, "the job closes its source");
    }

    @Test
    void aSourceSilentPastTheFirstSnapshotDeadlineIsAProblemUntilItAnswers() throws Exception {
        BlockingQueue<String> problems = new LinkedBlockingQueue<>();
        LiveSource.Listener[] held = new LiveSource.Listener[1];
        LiveSource silent = new FakeSource(new FakeTarget("mute")) {
            @Override
            public void start(Listener listener, boolean followStreams) {
                held[0] = listener; // answers only when the test says
            }
        };
        try (LiveJob job = LiveJob.start(silent, List.of(), false, Duration.ofMillis(50), Duration.ofMillis(100),
                new LiveJob.Listener() {
                    @Override
                    public void model(ImportResult result, LiveSnapshot snapshot) {
                    }

                    @Override
                    public void lines(List<LogLine> l) {
                    }

                    @Override
                    public void status(String message) {
                    }

                    @Override
                    public void error(String message) {
                    }

                    @Override
                    public void problem(String problem) {
                        problems.add(problem == null ? "(none)" : problem);
                    }
                })) {
            assertEquals("no answer from fake mute within 100 ms; still trying", problems.poll(10, TimeUnit.SECONDS));
            held[0].snapshot(new FakeSnapshot(1));
            assertEquals("(none)", problems.poll(10, TimeUnit.SECONDS), "the banner clears when it answers");
            assertEquals("Live: fake mute · polling", job.statusLine());
        }
    }
}
