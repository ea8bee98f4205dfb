package org.fabricscope.model.training;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.incident.Stamp;
import org.fabricscope.model.incident.Stamps;
import org.fabricscope.model.incident.TimeoutWindow;
import org.fabricscope.model.training.TrainingChecks.RankPlaces;

/**
 * The {@code nccl-timeout} check of {@link TrainingChecks}: a collective that timed out, with the rank
 * that lagged behind the others and where it ran.
 */
final class TimeoutCheck {
    private TimeoutCheck() {
    }

    /**
     * The progress reports of the process group whose collective timed out: sequence numbers count per group, so a
     * healthy rank's report of another group (a lower count) must not name it. The group is the timeout's own, else
     * that of its rank's report at the same work; reports that name no group are kept. A group is its
     * {@code pgGuid} (2.5+, the same on every rank), else its {@code pgId}.
     */
    private static List<NcclEvent> sameGroup(List<NcclEvent> progress, NcclEvent first) {
        String pg = group(first);
        if (pg == null) {
            pg = progress.stream().filter(e -> e.rank() == first.rank() && group(e) != null
                    && java.util.Objects.equals(e.field("atWork"), first.field("seqNum")))
                    .map(TimeoutCheck::group).findFirst().orElse(null);
        }
        if (pg == null) {
            return progress;
        }
        String g = pg;
        return progress.stream().filter(e -> group(e) == null || g.equals(group(e))).toList();
    }

    private static String group(NcclEvent e) {
        String guid = e.field("pgGuid");
        return guid != null ? guid : e.field("pgId");
    }

    /**
     * {@code nccl-timeout}: the PyTorch watchdog fired on a collective; names the rank that lagged (the
     * lowest last enqueued work, then the lowest last completed, else the lowest SeqNum) and where it ran.
     */
    /**
     * The timeout that fired first by its line's own stamp (files are read in any order, and a rank whose
     * collective of another group timed out later may come first); the first read when none is stamped.
     */
    static NcclEvent earliest(List<NcclEvent> fired) {
        NcclEvent best = fired.get(0);
        Stamp bestAt = Stamp.NONE;
        for (NcclEvent e : fired) {
            Stamp s = Stamps.of(e.evidence().text());
            if (!bestAt.known() ? s.known() : TimeoutWindow.comparable(bestAt, s) && s.millis() < bestAt.millis()) {
                best = e;
                bestAt = s;
            }
        }
        return best;
    }

    static void timeouts(TrainingLog log, RankPlaces places, List<Finding> out) {
        // One timeout per rank, SeqNum and run time: the watchdog line and its "terminated with exception" repeat it,
        // the first without its group's prefix ("[Rank 0] Watchdog caught"), the repeat with it ("[PG ID 1 ...]"); the
        // run time in milliseconds tells two groups' timeouts at one SeqNum apart
        Map<String, NcclEvent> firedByKey = new LinkedHashMap<>();
        List<NcclEvent> progress = new ArrayList<>();
        for (NcclEvent e : log.events()) {
            if (e.kind() == NcclEvent.Kind.WATCHDOG_TIMEOUT) {
                firedByKey.putIfAbsent(e.rank() + "/" + e.field("seqNum") + "/" + e.field("ranForMs"), e);
            } else if (e.field("lastEnqueued") != null && e.rank() >= 0) {
                progress.add(e);
            }
        }
        if (firedByKey.isEmpty()) {
            return;
        }
        List<NcclEvent> fired = new ArrayList<>(firedByKey.values());
        NcclEvent first = earliest(fired);
        List<NcclEvent> allProgress = progress;
        progress = sameGroup(progress, first);
        Laggard lag = laggard(log, first, fired, progress, allProgress);
        List<Evidence> ev = new ArrayList<>();
        fired.stream().limit(5).forEach(e -> ev.add(e.evidence()));
        if (lag.report() != null && lag.report().kind() != NcclEvent.Kind.WATCHDOG_TIMEOUT) {
            ev.add(lag.report().evidence());
        }
        String where = whereIs(log, lag.rank(), lag.report() != null ? lag.report() : first);
        Rank lagRank = log.worldRank(lag.rank()).orElse(null);
        if (lagRank != null) {
            ev.add(lagRank.evidence());
        }
        StringBuilder op = new StringBuilder(first.field("opType") + " (SeqNum " + first.field("seqNum"));
        if (first.field("numelIn") != null) {
            op.append(", NumelIn ").append(first.field("numelIn")).append(", NumelOut ").append(first.field("numelOut"));
        }
        op.append(", Timeout ").append(first.field("timeoutMs")).append(" ms)");
        // The lagging rank is the first subject: the rank join (TrainingLogCheck) looks it up by its keys.
        List<Subject> subjects = new ArrayList<>();
        subjects.add(rankRef(log, lag.rank(), lag.report() != null ? lag.report().host() : "", "rank " + lag.rank()
                + (lag.behind() ? " lagged" : "") + (where.isEmpty() ? "" : " on " + where)
                + ": " + lag.why()));
        for (NcclEvent e : fired) {
            if (subjects.size() >= 20) {
                break;
            }
            subjects.add(rankRef(log, e, "rank " + e.rank() + " watchdog fired on " + e.field("opType") + " SeqNum "
                    + e.field("seqNum") + " after " + e.field("ranForMs") + " ms"));
        }
        String place = places.place(lag.rank());
        out.add(new Finding("nccl-timeout", Severity.ERROR,
                "NCCL collective timed out: rank " + first.rank() + "'s watchdog fired on " + op + " after "
                        + first.field("ranForMs") + " ms; " + (lag.behind() ? "rank " + lag.rank() + " lagged"
                        + (place != null ? " " + place : where.isEmpty() ? "" : " (" + where + ")")
                        : "no rank was behind: every rank that reported had issued it"),
                subjects, ev,
                List.of(lag.behind() ? "Look at rank " + lag.rank() + (where.isEmpty() ? "" : " (" + where + ")")
                                + " first: its pod, its node, and the HCA and leaf port it uses (error counters, link state)."
                                : "No rank held the collective up by not calling it: look for what differs between the"
                                + " ranks (NCCL_* settings, library versions), for a rank whose log is missing from those"
                                + " loaded, and at the transport the collective hung in (rank " + lag.rank()
                                + (where.isEmpty() ? "" : ", " + where) + ", is the lowest report: its HCA and leaf port).",
                        "Raise the IB transport timeout and retries: NCCL_IB_TIMEOUT=23 (default 22) and NCCL_IB_RETRY_CNT=10.",
                        "Check connectivity between the nodes and the state of the RDMA devices (ibv_devinfo: PORT_ACTIVE).")));
    }

    /**
     * Where a PyTorch rank ran, in words: the host (in Kubernetes the pod) and RDMA devices of the
     * NCCL rank with that number, else the host of a torchrun failure entry for it, else the log
     * source its line came from (a pod's log stream is named after the pod).
     */
    static String whereIs(TrainingLog log, int rank, NcclEvent e) {
        Rank r = log.worldRank(rank).orElse(null);
        if (r != null) {
            List<String> rdma = r.rdmaDevices();
            return "host " + r.host() + (rdma.isEmpty() ? "" : ", HCA " + String.join(" ", rdma));
        }
        for (NcclEvent x : log.events()) {
            if (x.kind() == NcclEvent.Kind.CHILD_FAILED && x.rank() == rank && x.field("host") != null) {
                return "host " + x.field("host");
            }
        }
        return e.evidence().source().isEmpty() ? "" : "log " + e.evidence().source();
    }

    /** A PyTorch or NCCL rank named by an event: its communicator when the world rank is known. */
    private static Subject rankRef(TrainingLog log, NcclEvent e, String label) {
        return rankRef(log, e.rank(), e.host(), label);
    }

    private static Subject rankRef(TrainingLog log, int rank, String host, String label) {
        Rank r = rank < 0 ? null : log.worldRank(rank).orElse(null);
        return new Subject.RankRef(r == null ? "" : r.commId(), rank, r == null ? host : r.host(), label);
    }

    /**
     * The rank that lagged, the report that shows it (null for a rank that said nothing), and why, in words.
     * {@code behind} is false when no report shows any rank behind the others (every rank that reported had issued
     * the collective): then {@code rank} is only the rank to start from, and the finding's words say so.
     */
    record Laggard(int rank, NcclEvent report, String why, boolean behind) {
    }

    /**
     * The rank that lagged: of the reports made in time, the lowest last enqueued work (it never issued the collective
     * the others wait on), then the lowest last completed. When every rank that reported in time had issued it: a rank
     * whose every report came after the timeout period (it came late, {@link TimeoutWindow}), else a rank of the job
     * that reported nothing at all (it never got there). Without progress lines, the lowest SeqNum a watchdog fired on.
     */
    static Laggard laggard(TrainingLog log, NcclEvent first, List<NcclEvent> fired, List<NcclEvent> progress,
                           List<NcclEvent> allProgress) {
        TimeoutWindow window = TimeoutWindow.of(Stamps.of(first.evidence().text()), first.field("timeoutMs"));
        Map<Integer, NcclEvent> lateFirst = new TreeMap<>();
        Set<Integer> timely = new HashSet<>();
        List<NcclEvent> onTime = new ArrayList<>();
        for (NcclEvent e : progress) {
            onTime(e, window, lateFirst, timely, onTime);
        }
        for (NcclEvent e : fired) {
            onTime(e, window, lateFirst, timely, null);
        }
        lateFirst.keySet().removeAll(timely);
        NcclEvent lowest = onTime.stream()
                .min(Comparator.comparingLong((NcclEvent e) -> num(e.field("lastEnqueued")))
                        .thenComparingLong(e -> num(e.field("lastCompleted"))))
                .orElse(null);
        long seq = num(first.field("seqNum"));
        boolean allIssued = lowest == null || num(lowest.field("lastEnqueued")) >= seq && seq != Long.MAX_VALUE;
        if (allIssued && !lateFirst.isEmpty()) {
            NcclEvent late = lateFirst.values().iterator().next();
            return new Laggard(late.rank(), late, "it came late: its first report came "
                    + window.secondsAfter(Stamps.of(late.evidence().text())) + " s after rank " + first.rank()
                    + "'s watchdog fired, past the " + window.timeoutMs() + " ms timeout", true);
        }
        if (allIssued && lowest != null) {
            Integer silent = silentRank(log, fired, allProgress);
            if (silent != null) {
                return new Laggard(silent, null, "it reported nothing, while every rank that did had issued SeqNum "
                        + first.field("seqNum") + " (rank " + lowest.rank() + ": last enqueued work " + lowest.field("lastEnqueued")
                        + "): it never reached the collective", true);
            }
        }
        if (lowest != null) {
            return new Laggard(lowest.rank(), lowest, "its last enqueued work is the lowest, " + lowest.field("lastEnqueued")
                    + " (last completed " + lowest.field("lastCompleted") + ")" + (allIssued
                    ? "; but every rank that reported had issued SeqNum " + first.field("seqNum")
                            + ", so none is behind on it: the collective hung inside NCCL, or the rank that never issued it"
                            + " left no log among those loaded" : ""), !allIssued);
        }
        NcclEvent low = fired.stream().min(Comparator.comparingLong(e -> num(e.field("seqNum")))).get();
        // behind only when another watchdog of its group fired on a later collective: SeqNums count per group
        boolean lower = fired.stream().anyMatch(e -> java.util.Objects.equals(group(e), group(low))
                && num(e.field("seqNum")) > num(low.field("seqNum")));
        return new Laggard(low.rank(), low, "its watchdog fired on the lowest SeqNum, " + low.field("seqNum")
                + (lower ? "" : "; every watchdog fired on that SeqNum and no rank printed its progress, so none is"
                        + " seen behind"), lower);
    }

    /**
     * The lowest rank of the job's largest communicator whose own NCCL Init line was read (so its log is loaded) and
     * that printed no report at all; null when none. A rank whose log was not loaded says nothing either, and is not
     * named: the job's size alone ({@code nranks}) would name the first rank nobody gave us.
     */
    private static Integer silentRank(TrainingLog log, List<NcclEvent> fired, List<NcclEvent> allProgress) {
        Rank widest = null;
        for (Rank r : log.ranks()) {
            if (widest == null || r.nranks() > widest.nranks()) {
                widest = r;
            }
        }
        if (widest == null) {
            return null;
        }
        Set<Integer> spoke = new HashSet<>();
        fired.forEach(e -> spoke.add(e.rank()));
        allProgress.forEach(e -> spoke.add(e.rank()));
        Integer silent = null;
        for (Rank r : log.ranks()) {
            if (r.commId().equals(widest.commId()) && !spoke.contains(r.rank()) && (silent == null || r.rank() < silent)) {
                silent = r.rank();
            }
        }
        return silent;
    }

    /** Sorts one report of a rank: late ones kept per rank (the first read), others counted as in time. */
    private static void onTime(NcclEvent e, TimeoutWindow window, Map<Integer, NcclEvent> lateFirst, Set<Integer> timely,
                               List<NcclEvent> onTime) {
        if (e.rank() < 0) {
            return;
        }
        if (window.late(Stamps.of(e.evidence().text()))) {
            lateFirst.putIfAbsent(e.rank(), e);
            return;
        }
        timely.add(e.rank());
        if (onTime != null) {
            onTime.add(e);
        }
    }

    private static long num(String s) {
        try {
            return s == null ? Long.MAX_VALUE : Long.parseLong(s);
        } catch (NumberFormatException x) {
            return Long.MAX_VALUE;
        }
    }
}
