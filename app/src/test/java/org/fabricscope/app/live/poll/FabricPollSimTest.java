package org.fabricscope.app.live.poll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.diagnosis.Diagnosis;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.fabric.CounterSample;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.LinkChange;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.incident.reasoning.IncidentEvent;
import org.fabricscope.model.incident.reasoning.IncidentReasoner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The poller against the real infiniband-diags on Debian's simulator: counters raised mid-run through
 * ibsim's console ({@code PerformanceSet}) give a rate finding, an unplugged cable ({@code Unlink}) is a
 * link state change at the poll that saw it, and no command line ever asks to reset a counter. Polls run
 * back to back with the poll times set by the test (ten minutes apart), so rates are exact and the test
 * takes seconds.
 */
class FabricPollSimTest {
    @TempDir
    Path work;

    @Test
    void raisedCountersGiveARateAndAnUnpluggedCableIsATimedLinkEvent() throws Exception {
        Path net = Path.of(getClass().getResource("/fabrics/poll/two-leaves.net").toURI());
        try (SimFabric sim = SimFabric.start(work, net, "H-node-1")) {
            List<List<String>> commands = new ArrayList<>();
            ProcessDiags real = new ProcessDiags(sim.env());
            Diags recording = (argv, timeout) -> {
                commands.add(List.copyOf(argv));
                return real.run(argv, timeout);
            };
            FabricPoller poller = new FabricPoller(FabricPollTarget.every(Duration.ofSeconds(30))
                    .withTopologyEvery(Duration.ofHours(1)), recording, "sim");
            Instant t0 = Instant.parse("2026-11-27T03:00:00Z");
            PollResult first = poller.poll(t0);
            assertTrue(first.linksRead());
            assertEquals(10, first.portsRead(), "8 linked switch ports and 3 HCA ports minus none: " + first);
            assertTrue(first.errors().isEmpty(), first.errors().toString());

            sim.console("PerformanceSet \"S-leaf-1\"[3] PortCounters.SymbolErrorCounter=40");
            PollResult second = poller.poll(t0.plusSeconds(600));
            PollResult.Rise rise = second.rises().stream().filter(r -> r.counter().equals("SymbolErrorCounter")).findFirst()
                    .orElseThrow(() -> new AssertionError("no rise in " + second));
            assertEquals("leaf-1 port 3", rise.port());
            assertEquals(40, rise.increase());
            assertEquals(240.0, rise.perHour(), 1e-9); // 40 in 10 min
            assertFalse(second.linksRead(), "the link table is not re-read when nothing suggests a change");

            sim.console("PerformanceSet \"S-leaf-1\"[3] PortCounters.SymbolErrorCounter=80");
            poller.poll(t0.plusSeconds(1200));
            sim.console("Unlink \"S-leaf-1\"[2]");
            Instant unplugged = t0.plusSeconds(1800);
            PollResult fourth = poller.poll(unplugged);
            assertTrue(fourth.linksRead(), "a port that stopped answering makes the poll re-read the link table: " + fourth);
            assertFalse(fourth.errors().isEmpty(), "node-2's perfquery fails once its cable is out");
            LinkChange down = fourth.changes().stream().filter(c -> c.node().equals("leaf-1") && c.port() == 2).findFirst()
                    .orElseThrow(() -> new AssertionError("no change of leaf-1 port 2 in " + fourth.changes()));
            assertEquals("Active/LinkUp", down.from());
            assertEquals("Down/Polling", down.to());
            assertEquals(unplugged, down.time());
            assertTrue(fourth.changes().stream().anyMatch(c -> c.node().equals("node-2 HCA-1") && c.to().equals(LinkChange.ABSENT)),
                    fourth.changes().toString());

            // never reset: no command line held a reset option, and every counter read only grew
            assertFalse(commands.isEmpty());
            for (List<String> argv : commands) {
                NeverReset.check(argv);
                assertTrue(argv.stream().noneMatch(a -> a.equals("-r") || a.equals("-R") || a.startsWith("--clear")), argv.toString());
            }

            FabricModelBuilder b = new FabricModelBuilder();
            FabricPollSnapshot snap = poller.snapshot();
            snap.contribute(b);
            FabricModel model = b.build();
            FabricNode leaf = model.nodes().stream().filter(n -> n.displayName().equals("leaf-1")).findFirst().orElseThrow();
            Port p3 = leaf.ports().stream().filter(p -> p.number() == 3).findFirst().orElseThrow();
            List<Long> symbols = p3.counterSamples().stream().map(CounterSample::counters)
                    .map(c -> c.get("SymbolErrorCounter")).toList();
            assertEquals(List.of(0L, 40L, 80L, 80L), symbols, "one timed sample per poll, none cleared");
            List<Finding> findings = Diagnosis.standard(ErrorThresholds.defaults()).run(model, ErrorThresholds.defaults());
            Finding rate = findings.stream().filter(f -> f.id().equals("link-errors")).findFirst()
                    .orElseThrow(() -> new AssertionError("no link-errors finding: " + findings));
            String all = rate.toString();
            assertTrue(all.contains("SymbolErrorCounter +80 in 30 min = 160/h (threshold 10/h; 4 samples, now 80)"), all);
            assertTrue(all.contains("query=perfquery -l 2 1,2,3,4, time=2026-11-27T03:30:00Z"), all);

            IncidentEvent event = IncidentReasoner.of(model).events().stream()
                    .filter(e -> e.id().equals("fabricscope.link-down") && e.title().contains("leaf-1 port 2")).findFirst()
                    .orElseThrow(() -> new AssertionError("no link-down event on the timeline"));
            assertEquals(unplugged.toEpochMilli(), event.stamp().millis());
            assertEquals("query", event.evidence().kind());
        }
    }
}
