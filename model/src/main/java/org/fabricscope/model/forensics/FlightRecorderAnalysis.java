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
public final class FlightRecorderAnalysis {
    private FlightRecorderAnalysis() {
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
        return d.entryTable().maxRecordId();
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
        // readers give every dump of a job the same member list instance: each group's list is added once, not once
        // per dump (16,384 dumps of a 16,384-rank group were 268 million set insertions)
        Map<String, Set<List<Integer>>> added = new HashMap<>();
        for (FlightRecorderDump d : ranks.values()) {
            for (FrProcessGroup g : d.processGroups().values()) {
                desc.putIfAbsent(g.name(), g.desc());
                Set<Integer> m = members.computeIfAbsent(g.name(), k -> new TreeSet<>());
                if (added.computeIfAbsent(g.name(), k -> java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>()))
                        .add(g.ranks())) {
                    m.addAll(g.ranks());
                }
            }
            // each group's first description in this dump, in order of first appearance: what putting every
            // entry's would leave in desc and members, with one lookup per group instead of one per entry
            for (PgIndex.Group g : d.entryTable().index().groups()) {
                if (!g.name.isEmpty()) {
                    desc.putIfAbsent(g.name, g.firstDesc);
                    members.computeIfAbsent(g.name, k -> new TreeSet<>()).add(d.rank());
                }
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

    /** How far one dump's rank got in one process group (read from the entries' columns: no record per entry). */
    static RankProgress progress(FlightRecorderDump d, String pg) {
        FrEntries t = d.entryTable();
        PgIndex.Group g = t.index().group(pg);
        int pgIds = g == null ? 0 : g.pgIds;
        boolean p2p = g != null && g.p2p;
        long maxSeq = g == null ? -1 : g.maxSeq;
        long maxStarted = g == null ? -1 : g.maxStarted;
        long maxCompleted = g == null ? -1 : g.maxCompleted;
        // pg_status counts point-to-point operations too (their p2p_seq_id): only a group without them can use it
        FrPgStatus status = pgIds == 1 && !p2p ? d.pgStatus().get(String.valueOf(g.pgId)) : null;
        long enqueued = maxSeq;
        long started = maxStarted;
        long completed = maxCompleted;
        if (status != null) {
            enqueued = Math.max(status.lastEnqueued(), maxSeq);
            started = Math.max(status.lastStarted(), maxStarted);
            completed = Math.max(status.lastCompleted(), maxCompleted);
        }
        // entries keep the state they had when last seen, so the progress numbers decide what is pending
        int firstPending = -1;
        if (g != null) {
            for (int k = 0; k < g.nPending; k++) {
                int i = g.pending[k];
                long s = t.collectiveSeqId(i);
                if (s > completed && (firstPending < 0 || s < t.collectiveSeqId(firstPending))) {
                    firstPending = i;
                }
            }
        }
        return new RankProgress(d.rank(), enqueued, started, completed, g == null || g.last < 0 ? null : t.get(g.last),
                firstPending < 0 ? null : t.get(firstPending), status == null && pgIds == 0, d.source(),
                g == null ? t.select(new int[0], 0) : t.select(g.picked, g.nPicked));
    }

    /**
     * The first collective of each process group on which two or more ranks disagree. Each group's
     * sequence numbers are walked in order over every rank's entries (columns and indexes: no record or
     * map entry per entry of 2 million); records are made only where the shared name, dtypes and shapes
     * instances differ.
     */
    public static List<FrMismatch> mismatches(List<FlightRecorderDump> dumps) {
        Map<Integer, FlightRecorderDump> ranks = byRank(dumps);
        // process group (first name seen of those the natural order takes as one) -> its ranks' sequences
        Map<String, List<RankSeqs>> bySeq = new TreeMap<>(NaturalOrder.INSTANCE);
        Map<String, String> desc = new LinkedHashMap<>();
        Map<String, List<RankSeqs>> byName = new HashMap<>();
        for (FlightRecorderDump d : ranks.values()) {
            // the dump's groups with collective entries, in the order of their first collective entry
            List<PgIndex.Group> groups = new ArrayList<>();
            for (PgIndex.Group g : d.entryTable().index().groups()) {
                if (g.nCollective > 0) {
                    groups.add(g);
                }
            }
            if (groups.size() > 1) {
                groups.sort(Comparator.comparingInt(g -> g.collective[0]));
            }
            for (PgIndex.Group g : groups) {
                String name = g.name;
                desc.putIfAbsent(name, g.collectiveDesc);
                List<RankSeqs> group = byName.get(name);
                if (group == null) {
                    if (bySeq.containsKey(name)) { // a name the natural order takes as one already seen
                        for (var e : byName.entrySet()) {
                            if (NaturalOrder.INSTANCE.compare(e.getKey(), name) == 0) {
                                group = e.getValue();
                                break;
                            }
                        }
                    } else {
                        group = new ArrayList<>();
                        bySeq.put(name, group);
                    }
                    byName.put(name, group);
                }
                RankSeqs r = group.isEmpty() ? null : group.get(group.size() - 1);
                if (r == null || r.dump != d) {
                    group.add(new RankSeqs(d, g.seqs, g.collective, g.nCollective));
                } else {
                    r.merge(g.seqs, g.collective, g.nCollective); // two names the natural order takes as one
                }
            }
        }
        List<FrMismatch> out = new ArrayList<>();
        for (var pg : bySeq.entrySet()) {
            List<RankSeqs> members = pg.getValue();
            members.forEach(RankSeqs::order);
            if (sameSequences(members)) {
                // every rank holds the same sequence numbers (the usual dump): walk them by position, with
                // no merge over the ranks for each number (1,024 ranks x 2,000 collectives)
                RankSeqs[] all = members.toArray(new RankSeqs[0]);
                boolean[] differs = differing(all);
                for (int p = 0; p < differs.length; p++) {
                    if (!differs[p]) {
                        continue;
                    }
                    for (RankSeqs r : all) {
                        r.current = r.idx[p];
                    }
                    FrMismatch found = check(pg.getKey(), desc.get(pg.getKey()), all[0].seqs[p], all, all.length, ranks);
                    if (found != null) {
                        out.add(found);
                        break;
                    }
                }
                continue;
            }
            int[] cursor = new int[members.size()];
            RankSeqs[] at = new RankSeqs[members.size()];
            while (true) {
                long seq = Long.MAX_VALUE;
                for (int m = 0; m < at.length; m++) {
                    RankSeqs r = members.get(m);
                    if (cursor[m] < r.n) {
                        seq = Math.min(seq, r.seqs[cursor[m]]);
                    }
                }
                if (seq == Long.MAX_VALUE) {
                    break;
                }
                int k = 0;
                for (int m = 0; m < at.length; m++) {
                    RankSeqs r = members.get(m);
                    if (cursor[m] < r.n && r.seqs[cursor[m]] == seq) {
                        r.current = r.idx[cursor[m]++];
                        at[k++] = r;
                    }
                }
                if (k < 2) {
                    continue;
                }
                FrMismatch found = check(pg.getKey(), desc.get(pg.getKey()), seq, at, k, ranks);
                if (found != null) {
                    out.add(found);
                    break; // later collectives of the group follow from the first disagreement
                }
            }
        }
        return out;
    }

    /** Whether every rank holds the same sequence numbers (each rank's in order, once each). */
    private static boolean sameSequences(List<RankSeqs> members) {
        RankSeqs first = members.get(0);
        for (RankSeqs r : members) {
            if (!java.util.Arrays.equals(r.seqs, 0, r.n, first.seqs, 0, first.n)) {
                return false;
            }
        }
        return true;
    }

    /**
     * For ranks that hold the same sequence numbers: at which positions some rank's entry holds another
     * name, dtypes or shapes instance than the first rank's ({@link #sameShared} for every position, rank
     * by rank through the columns).
     */
    private static boolean[] differing(RankSeqs[] all) {
        boolean[] differs = new boolean[all[0].n];
        FrEntries t0 = all[0].dump.entryTable();
        int[] idx0 = all[0].idx;
        for (int m = 1; m < all.length; m++) {
            if (all[m].agreesEverywhereWith(all[0])) {
                continue;
            }
            FrEntries t = all[m].dump.entryTable();
            int[] idx = all[m].idx;
            for (int p = 0; p < differs.length; p++) {
                if (!differs[p]) {
                    int i = idx[p];
                    int i0 = idx0[p];
                    differs[p] = t.profilingName(i) != t0.profilingName(i0) || t.inputDtypes(i) != t0.inputDtypes(i0)
                            || t.inputSizes(i) != t0.inputSizes(i0);
                }
            }
        }
        return differs;
    }

    /** The mismatch of the collective at each of the k ranks' current entries, or null when they agree. */
    private static FrMismatch check(String pg, String desc, long seq, RankSeqs[] at, int k,
                                    Map<Integer, FlightRecorderDump> ranks) {
        if (sameShared(at, k)) {
            return null;
        }
        Map<Integer, FrEntry> entries = new LinkedHashMap<>();
        for (int m = 0; m < k; m++) {
            entries.put(at[m].dump.rank(), at[m].dump.entryTable().get(at[m].current));
        }
        return mismatch(pg, desc, seq, entries, ranks);
    }

    /** Whether the k ranks' entries hold the same name, dtypes and shapes instances (readers share equal ones): they agree. */
    private static boolean sameShared(RankSeqs[] at, int k) {
        FrEntries t0 = at[0].dump.entryTable();
        int i0 = at[0].current;
        for (int m = 1; m < k; m++) {
            if (at[m].agreesEverywhereWith(at[0])) {
                continue;
            }
            FrEntries t = at[m].dump.entryTable();
            int i = at[m].current;
            if (t.profilingName(i) != t0.profilingName(i0) || t.inputDtypes(i) != t0.inputDtypes(i0)
                    || t.inputSizes(i) != t0.inputSizes(i0)) {
                return false;
            }
        }
        return true;
    }

    /** The mismatch of one collective, or null when its entries agree. */
    private static FrMismatch mismatch(String pg, String desc, long seq, Map<Integer, FrEntry> entries,
                                       Map<Integer, FlightRecorderDump> ranks) {
        String what = disagreement(entries.values());
        if (what == null) {
            return null;
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
        return new FrMismatch(pg, desc, seq, what, entries, culprits, sources);
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
