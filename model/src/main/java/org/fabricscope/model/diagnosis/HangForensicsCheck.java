package org.fabricscope.model.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.FindingSpec;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.forensics.FlightRecorderAnalysis;
import org.fabricscope.model.forensics.ForensicsLayer;
import org.fabricscope.model.forensics.FrEntry;
import org.fabricscope.model.forensics.FrMismatch;
import org.fabricscope.model.forensics.ProcessGroupProgress;
import org.fabricscope.model.forensics.RankProgress;
import org.fabricscope.model.forensics.RasCommunicator;
import org.fabricscope.model.forensics.RasRank;
import org.fabricscope.model.forensics.RasStatus;
import org.fabricscope.model.ranks.RankSite;
import org.fabricscope.model.training.NcclEvent;
import org.fabricscope.model.training.Rank;
import org.fabricscope.model.training.TrainingLog;

/**
 * Hang forensics over flight recorder dumps and NCCL RAS reports: {@code collective-hang} (in a
 * process group or communicator, the ranks that never joined a collective the others wait in, or that
 * RAS counts behind), {@code collective-mismatch} (the same collective called with another op, dtype
 * or size on some rank) and {@code rank-exited} (RAS reports a rank's process missing or dead). Every
 * rank it names is joined to its pod, node, GPU, HCA and leaf port when the logs and the other layers
 * allow ({@link ForensicJoin}).
 */
public final class HangForensicsCheck implements FabricCheck {
    static final FindingSpec HANG = new FindingSpec("collective-hang", Layer.TRAINING, Severity.ERROR,
            "Ranks of a process group or communicator never joined a collective the others wait in, or are behind by sequence number",
            "PyTorch flight recorder dumps (pg_status, entries; as torch/distributed/flight_recorder's fr_trace compares them) "
                    + "and NCCL RAS collective counts (docs/userguide troubleshooting/ras.rst: MISMATCH)");
    static final FindingSpec MISMATCH = new FindingSpec("collective-mismatch", Layer.TRAINING, Severity.ERROR,
            "Ranks called the same collective (same sequence number) with a different op, dtype or size",
            "PyTorch flight recorder entries (profiling_name, input_sizes, input_dtypes), as fr_trace's mismatch checks");
    static final FindingSpec EXITED = new FindingSpec("rank-exited", Layer.TRAINING, Severity.ERROR,
            "A rank's process died or went away: killed by a signal (SIGKILL, exit code 137, OOMKilled), reported by its "
                    + "peers (remote process exited, connection closed by remote peer, ncclRemoteError), or missing or "
                    + "dead in NCCL RAS; names the rank that died first, its pod and node, not the ranks that reported it",
            "NCCL RAS status and monitor output (ras.rst: INCOMPLETE, DEAD, missing_ranks, PEER_DEAD); torchrun's "
                    + "ChildFailedError summary and failed (exitcode) lines; NCCL WARN/INFO and PyTorch NCCL errors; "
                    + "Kubernetes OOMKilled events");

    static final int MAX_RANKS_NAMED = 16;

    @Override
    public List<FindingSpec> findings() {
        return List.of(HANG, MISMATCH, EXITED);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        ForensicsLayer f = context.model().forensics();
        if (f.flightRecorder().isEmpty() && f.ras().isEmpty()) {
            return RankDeaths.findings(context, new ForensicJoin(context), new ArrayList<>(), EXITED.id());
        }
        ForensicJoin join = new ForensicJoin(context);
        List<Finding> out = new ArrayList<>();
        Map<Long, Integer> frHangByComm = new LinkedHashMap<>();
        Map<Long, Set<Integer>> frBehindByComm = new LinkedHashMap<>();
        for (ProcessGroupProgress p : FlightRecorderAnalysis.progress(f.flightRecorder())) {
            if (p.hangs()) {
                Finding h = frHang(p, join, context.model().trainingLog());
                // the NCCL communicator of a group that spans every rank is the world communicator of the log
                Set<Integer> behind = new TreeSet<>();
                long comm = 0;
                for (RankProgress r : p.behind()) {
                    behind.add(r.rank());
                    Rank lr = join.worldRank(r.rank());
                    if (lr != null && lr.nranks() == p.members().size()) {
                        comm = ForensicJoin.hashValue(lr.commId());
                    }
                }
                if (comm != 0) {
                    frHangByComm.put(comm, out.size());
                    frBehindByComm.put(comm, behind);
                }
                out.add(h);
            }
        }
        for (FrMismatch m : FlightRecorderAnalysis.mismatches(f.flightRecorder())) {
            out.add(mismatch(m, join));
        }
        rasHangs(f.ras(), join, out, frHangByComm, frBehindByComm);
        out.addAll(RasExits.findings(f.ras(), join));
        return RankDeaths.findings(context, join, out, EXITED.id());
    }

    // ---------------------------------------------------------------- flight recorder

    private Finding frHang(ProcessGroupProgress p, ForensicJoin join, TrainingLog log) {
        List<RankProgress> behind = p.behind();
        List<RankProgress> leaders = p.leaders();
        long minBehind = Long.MAX_VALUE;
        for (RankProgress r : behind) {
            minBehind = Math.min(minBehind, r.lastEnqueued());
        }
        FrEntry stuck = null;
        String stuckSource = "";
        for (RankProgress r : leaders) {
            FrEntry e = entryAt(r, minBehind + 1);
            if (e == null) {
                e = r.firstPending() != null ? r.firstPending() : r.last();
            }
            if (e != null && (stuck == null || e.collectiveSeqId() < stuck.collectiveSeqId())) {
                stuck = e;
                stuckSource = r.source();
            }
        }
        String op = stuck == null ? "a collective" : stuck.op();
        long seq = stuck == null ? minBehind + 1 : stuck.collectiveSeqId();
        List<Subject> refs = new ArrayList<>();
        refs.add(new Subject.CommRef(p.name(), stuck == null ? "" : op, seq, p.label() + " " + op + " seq " + seq));
        List<Evidence> evidence = new ArrayList<>();
        if (stuck != null) {
            evidence.add(Evidence.at(stuckSource, 0, "rank " + leaders.get(0).rank() + " " + stuck.describe()));
        }
        List<String> behindText = new ArrayList<>();
        List<String> firstPlaces = new ArrayList<>();
        Set<Subject> places = new LinkedHashSet<>();
        int named = 0;
        for (RankProgress r : behind) {
            Rank lr = join.worldRank(r.rank());
            RankSite site = join.site(lr);
            String where = ForensicJoin.place(lr, site);
            String state = r.noRecord() ? "no record of this group in its dump"
                    : "last enqueued " + r.lastEnqueued() + ", completed " + r.lastCompleted();
            behindText.add(behind.size() == 1 ? state : "rank " + r.rank() + ": " + state);
            if (named++ < MAX_RANKS_NAMED) {
                refs.add(new Subject.RankRef(lr == null ? "" : lr.commId(), r.rank(), lr == null ? "" : lr.host(),
                        "rank " + r.rank() + " behind in " + p.label() + ": " + state + where));
                places.addAll(ForensicJoin.placeSubjects(site));
                if (firstPlaces.size() < 3) {
                    firstPlaces.add("rank " + r.rank() + where);
                }
                evidence.add(Evidence.at(r.source(), 0, "rank " + r.rank() + " " + (r.last() == null ? state
                        : "last " + r.last().describe() + "; " + state)));
            }
        }
        refs.addAll(places);
        String onlyPlace = behind.size() == 1 ? ForensicJoin.place(join.worldRank(behind.get(0).rank()),
                join.site(join.worldRank(behind.get(0).rank()))) : "";
        String title = cap(p.label()) + " hangs in " + op + " (seq " + seq + "): " + ranksText(behind.stream()
                .map(RankProgress::rank).toList()) + onlyPlace + " never joined it"
                + " (" + String.join("; ", behindText.subList(0, Math.min(4, behindText.size())))
                + (behindText.size() > 4 ? "; ..." : "") + "); " + ranksText(leaders.stream().map(RankProgress::rank).toList())
                + " enqueued up to " + p.maxEnqueued();
        List<String> remedies = new ArrayList<>();
        remedies.add("Look at " + String.join(", ", firstPlaces) + " first: " + (behind.size() == 1 ? "it" : "they")
                + " never called " + op + " seq " + seq + " of "
                + p.label() + ", so the Python stack is elsewhere (an exception or a crash on that rank, a stopped or "
                + "killed process, a data loader or a GIL-holding thread, a rank-dependent branch). Take its stack with "
                + "py-spy dump --pid, or read its last log lines.");
        remedies.add("The other ranks wait inside the collective until the watchdog's timeout" + (stuck != null
                && stuck.timeoutMs() > 0 ? " (" + stuck.timeoutMs() + " ms)" : "") + " aborts the communicator; "
                + "TORCH_NCCL_DUMP_ON_TIMEOUT=1 with TORCH_FR_DUMP_TEMP_FILE makes every rank dump its flight recorder so "
                + "all ranks can be compared.");
        List<String> links = new ArrayList<>();
        for (RankProgress r : behind.subList(0, Math.min(MAX_RANKS_NAMED, behind.size()))) {
            RankSite site = join.site(join.worldRank(r.rank()));
            String bad = join.linkErrors(site, evidence);
            if (!bad.isEmpty()) {
                links.add("rank " + r.rank() + " has errors: " + bad);
            }
        }
        if (!links.isEmpty()) {
            remedies.add(1, "The host link of " + String.join("; of ", links) + ". A rank whose link fails stops in "
                    + "(or before) a collective: check that cable and port first.");
        }
        if (!p.undumped().isEmpty()) {
            remedies.add("No dump was loaded from " + ranksText(p.undumped()) + " of this group: load them too (a rank "
                    + "whose process died writes none).");
        }
        watchdogAgreement(log, p, seq, evidence, remedies);
        return new Finding(HANG.id(), Severity.ERROR, title, refs, evidence, remedies);
    }

    /**
     * The logs' watchdog lines for this group beside the dumps' answer: each rank's first watchdog timeout
     * in the group is cited (it agrees when its SeqNum is the collective the dumps say the group waits in);
     * one on another SeqNum is said in a remedy, as the two sources then tell different stories. A watchdog
     * line without a process group prefix counts for a group the rank is a member of.
     */
    static void watchdogAgreement(TrainingLog log, ProcessGroupProgress p, long seq, List<Evidence> evidence,
                                  List<String> remedies) {
        Map<Integer, NcclEvent> firstByRank = new TreeMap<>();
        for (NcclEvent e : log.events()) {
            if (e.kind() != NcclEvent.Kind.WATCHDOG_TIMEOUT || e.rank() < 0 || firstByRank.containsKey(e.rank())) {
                continue;
            }
            String id = e.field("pgId");
            String name = e.field("pgName");
            boolean named = id != null || name != null;
            boolean same = (id != null && id.equals(p.name())) || (name != null && (name.equals(p.name())
                    || name.equals(p.desc())));
            if (same || (!named && p.members().contains(e.rank()))) {
                firstByRank.put(e.rank(), e);
            }
        }
        List<String> other = new ArrayList<>();
        int cited = 0;
        for (NcclEvent e : firstByRank.values()) {
            String at = e.field("seqNum");
            boolean agrees = at != null && at.equals(Long.toString(seq));
            if (cited++ < 4) {
                evidence.add(e.evidence().withText("rank " + e.rank() + "'s watchdog fired on "
                        + e.field("opType") + " SeqNum " + at + (agrees ? ": the log agrees with the dumps"
                        : ": not the collective the dumps say the group waits in (seq " + seq + ")")));
            }
            if (!agrees) {
                other.add("rank " + e.rank() + " on SeqNum " + at);
            }
        }
        if (!other.isEmpty()) {
            remedies.add("The logs' watchdog fired elsewhere (" + String.join(", ", other) + ") than seq " + seq
                    + ", where the dumps say the group waits: check that the logs and the dumps are of the same run, and "
                    + "that the watchdog line is of this process group.");
        }
    }

    private static FrEntry entryAt(RankProgress r, long seq) {
        return r.entry(seq);
    }

    private Finding mismatch(FrMismatch m, ForensicJoin join) {
        List<Integer> named = m.culprits().isEmpty() ? new ArrayList<>(m.entries().keySet()) : m.culprits();
        FrEntry any = m.entries().values().iterator().next();
        // the majority's entry describes what the culprits should have called
        FrEntry expected = null;
        for (var e : m.entries().entrySet()) {
            if (!m.culprits().contains(e.getKey())) {
                expected = e.getValue();
                break;
            }
        }
        String what = switch (m.what()) {
            case "op" -> "operation";
            case "dtype" -> "element type";
            default -> "size";
        };
        List<Subject> refs = new ArrayList<>();
        refs.add(new Subject.CommRef(m.pgName(), (expected != null ? expected : any).op(), m.seq(),
                m.label() + " seq " + m.seq()));
        Set<Subject> places = new LinkedHashSet<>();
        List<String> parts = new ArrayList<>();
        List<String> firstPlaces = new ArrayList<>();
        int n = 0;
        for (int r : named) {
            FrEntry e = m.entries().get(r);
            Rank lr = join.worldRank(r);
            RankSite site = join.site(lr);
            String where = ForensicJoin.place(lr, site);
            String call = e.profilingName() + " " + e.inputText();
            if (n++ < MAX_RANKS_NAMED) {
                refs.add(new Subject.RankRef(lr == null ? "" : lr.commId(), r, lr == null ? "" : lr.host(),
                        "rank " + r + " called " + call + where));
                places.addAll(ForensicJoin.placeSubjects(site));
                if (firstPlaces.size() < 3) {
                    firstPlaces.add("rank " + r + where);
                }
            }
            if (parts.size() < 6) {
                parts.add("rank " + r + " " + call);
            }
        }
        refs.addAll(places);
        String title;
        if (!m.culprits().isEmpty() && expected != null) {
            title = cap(m.label()) + " seq " + m.seq() + ": " + String.join(", ", parts) + " where the other "
                    + org.fabricscope.model.core.Plural.of(m.entries().size() - m.culprits().size(), "rank") + " called " + expected.profilingName() + " "
                    + expected.inputText() + " (the " + what + " differs)";
        } else {
            title = cap(m.label()) + " seq " + m.seq() + ": the ranks disagree on the " + what + ": "
                    + String.join(", ", parts) + " (no majority: either side may be wrong)";
        }
        List<Evidence> evidence = new ArrayList<>();
        for (var e : m.entries().entrySet()) {
            if (evidence.size() < MAX_RANKS_NAMED) {
                evidence.add(Evidence.at(m.sources().get(e.getKey()), 0, "rank " + e.getKey() + " " + e.getValue().describe()));
            }
        }
        List<String> remedies = new ArrayList<>();
        remedies.add("Every rank of a process group must call the same collectives in the same order with the same "
                + "dtypes and sizes. Find where " + String.join(", ", firstPlaces) + " takes another path: a "
                + "data-dependent shape (an uneven last batch, variable sequence lengths), a rank-dependent branch, or "
                + "a collective skipped after an exception.");
        remedies.add("NCCL does not check this: a mismatched collective hangs, or completes with wrong data without any "
                + "error. TORCH_DISTRIBUTED_DEBUG=DETAIL makes PyTorch compare each collective's shapes across ranks "
                + "before calling NCCL (slower; for debugging).");
        return new Finding(MISMATCH.id(), Severity.ERROR, title, refs, evidence, remedies);
    }

    // ---------------------------------------------------------------- RAS: collective counts

    /** One communicator's ranks that RAS counts behind in one report. */
    private record Behind(RasStatus status, RasCommunicator comm, String op, long max, List<RasRank> ranks,
                          Map<Integer, Long> counts) {
    }

    private void rasHangs(List<RasStatus> statuses, ForensicJoin join, List<Finding> out, Map<Long, Integer> frHangs,
                          Map<Long, Set<Integer>> frBehind) {
        Map<String, List<Behind>> byComm = new LinkedHashMap<>();
        for (RasStatus s : statuses) {
            for (RasCommunicator c : s.communicators()) {
                Behind b = behind(s, c);
                if (b != null) {
                    byComm.computeIfAbsent(c.hash(), k -> new ArrayList<>()).add(b);
                }
            }
        }
        for (var e : byComm.entrySet()) {
            List<Behind> reports = e.getValue();
            Behind newest = reports.get(reports.size() - 1);
            // of the reports with the newest counts, cite a text one (its evidence has line numbers)
            Behind last = newest;
            for (Behind b : reports) {
                if (b.counts().equals(newest.counts()) && b.op().equals(newest.op()) && b.status().format().equals("text")) {
                    last = b;
                }
            }
            int same = 0;
            Set<String> times = new LinkedHashSet<>();
            for (Behind b : reports) {
                if (b.counts().equals(last.counts()) && b.op().equals(last.op())) {
                    same++;
                    if (!b.status().timestamp().isEmpty()) {
                        times.add(b.status().timestamp());
                    }
                }
            }
            long hash = ForensicJoin.hashValue(e.getKey());
            Integer fr = frHangs.get(hash);
            Set<Integer> behindRanks = new TreeSet<>();
            last.ranks().forEach(r -> behindRanks.add(r.rank()));
            List<Evidence> evidence = new ArrayList<>();
            for (RasRank r : last.ranks()) {
                evidence.add(r.evidence());
            }
            if (last.comm().evidence() != null && !evidence.contains(last.comm().evidence())) {
                evidence.add(0, last.comm().evidence());
            }
            String countsText = countsText(last);
            if (fr != null && frBehind.get(hash).containsAll(behindRanks)) {
                Finding h = out.get(fr);
                List<Evidence> ev = new ArrayList<>(h.evidence());
                ev.addAll(evidence);
                List<String> remedies = new ArrayList<>(h.remedies());
                remedies.add(1, "NCCL RAS agrees: in " + last.comm().describe() + " " + countsText + " ("
                        + last.status().source() + (same > 1 ? "; the same counts in " + same + " reports" : "") + ").");
                out.set(fr, h.with(h.title(), h.refs(), ev, remedies));
                continue;
            }
            // stuck: the same counts in reports taken at different times (only JSON reports carry a time)
            boolean stuck = times.size() > 1;
            List<Subject> refs = new ArrayList<>();
            refs.add(new Subject.CommRef(e.getKey(), last.op(), last.max(), last.comm().describe() + " " + last.op()
                    + " operation " + last.max()));
            Set<Subject> places = new LinkedHashSet<>();
            List<String> firstPlaces = new ArrayList<>();
            for (RasRank r : last.ranks()) {
                Rank lr = join.rasRank(e.getKey(), r.rank(), r.host(), r.pid(), r.cudaDev());
                RankSite site = join.site(lr);
                String where = ForensicJoin.place(lr, site);
                if (refs.size() <= MAX_RANKS_NAMED) {
                    refs.add(new Subject.RankRef(e.getKey(), r.rank(), lr != null ? lr.host() : r.host(), "rank " + r.rank()
                            + " launched up to " + last.op() + " " + last.counts().get(r.rank()) + " (" + r.processText()
                            + ")" + where));
                    places.addAll(ForensicJoin.placeSubjects(site));
                }
                if (firstPlaces.size() < 3) {
                    firstPlaces.add("rank " + r.rank() + (where.isEmpty() ? " (" + r.processText() + ")" : where));
                }
            }
            refs.addAll(places);
            String title = "NCCL RAS: in " + last.comm().describe() + " " + countsText
                    + (stuck ? "; unchanged from " + times.iterator().next() + " to " + last.status().timestamp()
                            : same > 1 ? " (the same counts in " + same + " reports)" : "");
            List<String> remedies = new ArrayList<>();
            remedies.add("Look at " + String.join(", ", firstPlaces) + " first: the others launched "
                    + last.op() + " operations it has not.");
            remedies.add(stuck ? "The counts did not change between reports: the communicator is stuck waiting for the ranks behind."
                    : "RAS's query races the collectives, so counts that differ by a little are normal in a running job. "
                            + "Query again (ncclras, or echo verbose status | nc localhost 28028): counts that stay the "
                            + "same mean the communicator is stuck.");
            remedies.add("Load the ranks' flight recorder dumps (TORCH_NCCL_DUMP_ON_TIMEOUT=1) to see which collective "
                    + "and which Python stack each rank is in.");
            out.add(new Finding(HANG.id(), stuck ? Severity.ERROR : Severity.WARNING, title, refs, evidence, remedies));
        }
    }

    private static String countsText(Behind b) {
        List<Integer> behind = b.ranks().stream().map(RasRank::rank).toList();
        TreeSet<Long> lower = new TreeSet<>();
        for (RasRank r : b.ranks()) {
            lower.add(b.counts().get(r.rank()));
        }
        return ranksText(behind) + (behind.size() == 1 ? " has" : " have") + " launched up to " + b.op() + " operation "
                + (lower.size() == 1 ? lower.first() : lower.first() + "-" + lower.last()) + ", the others up to " + b.max();
    }

    /** The ranks RAS counts behind in one communicator of one report (by collective type), or null. */
    private static Behind behind(RasStatus s, RasCommunicator c) {
        Map<String, Map<Integer, Long>> byOp = new TreeMap<>();
        Map<Integer, RasRank> ranks = new TreeMap<>();
        for (RasRank r : c.ranks()) {
            ranks.put(r.rank(), r);
            for (var e : r.collectiveCounts().entrySet()) {
                byOp.computeIfAbsent(e.getKey(), k -> new TreeMap<>()).put(r.rank(), e.getValue());
            }
        }
        for (var op : byOp.entrySet()) {
            Map<Integer, Long> counts = op.getValue();
            long max = counts.values().stream().mapToLong(Long::longValue).max().orElse(0);
            for (RasCommunicator.CountGroup g : c.countGroups()) {
                if (g.op().equals(op.getKey())) {
                    max = Math.max(max, g.count());
                }
            }
            List<RasRank> behind = new ArrayList<>();
            for (var e : counts.entrySet()) {
                if (e.getValue() < max) {
                    behind.add(ranks.get(e.getKey()));
                }
            }
            if (!behind.isEmpty()) {
                return new Behind(s, c, op.getKey(), max, behind, counts);
            }
        }
        return null;
    }

    // ---------------------------------------------------------------- text

    /** {@code rank 3}, {@code ranks 0-3, 5}. */
    static String ranksText(List<Integer> ranks) {
        List<Integer> sorted = new ArrayList<>(new TreeSet<>(ranks));
        StringBuilder b = new StringBuilder(sorted.size() == 1 ? "rank " : "ranks ");
        int i = 0;
        int parts = 0;
        while (i < sorted.size()) {
            int j = i;
            while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) {
                j++;
            }
            if (parts++ > 0) {
                b.append(", ");
            }
            if (parts > 8) {
                b.append("... (").append(sorted.size()).append(" in all)");
                break;
            }
            b.append(sorted.get(i));
            if (j > i) {
                b.append(j == i + 1 ? ", " : "-").append(sorted.get(j));
            }
            i = j + 1;
        }
        return b.toString();
    }

    static String cap(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
