package org.fabricscope.app.live.poll;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.TextLines;
import org.fabricscope.importers.ibnet.PerfqueryImporter;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.fabric.CounterRate;
import org.fabricscope.model.fabric.CounterSample;
import org.fabricscope.model.fabric.LinkChange;

/**
 * Polls the fabric with the real infiniband-diags, one {@link #poll} at a time (the caller's thread and
 * clock): the link table ({@code iblinkinfo}) when it is due or a poll suggests a link changed (a port
 * that no longer answers, a LinkDownedCounter or LinkErrorRecoveryCounter that rose), and every linked
 * port's counters ({@code perfquery -x -l} for the 64-bit data counters and {@code perfquery -l} for the
 * error counters, one pair of commands per switch and per CA port). Counter readings are appended to each
 * port's series with the poll's time; link state changes are kept with theirs. Never resets a counter
 * ({@link NeverReset}). Not thread-safe: one poller, one polling thread; {@link #snapshot} copies.
 */
public final class FabricPoller {
    /** Samples kept per port; past it the oldest go (the rate then covers the kept ones, and the snapshot says so). */
    public static final int MAX_SAMPLES_PER_PORT = 1_000;
    /** Link state changes kept; past it the oldest go (said in the snapshot). */
    public static final int MAX_LINK_CHANGES = 10_000;
    /** perfquery commands run at once (each to another node): a poll of 80 nodes on ibsim took 14 s one at a time. */
    public static final int MAX_PARALLEL_COMMANDS = 8;

    /**
     * One port's counters at one poll: the port by its node's GUID (0 where unknown) and number, and the LID it
     * was read through then.
     */
    record Reading(long guid, int lid, int port, Instant time, Map<String, Long> counters, Evidence evidence) {
        /**
         * The port's series: by GUID, so that a port keeps its series when the subnet manager gives its node
         * another LID (and a LID given to another node starts that node's own); by LID where no GUID is known.
         */
        String seriesKey() {
            return (Guids.isValid(guid) ? Guids.format(guid) : "lid " + lid) + "/" + port;
        }
    }

    private final FabricPollTarget target;
    private final Diags diags;
    private final String source;
    private LinkTable links;
    private Instant linksAt;
    private Instant lastPoll;
    private final Map<String, ArrayDeque<Reading>> series = new LinkedHashMap<>();
    private final ArrayDeque<LinkChange> changes = new ArrayDeque<>();
    private long droppedSamples;
    private long droppedChanges;
    private int polls;
    private final Map<String, String> failures = new LinkedHashMap<>();

    public FabricPoller(FabricPollTarget target, Diags diags, String host) {
        this.target = target;
        this.diags = diags;
        this.source = "fabric-poll://" + host;
    }

    /** {@code fabric-poll://host}: what evidence from this poller names as its source. */
    public String source() {
        return source;
    }

    /**
     * One poll at {@code now}. The first needs the link table: when iblinkinfo cannot run or reach the
     * fabric, a {@link Diags.DiagsException} saying so ("No fabric access: ..." is the caller's wording).
     * Later failures are the result's errors and the poll goes on with what it has.
     */
    public PollResult poll(Instant now) throws Diags.DiagsException {
        List<String> errors = new ArrayList<>();
        List<LinkChange> found = new ArrayList<>();
        boolean linksRead = false;
        if (links == null || !now.isBefore(linksAt.plus(target.topologyEvery()))) {
            linksRead = readLinks(now, found, errors);
        }
        List<PollResult.Rise> rises = new ArrayList<>();
        int read = 0;
        boolean suspicious = false;
        List<TargetRead> reads = readCounters(now);
        for (int i = 0; i < reads.size(); i++) {
            LinkTable.Target t = links.targets().get(i);
            TargetRead tr = reads.get(i);
            errors.addAll(tr.errors());
            suspicious |= tr.failed();
            for (Map.Entry<Integer, Map<String, Long>> e : tr.got().entrySet()) {
                Reading r = new Reading(t.guid(), t.lid(), e.getKey(), now, e.getValue(), tr.where().get(e.getKey()));
                suspicious |= add(r, t.node() + " port " + e.getKey(), rises);
                read++;
            }
        }
        if (suspicious && !linksRead) {
            linksRead = readLinks(now, found, errors);
        }
        failures.clear();
        if (!errors.isEmpty()) {
            failures.put("counters", errors.size() + " command" + (errors.size() == 1 ? "" : "s") + " failed: " + errors.get(0));
        }
        lastPoll = now;
        polls++;
        return new PollResult(polls, now, read, rises, found, linksRead, errors);
    }

    /** What the perfquery pair of one target gave: counters and evidence by port, error lines, whether a command failed. */
    private record TargetRead(Map<Integer, Map<String, Long>> got, Map<Integer, Evidence> where, List<String> errors,
                              boolean failed) {
    }

    /** Every target's perfquery pair, {@link #MAX_PARALLEL_COMMANDS} targets at a time; results in target order. */
    private List<TargetRead> readCounters(Instant now) {
        List<LinkTable.Target> targets = links.targets();
        if (targets.size() <= 1) {
            return targets.stream().map(t -> readTarget(t, now)).toList();
        }
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(
                Math.min(MAX_PARALLEL_COMMANDS, targets.size()), r -> {
                    Thread th = new Thread(r, "fabricscope-perfquery");
                    th.setDaemon(true);
                    return th;
                });
        try {
            List<java.util.concurrent.Future<TargetRead>> futures = new ArrayList<>();
            for (LinkTable.Target t : targets) {
                futures.add(pool.submit(() -> readTarget(t, now)));
            }
            List<TargetRead> out = new ArrayList<>();
            for (int i = 0; i < futures.size(); i++) {
                try {
                    out.add(futures.get(i).get());
                } catch (java.util.concurrent.ExecutionException e) {
                    out.add(new TargetRead(Map.of(), Map.of(), List.of("perfquery of " + targets.get(i).node() + " failed: "
                            + e.getCause().getMessage()), true));
                }
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("the poll was interrupted");
        } finally {
            pool.shutdownNow();
        }
    }

    private TargetRead readTarget(LinkTable.Target t, Instant now) {
        Map<Integer, Map<String, Long>> got = new HashMap<>();
        Map<Integer, Evidence> where = new HashMap<>();
        List<String> errors = new ArrayList<>();
        for (boolean extended : new boolean[] {false, true}) { // error counters first: their header is the evidence
            List<String> argv = new ArrayList<>(List.of("perfquery"));
            if (extended) {
                argv.add("-x");
            }
            argv.addAll(target.caOptions());
            argv.addAll(List.of("-l", String.valueOf(t.lid()), t.portList()));
            try {
                Diags.Output out = diags.run(argv, target.commandTimeout());
                if (out.exitCode() != 0) { // perfquery exits 255 on a port that does not answer, printing why
                    errors.add(String.join(" ", argv) + " (" + t.node() + "): " + orExit(out));
                    return new TargetRead(got, where, errors, true);
                }
                parse(out.stdout(), String.join(" ", argv), now, got, where, errors);
            } catch (Diags.DiagsException e) {
                errors.add(e.getMessage());
                return new TargetRead(got, where, errors, true);
            }
        }
        return new TargetRead(got, where, errors, false);
    }

    private static String orExit(Diags.Output out) {
        String e = out.firstError();
        if (e.isEmpty()) { // some builds print iberror's line on stdout
            e = out.stdout().strip().lines().filter(l -> l.contains("iberror") || l.contains("ibwarn")).findFirst().orElse("");
        }
        return e.isEmpty() ? "exit status " + out.exitCode() : e;
    }

    /** Traffic counters (data and packets): they rise on every healthy link, so a poll does not list them as rises. */
    static boolean traffic(String counter) {
        return counter.matches("Port(Unicast|Multicast)?(Xmit|Rcv)(Data|Pkts)");
    }

    /** Reads iblinkinfo; the first time, a failure is no fabric access (thrown); later, one error line. */
    private boolean readLinks(Instant now, List<LinkChange> found, List<String> errors) throws Diags.DiagsException {
        List<String> argv = new ArrayList<>(List.of("iblinkinfo"));
        argv.addAll(target.caOptions());
        Diags.Output out;
        try {
            out = diags.run(argv, target.commandTimeout());
            if (out.exitCode() != 0 || out.stdout().isBlank()) {
                String why = orExit(out);
                throw new Diags.DiagsException(why.startsWith("iblinkinfo") ? why : "iblinkinfo: " + why, false);
            }
        } catch (Diags.DiagsException e) {
            if (links == null) {
                throw e;
            }
            errors.add(e.getMessage());
            return false;
        }
        LinkTable now2 = LinkTable.read(out.stdout(), source + "/iblinkinfo");
        if (links != null) {
            for (LinkTable.Row[] c : now2.changesSince(links)) {
                LinkTable.Row r = c[0] != null ? c[0] : c[1];
                String from = c[0] == null ? LinkChange.ABSENT : c[0].state();
                String to = c[1] == null ? LinkChange.ABSENT : c[1].state();
                String text = r.node() + " port " + r.port() + ": " + from + " -> " + to + " (seen between " + linksAt
                        + " and " + now + ")";
                LinkChange lc = new LinkChange(now, r.nodeGuid(), r.node(), r.port(), from, to,
                        Evidence.query(source, String.join(" ", argv), now, text));
                found.add(lc);
                changes.addLast(lc);
                if (changes.size() > MAX_LINK_CHANGES) {
                    changes.removeFirst();
                    droppedChanges++;
                }
            }
        }
        links = now2;
        linksAt = now;
        return true;
    }

    private void parse(String text, String query, Instant now, Map<Integer, Map<String, Long>> got,
                       Map<Integer, Evidence> where, List<String> errors) {
        FabricModelBuilder scratch = new FabricModelBuilder();
        PerfqueryImporter reader = new PerfqueryImporter((lid, port, counters, header, all) -> {
            got.computeIfAbsent(port, k -> new LinkedHashMap<>()).putAll(counters);
            where.putIfAbsent(port, Evidence.query(source, query, now, header.text()));
        });
        try (TextLines lines = new TextLines(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)))) {
            reader.read(lines, query, scratch, Cancellation.NEVER);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        for (Diagnostic d : scratch.build().diagnostics()) {
            errors.add(query + ": line " + d.line() + ": " + d.message());
        }
    }

    /** Appends a reading; notes the counters that rose. Whether a link-down counter rose (the link table is then re-read). */
    private boolean add(Reading r, String label, List<PollResult.Rise> rises) {
        ArrayDeque<Reading> s = series.computeIfAbsent(r.seriesKey(), k -> new ArrayDeque<>());
        Reading prev = s.peekLast();
        s.addLast(r);
        if (s.size() > MAX_SAMPLES_PER_PORT) {
            s.removeFirst();
            droppedSamples++;
        }
        if (prev == null) {
            return false;
        }
        boolean linkDown = false;
        List<CounterSample> samples = null;
        for (Map.Entry<String, Long> e : r.counters().entrySet()) {
            Long before = prev.counters().get(e.getKey());
            if (before == null || e.getValue().equals(before) || traffic(e.getKey())) {
                continue;
            }
            // a counter that fell was cleared by someone else (this poller never clears one): what it counts now is
            // the rise since, and a counter cleared to 0 did not rise
            long inc = Long.compareUnsigned(e.getValue(), before) >= 0 ? e.getValue() - before : e.getValue();
            if (inc == 0) {
                continue;
            }
            if (samples == null) {
                samples = s.stream().map(x -> new CounterSample(x.time(), x.counters(), x.evidence())).toList();
            }
            CounterRate rate = CounterRate.of(e.getKey(), samples);
            rises.add(new PollResult.Rise(label, r.lid(), r.port(), e.getKey(), inc, rate == null ? 0 : rate.perHour(),
                    e.getValue(), samples.size()));
            linkDown |= e.getKey().equals("LinkDownedCounter") || e.getKey().equals("LinkErrorRecoveryCounter");
        }
        return linkDown;
    }

    /** The poller's state now, for the model builder; a copy. */
    public FabricPollSnapshot snapshot() {
        List<Reading> all = new ArrayList<>();
        series.values().forEach(all::addAll);
        List<Diagnostic> notes = new ArrayList<>();
        if (droppedSamples > 0) {
            notes.add(Diagnostic.info(source, 0, droppedSamples + " older counter samples dropped: each port keeps its last "
                    + MAX_SAMPLES_PER_PORT + " (FabricPoller.MAX_SAMPLES_PER_PORT); rates cover the kept ones"));
        }
        if (droppedChanges > 0) {
            notes.add(Diagnostic.info(source, 0, droppedChanges + " older link state changes dropped: the last "
                    + MAX_LINK_CHANGES + " are kept (FabricPoller.MAX_LINK_CHANGES)"));
        }
        for (String f : failures.values()) {
            notes.add(Diagnostic.warning(source, 0, f));
        }
        return new FabricPollSnapshot(source, links == null ? null : links.text(), all, new ArrayList<>(changes), notes,
                new LinkedHashMap<>(failures), lastPoll == null ? Instant.now() : lastPoll, links == null,
                series.size(), polls);
    }

    /** Polls so far. */
    public int polls() {
        return polls;
    }

    /** How long until the next poll is due after one that started at {@code started}. */
    Duration interval() {
        return target.interval();
    }
}
