package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.fabricscope.app.live.poll.Diags;
import org.fabricscope.app.live.poll.FabricPollSourceKind;
import org.fabricscope.app.live.poll.NeverReset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * {@code fabricscope watch} with a scripted runner in place of the diags: iblinkinfo as ibsim's
 * fabric printed it (node-2's cable pulled from the second link table on), perfquery answering with a
 * SymbolErrorCounter that grows by 40 per poll. The real diags on the simulator are FabricPollSimTest's.
 */
class WatchCliTest {
    private final Supplier<FabricPollSourceKind> saved = WatchCommand.kind;

    @AfterEach
    void restore() {
        WatchCommand.kind = saved;
    }

    private record Run(int status, String out, String err) {
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = FabricScopeCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static String resource(String name) throws Exception {
        return Files.readString(Path.of(WatchCliTest.class.getResource("/fabrics/poll/" + name).toURI()));
    }

    /** A fabric where leaf-1 port 3 gains 40 symbol errors per poll, and node-2's cable is out from the second link table on. */
    private static Diags scripted(List<List<String>> commands) throws Exception {
        String up = resource("iblinkinfo-up.txt");
        String unplugged = resource("iblinkinfo-node2-unplugged.txt");
        AtomicInteger linkReads = new AtomicInteger();
        AtomicInteger counterReads = new AtomicInteger();
        AtomicInteger lid2Reads = new AtomicInteger();
        AtomicInteger lid4Reads = new AtomicInteger();
        return (argv, timeout) -> { // the poller runs targets in parallel: each answer depends only on its own target's reads
            NeverReset.check(argv);
            commands.add(List.copyOf(argv));
            if (argv.get(0).equals("iblinkinfo")) {
                return new Diags.Output(0, linkReads.getAndIncrement() == 0 ? up : unplugged, "");
            }
            int lid = Integer.parseInt(argv.get(argv.size() - 2));
            boolean ext = argv.contains("-x");
            if (lid == 4 && !ext && lid4Reads.incrementAndGet() >= 2) { // node-2's cable is out from the second poll on
                return new Diags.Output(255, "", "perfquery: iberror: failed: classportinfo query");
            }
            int lid2 = lid == 2 && !ext ? lid2Reads.incrementAndGet() : lid2Reads.get();
            if (!ext) {
                counterReads.incrementAndGet();
            }
            StringBuilder sb = new StringBuilder();
            for (String p : argv.get(argv.size() - 1).split(",")) {
                sb.append(ext ? "# Port extended counters: Lid " : "# Port counters: Lid ").append(lid).append(" port ").append(p)
                        .append(" (CapMask: 0x1300)\n");
                if (ext) {
                    sb.append("PortXmitData:....................").append(1000 * counterReads.get()).append('\n');
                } else {
                    long sym = lid == 2 && p.equals("3") ? 40L * (lid2 - 1) : 0;
                    sb.append("SymbolErrorCounter:..............").append(sym).append('\n');
                    sb.append("LinkDownedCounter:...............0\n");
                }
            }
            return new Diags.Output(0, sb.toString(), "");
        };
    }

    @Test
    void watchPrintsRisingCountersLinkChangesAndASummary() throws Exception {
        List<List<String>> commands = new ArrayList<>();
        Diags d = scripted(commands);
        WatchCommand.kind = () -> new FabricPollSourceKind(d, Clock.systemUTC());
        Run r = run("watch", "--interval", "5s", "--count", "2", "--json");
        assertEquals(0, r.status(), r.err());
        String[] lines = r.out().strip().split("\n");
        assertEquals(3, lines.length, r.out());
        ObjectMapper m = new ObjectMapper();
        JsonNode second = m.readTree(lines[1]);
        assertEquals(2, second.get("poll").asInt());
        JsonNode rise = second.get("rises").get(0);
        assertEquals("leaf-1 port 3", rise.get("port").asText());
        assertEquals("SymbolErrorCounter", rise.get("counter").asText());
        assertEquals(40, rise.get("increase").asLong());
        assertTrue(rise.get("perHour").asDouble() > 10_000, rise.toString()); // 40 in about 5 s
        JsonNode change = second.get("linkChanges").get(0);
        assertEquals("leaf-1", change.get("node").asText());
        assertEquals("Active/LinkUp", change.get("from").asText());
        assertEquals("Down/Polling", change.get("to").asText());
        assertFalse(second.get("errors").isEmpty());
        JsonNode summary = m.readTree(lines[2]).get("summary");
        assertTrue(summary.get("findings").toString().contains("link-errors"), summary.toString());
        for (List<String> argv : commands) {
            assertTrue(argv.stream().noneMatch(NeverReset::resets), "a command that resets: " + argv);
        }
    }

    @Test
    void textOutputNamesThePortItsRateAndTheUnpluggedCable() throws Exception {
        Diags d = scripted(new ArrayList<>());
        WatchCommand.kind = () -> new FabricPollSourceKind(d, Clock.systemUTC());
        Run r = run("watch", "--interval", "5s", "--count", "2", "-C", "mlx5_0", "-P", "1");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("leaf-1 port 3"), r.out());
        assertTrue(r.out().contains("SymbolErrorCounter +40 (now 40;"), r.out());
        assertTrue(r.out().contains("link leaf-1 port 2: Active/LinkUp -> Down/Polling"), r.out());
        assertTrue(r.out().contains("link node-2 HCA-1 port 1: Active/LinkUp -> absent"), r.out());
        assertTrue(r.out().contains("Summary: "), r.out());
        assertTrue(r.out().contains("[link-errors]"), r.out());
    }

    @Test
    void missingDiagsIsOneLineWithoutAStackTrace() {
        WatchCommand.kind = () -> new FabricPollSourceKind((argv, t) -> {
            throw new Diags.DiagsException(argv.get(0) + ": not found (install infiniband-diags, or put it on the PATH)", true);
        }, Clock.systemUTC());
        Run r = run("watch", "--count", "1", "--interval", "5s");
        assertEquals(3, r.status());
        assertEquals("fabricscope: No fabric access: iblinkinfo: not found (install infiniband-diags, or put it on the PATH)",
                r.err().strip());
        assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), r.err());
    }

    @Test
    void unreachableFabricSaysWhatTheToolSaid() {
        WatchCommand.kind = () -> new FabricPollSourceKind((argv, t) -> new Diags.Output(255, "",
                "ibwarn: [123] mad_rpc_open_port: can't open UMAD port ((null):0)\niblinkinfo: iberror: failed: Failed to open '(null)' port '0'"),
                Clock.systemUTC());
        Run r = run("watch", "--count", "1", "--interval", "5s");
        assertEquals(3, r.status());
        assertEquals("fabricscope: No fabric access: iblinkinfo: iberror: failed: Failed to open '(null)' port '0'", r.err().strip());
    }

    @Test
    void theRealDiagsWithoutAnHcaSayWhy() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/sbin/iblinkinfo"))
                && !Files.exists(Path.of("/sys/class/infiniband_mad/abi_version")), "needs infiniband-diags and no umad device");
        Run r = run("watch", "--count", "1", "--interval", "5s");
        assertEquals(3, r.status(), r.out());
        assertTrue(r.err().startsWith("fabricscope: No fabric access: iblinkinfo: get_abi_version: can't read ABI version"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }

    @Test
    void intervalUnderTheFloorAndBadDurationsAreRefused() {
        Run r = run("watch", "--interval", "1s", "--count", "1");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("at least 5 s (FabricPollTarget.MIN_INTERVAL)"), r.err());
        Run bad = run("watch", "--interval", "soon");
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("--interval takes a duration like 30s"), bad.err());
    }
}
