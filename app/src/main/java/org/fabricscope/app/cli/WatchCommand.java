package org.fabricscope.app.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.fabricscope.app.live.StandardSources;
import org.fabricscope.app.live.poll.FabricPollSource;
import org.fabricscope.app.live.poll.FabricPollSourceKind;
import org.fabricscope.app.live.poll.FabricPollTarget;
import org.fabricscope.app.live.poll.PollResult;
import org.fabricscope.app.live.source.LiveSourceException;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.diagnosis.Diagnosis;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.fabric.LinkChange;

import com.fasterxml.jackson.databind.ObjectMapper;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fabricscope watch}: polls the fabric from this node with the real infiniband-diags (the
 * {@code fabric-poll} live source) every {@code --interval}, {@code --count} times or until Ctrl+C, and
 * prints per poll the error counters that rose (with their rate per hour) and the link state changes;
 * at the end a summary and the fabric checks' findings on the rates. Never resets a counter.
 */
@Command(name = "watch", mixinStandardHelpOptions = true,
        description = "Poll the InfiniBand fabric from this node (iblinkinfo, perfquery; counters are never reset) and print"
                + " the error counters that rose, with their rate per hour, and link state changes; a summary at the end.")
final class WatchCommand implements Callable<Integer> {
    /** The poller kind used; tests put one with a scripted runner here. */
    static volatile Supplier<FabricPollSourceKind> kind =
            () -> (FabricPollSourceKind) StandardSources.registry().kind(FabricPollSourceKind.ID);
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final ObjectMapper LINE = new ObjectMapper();

    @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "30s",
            description = "Time between polls: 30s, 1m, ... (at least 5s; default ${DEFAULT-VALUE}).")
    String interval;

    @Option(names = "--count", paramLabel = "N", defaultValue = "0",
            description = "Stop after N polls (default: poll until Ctrl+C).")
    int count;

    @Option(names = "--links-every", paramLabel = "DURATION", defaultValue = "5m",
            description = "Re-read the link table (iblinkinfo) at least this often; sooner when a port stops answering"
                    + " or its LinkDowned counter rises (default ${DEFAULT-VALUE}).")
    String linksEvery;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "20s",
            description = "Deadline of each diag command (default ${DEFAULT-VALUE}).")
    String timeout;

    @Option(names = {"-C", "--ca"}, paramLabel = "CA", description = "The HCA the diags send through (their -C), e.g. mlx5_0.")
    String ca;

    @Option(names = {"-P", "--port"}, paramLabel = "PORT", defaultValue = "0",
            description = "The port of that HCA (their -P).")
    int port;

    @Option(names = "--json", description = "One JSON object per line: one per poll, then {\"summary\": ...}.")
    boolean json;

    @Spec
    CommandSpec spec;

    private volatile boolean stop;
    /** How long the last poll took, in milliseconds (every command of it). */
    private long tookMs;

    @Override
    public Integer call() throws Exception {
        FabricPollTarget target;
        try {
            target = new FabricPollTarget(duration(interval, "--interval"), duration(linksEvery, "--links-every"),
                    duration(timeout, "--timeout"), ca, port);
        } catch (IllegalArgumentException e) {
            throw new CliFailure(2, e.getMessage());
        }
        if (count < 0) {
            throw new CliFailure(2, "--count must be 0 (until Ctrl+C) or more");
        }
        PrintWriter out = spec.commandLine().getOut();
        FabricPollSource source = kind.get().open(target);
        CountDownLatch done = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop = true;
            try {
                done.await(5, TimeUnit.SECONDS); // let the loop print its summary
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "fabricscope-watch-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            if (!json) {
                out.println("Watching " + target.describe() + (count > 0 ? ", " + count + " polls" : ", until Ctrl+C")
                        + "; counters are never reset.");
                out.flush();
            }
            int polls = 0;
            while (!stop && (count == 0 || polls < count)) {
                long started = System.nanoTime();
                PollResult r;
                try {
                    r = source.pollNow();
                } catch (LiveSourceException e) {
                    if (polls == 0) {
                        throw new CliFailure(3, e.getMessage());
                    }
                    out.println(json ? LINE.writeValueAsString(Map.of("error", e.getMessage())) : "  error: " + e.getMessage());
                    out.flush();
                    continue;
                }
                polls++;
                tookMs = (System.nanoTime() - started) / 1_000_000;
                print(r, out);
                if (count > 0 && polls >= count) {
                    break;
                }
                sleepUntil(started + target.interval().toNanos());
            }
            summary(source, out);
            return 0;
        } finally {
            source.close();
            done.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // shutting down (Ctrl+C): the hook is running
            }
        }
    }

    private void sleepUntil(long deadline) throws InterruptedException {
        while (!stop) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            Thread.sleep(Math.min(200, TimeUnit.NANOSECONDS.toMillis(left) + 1));
        }
    }

    private void print(PollResult r, PrintWriter out) throws Exception {
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("poll", r.number());
            m.put("time", r.time().toString());
            m.put("portsRead", r.portsRead());
            m.put("linksRead", r.linksRead());
            m.put("tookMs", tookMs);
            m.put("rises", r.rises().stream().map(x -> {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("port", x.port());
                e.put("lid", x.lid());
                e.put("portNumber", x.portNumber());
                e.put("counter", x.counter());
                e.put("increase", x.increase());
                e.put("perHour", x.perHour());
                e.put("value", x.now());
                e.put("samples", x.samples());
                return e;
            }).toList());
            m.put("linkChanges", r.changes().stream().map(WatchCommand::change).toList());
            m.put("errors", r.errors());
            out.println(LINE.writeValueAsString(m));
            out.flush();
            return;
        }
        out.printf("%s poll %d: %d ports read in %.1f s%s%s%n", CLOCK.format(r.time()), r.number(), r.portsRead(), tookMs / 1000.0,
                r.linksRead() ? ", link table read" : "", r.rises().isEmpty() && r.changes().isEmpty() && r.errors().isEmpty()
                        ? (r.number() == 1 ? " (first reading: rises show from the next poll)" : ", no error counter rose") : "");
        for (PollResult.Rise x : r.rises()) {
            out.printf("  %-28s %s +%s (now %s; %s/h over %d samples)%n", x.port(), x.counter(), Long.toUnsignedString(x.increase()),
                    Long.toUnsignedString(x.now()), rate(x.perHour()), x.samples());
        }
        for (LinkChange c : r.changes()) {
            out.printf("  link %s: %s -> %s%n", c.portLabel(), c.from(), c.to());
        }
        for (String e : r.errors()) {
            out.println("  error: " + e);
        }
        out.flush();
    }

    private static Map<String, Object> change(LinkChange c) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("time", c.time() == null ? null : c.time().toString());
        e.put("node", c.node());
        e.put("nodeGuid", String.format("0x%016x", c.nodeGuid()));
        e.put("port", c.port());
        e.put("from", c.from());
        e.put("to", c.to());
        return e;
    }

    private void summary(FabricPollSource source, PrintWriter out) throws Exception {
        var snap = source.snapshot();
        if (snap == null) { // stopped (Ctrl+C) before the first poll ended
            out.println(json ? LINE.writeValueAsString(Map.of("summary", Map.of("counts", "no poll completed")))
                    : "No poll completed.");
            out.flush();
            return;
        }
        FabricModelBuilder b = new FabricModelBuilder();
        snap.contribute(b);
        FabricModel model = b.build();
        ErrorThresholds t = ErrorThresholds.defaults();
        List<Finding> findings = Diagnosis.fabric(t).run(model, t);
        if (json) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("counts", snap.counts());
            s.put("samples", snap.samples());
            s.put("linkChanges", snap.changes().stream().map(WatchCommand::change).toList());
            s.put("findings", findings.stream().map(f -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("id", f.id());
                m.put("severity", f.severity().label());
                m.put("title", f.title());
                m.put("evidence", f.evidence().stream().map(ev -> ev.where() + ": " + ev.text()).toList());
                return m;
            }).toList());
            out.println(LINE.writeValueAsString(Map.of("summary", s)));
            out.flush();
            return;
        }
        out.println();
        out.println("Summary: " + snap.counts() + ", " + snap.samples() + " counter samples.");
        for (LinkChange c : snap.changes()) {
            out.printf("  %s link %s: %s -> %s%n", CLOCK.format(c.time()), c.portLabel(), c.from(), c.to());
        }
        List<Finding> shown = findings.stream().filter(f -> f.severity() != org.fabricscope.model.core.Severity.INFO).toList();
        if (shown.isEmpty()) {
            out.println("No fabric finding.");
        }
        for (Finding f : shown) {
            out.println(f.severity().label().toUpperCase(Locale.ROOT) + "  " + f.title() + "  [" + f.id() + "]");
            f.evidence().stream().filter(ev -> "query".equals(ev.kind())).findFirst()
                    .ifPresent(ev -> out.println("    " + ev.text()));
        }
        out.flush();
    }

    private static String rate(double perHour) {
        return perHour >= 100 ? String.format(Locale.ROOT, "%.0f", perHour) : String.format(Locale.ROOT, "%.1f", perHour);
    }

    /** {@code 30s}, {@code 5m}, {@code 1h}, {@code 500ms}, or seconds as a bare number. */
    static Duration duration(String text, String option) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,7})\\s*(ms|s|m|h)?").matcher(text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException(option + " takes a duration like 30s, 5m or 1h; got '" + text + "'");
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        return switch (unit) {
            case "ms" -> Duration.ofMillis(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofSeconds(n);
        };
    }
}
