package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.fabricscope.app.live.LiveJob;
import org.fabricscope.app.live.poll.Diags;
import org.fabricscope.app.live.poll.FabricPollSource;
import org.fabricscope.app.live.poll.FabricPollSourceKind;
import org.fabricscope.app.live.poll.FabricPollTarget;
import org.fabricscope.app.live.poll.FabricPoller;
import org.fabricscope.app.live.source.LiveTarget;
import org.fabricscope.app.task.CurrentThreadTaskExecutor;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.fabric.Port;
import org.junit.jupiter.api.Test;

/**
 * The window's fabric watch: File › Watch fabric opens the {@code fabric-poll} source through the same
 * live job as a cluster, pause / resume toggles it, and the inspector's trend is the series of the
 * counter that grew most.
 */
class WatchFabricTest {
    /** ibsim's two-leaf fabric (its real iblinkinfo), leaf-1 port 3's SymbolErrorCounter growing 40 a poll. */
    private static Diags scripted() throws Exception {
        String links = Files.readString(Path.of(WatchFabricTest.class.getResource("/fabrics/poll/iblinkinfo-up.txt").toURI()));
        AtomicInteger polls = new AtomicInteger();
        return (argv, timeout) -> {
            if (argv.get(0).equals("iblinkinfo")) {
                return new Diags.Output(0, links, "");
            }
            int lid = Integer.parseInt(argv.get(argv.size() - 2));
            boolean ext = argv.contains("-x");
            int n = !ext && lid == 2 ? polls.incrementAndGet() : polls.get(); // lid 2's own reads: targets run in parallel
            StringBuilder sb = new StringBuilder();
            for (String p : argv.get(argv.size() - 1).split(",")) {
                sb.append(ext ? "# Port extended counters: Lid " : "# Port counters: Lid ").append(lid).append(" port ")
                        .append(p).append('\n');
                sb.append(ext ? "PortXmitData:......" + 1_000_000L * polls.get() + "\n"
                        : "SymbolErrorCounter:......" + (lid == 2 && p.equals("3") ? 40L * (n - 1) : 0) + "\n");
            }
            return new Diags.Output(0, sb.toString(), "");
        };
    }

    @Test
    void theTrendIsTheSeriesOfTheCounterThatGrewMost() throws Exception {
        FabricPoller poller = new FabricPoller(FabricPollTarget.every(Duration.ofSeconds(30)), scripted(), "test");
        Instant t0 = Instant.parse("2026-11-27T03:00:00Z");
        for (int i = 0; i < 3; i++) {
            poller.poll(t0.plusSeconds(30L * i));
        }
        FabricModelBuilder b = new FabricModelBuilder();
        poller.snapshot().contribute(b);
        FabricModel m = b.build();
        Port p3 = port(m, "leaf-1", 3);
        PortTrend t = PortTrend.of(p3);
        assertNotNull(t);
        assertEquals("SymbolErrorCounter", t.counter(), "the data counter grew more, but traffic is left out");
        assertEquals(List.of(0L, 40L, 80L), t.values());
        assertEquals(80, t.increase());
        assertEquals("+80", InspectorView.trendText(p3));
        assertEquals("flat", InspectorView.trendText(port(m, "leaf-1", 4)));

        FabricModelBuilder once = new FabricModelBuilder();
        FabricPoller single = new FabricPoller(FabricPollTarget.every(Duration.ofSeconds(30)), scripted(), "test");
        single.poll(t0);
        single.snapshot().contribute(once);
        assertNull(PortTrend.of(port(once.build(), "leaf-1", 3)), "one reading: no trend");
    }

    private static Port port(FabricModel m, String node, int number) {
        return m.nodes().stream().filter(n -> n.displayName().equals(node)).findFirst().orElseThrow().ports().stream()
                .filter(p -> p.number() == number).findFirst().orElseThrow();
    }

    @Test
    void watchFabricOpensTheFabricPollerThroughTheLiveJobAndPausesIt() throws Exception {
        AtomicReference<LiveTarget> asked = new AtomicReference<>();
        AtomicReference<FabricPollSource> opened = new AtomicReference<>();
        Diags d = scripted();
        MainViewModel vm = new MainViewModel(new CurrentThreadTaskExecutor(), new RecordingDialogs(), (target, files, follow, l) -> {
            asked.set(target);
            FabricPollSource s = new FabricPollSourceKind(d, Clock.systemUTC()).open((FabricPollTarget) target);
            opened.set(s);
            return LiveJob.start(s, files, follow, l);
        });
        vm.watchFabric();
        try {
            assertEquals(FabricPollSourceKind.ID, asked.get().kind());
            assertEquals(MainViewModel.WATCH_INTERVAL, ((FabricPollTarget) asked.get()).interval());
            long end = System.nanoTime() + 20_000_000_000L;
            while (vm.snapshot() == null && System.nanoTime() < end) {
                Thread.sleep(50);
            }
            assertNotNull(vm.snapshot(), "the first poll's model reached the window");
            assertTrue(vm.snapshot().result().model().nodes().stream().anyMatch(n -> n.displayName().equals("leaf-1")));
            vm.toggleLivePause();
            assertTrue(opened.get().paused());
            assertTrue(vm.statusProperty().get().startsWith("Paused: fabric from this node every 15 s"), vm.statusProperty().get());
            vm.toggleLivePause();
            assertFalse(opened.get().paused());
            assertTrue(vm.statusProperty().get().startsWith("Resumed: "), vm.statusProperty().get());
        } finally {
            vm.disconnect();
        }
    }

    @Test
    void aClusterCannotBePausedAndNothingLiveSaysSo() {
        MainViewModel vm = new MainViewModel(new CurrentThreadTaskExecutor(), new RecordingDialogs());
        vm.toggleLivePause();
        assertTrue(vm.statusProperty().get().startsWith("Nothing live to pause"), vm.statusProperty().get());
    }
}
