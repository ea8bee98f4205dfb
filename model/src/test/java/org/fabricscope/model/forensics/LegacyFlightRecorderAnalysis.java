package org.fabricscope.model.forensics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.fabricscope.model.core.NaturalOrder;

/**
 * Compares the flight recorder dumps of a job's ranks, the way PyTorch's {@code fr_trace} does: per
 * process group, how far each member got ({@link #progress}) and the first collective whose members
 * disagree about it ({@link #mismatches}). Pure functions of the dumps; a rank with several dumps is
 * judged by its newest (the one with the highest record id).
 */
final class LegacyFlightRecorderAnalysis {
    private LegacyFlightRecorderAnalysis() {
    }

    /** One dump per rank (ranks >= 0 only): the one whose entries reach furthest, the later one on a tie. */
    public static Map<Integer, FlightRecorderDump> byRank(List<FlightRecorderDump> dumps) {
        Map<Integer, FlightRecorderDump> out = new TreeMap<>();
        for (FlightRecorderDump d : dumps) {
            if (d.rank() < 0) {
                continue;
            }
            FlightRecorderDump had = out.get(d.rank());
            if (had == null || lastRecord(d) >= lastRecord(had)) {
                out.put(d.rank(), d);
            }
        }
        return out;
    }

    private static long lastRecord(FlightRecorderDump d) {
        long m = -1;
        for (FrEntry e : d.entries()) {
            m = Math.max(m, e.recordId());
        }
        return m;
    }

    /** The last {@link #progress(List)} answer, for the unmodifiable list of dumps it was computed from. */
    private static final Object LAST_LOCK = new Object();
    private static java.lang.ref.WeakReference<List<FlightRecorderDump>> lastDumps = new java.lang.ref.WeakReference<>(null);
    private static List<ProcessGroupProgress> lastProgress = List.of();

    /**
     * Every process group some dump recorded anything about, in natural name order. The answer for a
     * model's (unmodifiable) list of dumps is kept until the next list: the checks, the summary and the
     * timeline all ask for it, and on 2 million entries each asking cost a second.
     */
    public static List<ProcessGroupProgress> progress(List<FlightRecorderDump> dumps) {
        boolean unmodifiable = List.copyOf(dumps) == dumps; // List.copyOf returns an unmodifiable list itself
        if (unmodifiable) {
            synchronized (LAST_LOCK) {
                if (lastDumps.get() == dumps) {
                    return lastProgress;
                }
            }
        }
        List<ProcessGroupProgress> out = List.copyOf(computeProgress(dumps));
        if (unmodifiable) {
            synchronized (LAST_LOCK) {
                lastDumps = new java.lang.ref.WeakReference<>(dumps);
                lastProgress = out;
            }
        }
        return out;
    }

    private static List<ProcessGroupProgress> computeProgress(List<FlightRecorderDump> dumps) {
        Map<Integer, FlightRecorderDump> ranks = byRank(dumps);
        Map<String, String> desc = new TreeMap<>(NaturalOrder.INSTANCE);
        Map<String, Set<Integer>> members = new LinkedHashMap<>();
        for (FlightRecorderDump d : ranks.values()) {
            for (FrProcessGroup g : d.processGroups().values()) {
                desc.putIfAbsent(g.name(), g.desc());
                members.computeIfAbsent(g.name(), k -> new TreeSet<>()).addAll(g.ranks());
            }
            // each group's first description in this dump, in order of first appearance: what putting every
            // entry's would leave in desc and members, with one lookup per group instead of one per entry
            Map<String, String> named = new LinkedHashMap<>();
            for (FrEntry e : d.entries()) {
                if (!e.pgName().isEmpty()) {
                    named.putIfAbsent(e.pgName(), e.pgDesc());
                }
            }
            for (var e : named.entrySet()) {
                desc.putIfAbsent(e.getKey(), e.getValue());
                members.computeIfAbsent(e.getKey(), k -> new TreeSet<>()).add(d.rank());
            }
        }
        List<ProcessGroupProgress> out = new ArrayList<>();
        for (String pg : desc.keySet()) {
            Set<Integer> m = members.getOrDefault(pg, Set.of());
            Map<Integer, RankProgress> progress = new TreeMap<>();
            List<Integer> undumped = new ArrayList<>();
            boolean any = false;
            for (int r : m) {
                FlightRecorderDump d = ranks.get(r);
                if (d == null) {
                    undumped.add(r);
                    continue;
                }
                RankProgress p = progress(d, pg);
                any |= !p.noRecord();
                progress.put(r, p);
            }
            if (any) {
                out.add(new ProcessGroupProgress(pg, desc.get(pg), new ArrayList<>(m), progress, undumped));
            }
        }
        return out;
    }

    /** How far one dump's rank got in one process group. */
    static RankProgress progress(FlightRecorderDump d, String pg) {
        long maxSeq = -1;
        long maxCompleted = -1;
        long maxStarted = -1;
        FrEntry last = null;
        List<FrEntry> entries = new ArrayList<>();
        Set<Integer> pgIds = new HashSet<>();
        boolean p2p = false;
        for (FrEntry e : d.entries()) {
            if (!e.pgName().equals(pg)) {
                continue;
            }
            pgIds.add(e.pgId());
            if (e.p2p()) {
                p2p = true;
                continue;
            }
            entries.add(e);
            long s = e.collectiveSeqId();
            if (s > maxSeq || last == null) {
                last = e;
            }
            maxSeq = Math.max(maxSeq, s);
            if (e.completed()) {
                maxCompleted = Math.max(maxCompleted, s);
                maxStarted = Math.max(maxStarted, s);
            } else if (e.state().equals("started")) {
                maxStarted = Math.max(maxStarted, s);
            }
        }
        // pg_status counts point-to-point operations too (their p2p_seq_id): only a group without them can use it
        FrPgStatus status = pgIds.size() == 1 && !p2p ? d.pgStatus().get(String.valueOf(pgIds.iterator().next())) : null;
        long enqueued = maxSeq;
        long started = maxStarted;
        long completed = maxCompleted;
        if (status != null) {
            enqueued = Math.max(status.lastEnqueued(), maxSeq);
            started = Math.max(status.lastStarted(), maxStarted);
            completed = Math.max(status.lastCompleted(), maxCompleted);
        }
        // entries keep the state they had when last seen, so the progress numbers decide what is pending
        FrEntry firstPending = null;
        for (FrEntry e : entries) {
            if (e.collectiveSeqId() > completed && !e.completed()
                    && (firstPending == null || e.collectiveSeqId() < firstPending.collectiveSeqId())) {
                firstPending = e;
            }
        }
        return new RankProgress(d.rank(), enqueued, started, completed, last, firstPending,
                status == null && pgIds.isEmpty(), d.source(), entries);
    }

    /** The first collective of each process group on which two or more ranks disagree. */
    public static List<FrMismatch> mismatches(List<FlightRecorderDump> dumps) {
        Map<Integer, FlightRecorderDump> ranks = byRank(dumps);
        // process group -> seq -> rank -> entry
        Map<String, TreeMap<Long, Map<Integer, FrEntry>>> bySeq = new TreeMap<>(NaturalOrder.INSTANCE);
        Map<String, String> desc = new LinkedHashMap<>();
        // Gathered in hash maps, then ordered once (2 million entries): the group's map by name (one
        // natural-order lookup per name), its sequence numbers (sorted after), and per sequence number
        // the ranks in insertion order, which is rank order since the dumps are visited by rank.
        Map<String, Map<Long, Map<Integer, FrEntry>>> byName = new HashMap<>();
        Map<Map<Long, Map<Integer, FrEntry>>, String> names = new java.util.IdentityHashMap<>();
        for (FlightRecorderDump d : ranks.values()) {
            for (FrEntry e : d.entries()) {
                if (e.p2p() || e.pgName().isEmpty() || e.collectiveSeqId() < 0) {
                    continue;
                }
                desc.putIfAbsent(e.pgName(), e.pgDesc());
                Map<Long, Map<Integer, FrEntry>> group = byName.get(e.pgName());
                if (group == null) {
                    if (bySeq.containsKey(e.pgName())) { // a name the natural order takes as one already seen
                        for (var g : byName.entrySet()) {
                            if (NaturalOrder.INSTANCE.compare(g.getKey(), e.pgName()) == 0) {
                                group = g.getValue();
                                break;
                            }
                        }
                    } else {
                        bySeq.put(e.pgName(), new TreeMap<>());
                        group = new HashMap<>();
                        names.put(group, e.pgName());
                    }
                    byName.put(e.pgName(), group);
                }
                group.computeIfAbsent(e.collectiveSeqId(), k -> new LinkedHashMap<>()).put(d.rank(), e);
            }
        }
        for (var g : names.entrySet()) {
            bySeq.get(g.getValue()).putAll(g.getKey());
        }
        List<FrMismatch> out = new ArrayList<>();
        for (var pg : bySeq.entrySet()) {
            for (var seq : pg.getValue().entrySet()) {
                Map<Integer, FrEntry> entries = seq.getValue();
                if (entries.size() < 2) {
                    continue;
                }
                String what = disagreement(entries.values());
                if (what == null) {
                    continue;
                }
                Map<String, List<Integer>> groups = new LinkedHashMap<>();
                for (var e : entries.entrySet()) {
                    groups.computeIfAbsent(signature(e.getValue(), what), k -> new ArrayList<>()).add(e.getKey());
                }
                List<List<Integer>> sorted = new ArrayList<>(groups.values());
                sorted.sort(Comparator.comparingInt(l -> -l.size()));
                List<Integer> culprits = new ArrayList<>();
                if (sorted.get(0).size() > sorted.get(1).size()) {
                    for (int i = 1; i < sorted.size(); i++) {
                        culprits.addAll(sorted.get(i));
                    }
                    culprits.sort(null);
                }
                Map<Integer, String> sources = new TreeMap<>();
                entries.keySet().forEach(r -> sources.put(r, ranks.get(r).source()));
                out.add(new FrMismatch(pg.getKey(), desc.get(pg.getKey()), seq.getKey(), what, entries, culprits, sources));
                break; // later collectives of the group follow from the first disagreement
            }
        }
        return out;
    }

    /** {@code op}, {@code dtype} or {@code size}: the first property the entries disagree on; null when they agree. */
    static String disagreement(java.util.Collection<FrEntry> entries) {
        // readers share one instance of equal names, dtypes and shapes: the same instances agree
        FrEntry first = null;
        boolean same = true;
        for (FrEntry e : entries) {
            if (first == null) {
                first = e;
            } else if (e.profilingName() != first.profilingName() || e.inputDtypes() != first.inputDtypes()
                    || e.inputSizes() != first.inputSizes()) {
                same = false;
                break;
            }
        }
        if (same) {
            return null;
        }
        Set<String> ops = new HashSet<>();
        Set<List<String>> dtypes = new HashSet<>();
        Set<List<List<Long>>> sizes = new HashSet<>();
        boolean sized = true;
        for (FrEntry e : entries) {
            ops.add(e.profilingName());
            if (!e.inputDtypes().isEmpty()) {
                dtypes.add(e.inputDtypes());
            }
            sized &= sizesMustMatch(e.op());
            sizes.add(e.inputSizes());
        }
        if (ops.size() > 1) {
            return "op";
        }
        if (dtypes.size() > 1) {
            return "dtype";
        }
        return sized && sizes.size() > 1 ? "size" : null;
    }

    private static String signature(FrEntry e, String what) {
        return switch (what) {
            case "op" -> e.profilingName();
            case "dtype" -> String.join(",", e.inputDtypes());
            default -> e.inputSizes().toString();
        };
    }

    /**
     * Whether every rank passes the same input shape to this operation: not for all-to-all (uneven
     * splits), coalesced groups, gather and scatter (root and non-root differ).
     */
    public static boolean sizesMustMatch(String op) {
        String o = op.toLowerCase(java.util.Locale.ROOT);
        if (o.contains("all_to_all") || o.contains("alltoall") || o.contains("coalesced")) {
            return false;
        }
        if (o.contains("gather") && !o.contains("all_gather") && !o.contains("allgather")) {
            return false;
        }
        return !(o.contains("scatter") && !o.contains("reduce_scatter") && !o.contains("reducescatter"));
    }
}
