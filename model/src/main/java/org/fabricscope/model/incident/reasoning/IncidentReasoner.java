package org.fabricscope.model.incident.reasoning;

import org.fabricscope.model.core.Plural;
import org.fabricscope.model.incident.CauseClass;
import org.fabricscope.model.incident.Role;
import org.fabricscope.model.incident.SignatureCatalogue;
import org.fabricscope.model.incident.Stamp;
import org.fabricscope.model.incident.Stamps;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.ranks.RankMap;

/**
 * Finds which failure came first. The root cause is the earliest cause-role event (an ERROR before any
 * WARNING), by the lines' own stamps; stamps of different nodes within {@link Stamp#SKEW_MS} of each other
 * are taken as simultaneous, and so is a line whose only time is one it took from an earlier line of its
 * file (a lower bound, {@link org.fabricscope.model.incident.Stamp#inferred}) and any event after that time. The
 * tie is broken by the causal rules, then by a line's own time over an inferred one:
 * <ul>
 * <li>a consequence that points at a peer ({@code remote process exited}, {@code connection reset},
 *     {@code closed by remote peer}) puts that peer before whoever reported it: a cause on the reporter
 *     that follows such a report is never the root;</li>
 * <li>a party that peers report gone while its own log has no failure died without a word: killed
 *     from outside (SIGKILL, the OOM killer, node loss). The reasoning adds a {@code fabricscope.silent-death}
 *     event for it;</li>
 * <li>without any cause, the ranks that never reported a collective's timeout while the others did are
 *     the ones that never joined ({@code fabricscope.rank-never-joined}).</li>
 * </ul>
 * Of causes on one party close in time, the specific one (GPU memory, the OOM killer, a GPU fault...) is
 * preferred over a generic one (a process that died, an internal error). Every consequence is linked to
 * the cause it follows: its blamed party's first cause, else the root cause.
 */
public final class IncidentReasoner {
    /** How far a specific cause on the same party may lie from a generic one and still explain it. */
    static final long EXPLAINS_MS = 120_000;
    private static final Set<CauseClass> GENERIC = Set.of(CauseClass.DEAD_RANK, CauseClass.INTERNAL,
            CauseClass.COLLECTIVE_HANG, CauseClass.APPLICATION);

    private IncidentReasoner() {
    }

    /** The incident of a model's inputs, with the active catalogue. */
    public static Incident reason(FabricModel model) {
        return reason(model, SignatureCatalogue::active, RankMap.of(model));
    }

    /** The incident of a model's inputs, reasoned once per model and kept beside it (checks, flows and views ask this). */
    public static Incident of(FabricModel model) {
        return model.derived(IncidentReasoner.class, IncidentReasoner::reason);
    }

    public static Incident reason(FabricModel model, SignatureCatalogue catalogue, RankMap ranks) {
        return reason(model, () -> catalogue, ranks);
    }

    private static Incident reason(FabricModel model, java.util.function.Supplier<SignatureCatalogue> catalogue, RankMap ranks) {
        Places places = new Places(model, ranks);
        List<IncidentEvent> events = IncidentEvents.collect(model, catalogue, places);
        List<String> notes = new ArrayList<>();
        events = inYear(events);
        long unstamped = events.stream().filter(e -> !e.stamp().known()).count();
        if (unstamped > 0 && unstamped < events.size()) {
            notes.add(Plural.of(unstamped, "event") + (unstamped == 1 ? " carries" : " carry") + " no time: placed by their line's order in their file");
        } else if (unstamped > 0) {
            notes.add("no event carries a time: the order follows the causal rules and the order of lines in each file");
        }
        IncidentEvent root = root(events, places, notes);
        if (root != null && root.seq() >= events.size()) {
            events = new ArrayList<>(events);
            events.add(root);
        } else if (root != null && events.get(root.seq()) != root) { // the root took another's party: show it so
            events = new ArrayList<>(events);
            events.set(root.seq(), root);
        }
        events = new ArrayList<>(events);
        events.sort(ORDER);
        Map<Integer, Integer> causeOf = link(events, root);
        return new Incident(events, root, causeOf, notes);
    }

    /** Known stamps first by time, then by the order read; events without a stamp after them in that order. */
    static final Comparator<IncidentEvent> ORDER = (a, b) -> {
        boolean ka = a.stamp().known();
        boolean kb = b.stamp().known();
        if (ka && kb && a.stamp().millis() != b.stamp().millis()) {
            return Long.compare(a.stamp().millis(), b.stamp().millis());
        }
        if (ka != kb) {
            return ka ? -1 : 1;
        }
        return Integer.compare(a.seq(), b.seq());
    };

    /** Stamps without a year placed in the most common year of those with one (the current year when none has one). */
    private static List<IncidentEvent> inYear(List<IncidentEvent> events) {
        Map<Integer, Integer> years = new HashMap<>();
        boolean yearless = false;
        for (IncidentEvent e : events) {
            if (e.stamp().known() && e.stamp().yearKnown()) {
                years.merge(e.stamp().year(), 1, Integer::sum);
            }
            yearless |= e.stamp().known() && !e.stamp().yearKnown();
        }
        if (!yearless) {
            return events;
        }
        int year = years.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
                .orElse(java.time.Year.now(java.time.ZoneOffset.UTC).getValue());
        List<IncidentEvent> out = new ArrayList<>(events.size());
        for (IncidentEvent e : events) {
            out.add(e.stamp().yearKnown() || !e.stamp().known() ? e : with(e, e.stamp().inYear(year)));
        }
        return out;
    }

    private static IncidentEvent with(IncidentEvent e, Stamp s) {
        return new IncidentEvent(e.seq(), e.id(), e.title(), e.role(), e.causeClass(), e.severity(), s, e.who(), e.blamed(),
                e.fields(), e.remedies(), e.evidence(), e.origin());
    }

    private static boolean failure(IncidentEvent e) {
        return e.severity() != Severity.INFO;
    }

    /**
     * Whether {@code a} happened before {@code b} beyond doubt: both stamped, apart by more than the skew (or in one
     * lane). An inferred stamp is a lower bound (the line was printed then or later), so it can only come after.
     */
    static int before(IncidentEvent a, IncidentEvent b) {
        if (!a.stamp().known() || !b.stamp().known()) {
            return 0;
        }
        long d = b.stamp().millis() - a.stamp().millis();
        long tolerance = a.who().lane().equals(b.who().lane()) ? 0 : Stamp.SKEW_MS;
        if (d > tolerance) {
            return a.stamp().inferred() ? 0 : 1;
        }
        return d < -tolerance && !b.stamp().inferred() ? -1 : 0;
    }

    private static IncidentEvent root(List<IncidentEvent> events, Places places, List<String> notes) {
        List<IncidentEvent> causes = events.stream().filter(e -> e.role() == Role.CAUSE && failure(e)).toList();
        List<IncidentEvent> reports = distinctReports(events.stream().filter(e -> e.role() == Role.CONSEQUENCE && failure(e)).toList());
        List<IncidentEvent> pool = causes.stream().filter(e -> e.severity() == Severity.ERROR).toList();
        if (pool.isEmpty()) {
            pool = causes;
        }
        IncidentEvent first = earliest(pool, reports, notes);
        if (first != null) {
            IncidentEvent blamedFirst = blamedBefore(first, reports, causes, events, places, notes);
            IncidentEvent root = specific(blamedFirst, causes);
            if (root.causeClass() == CauseClass.RENDEZVOUS) {
                return missingMember(root, causes, events, places, notes);
            }
            waitedFor(root, causes, notes);
            return root;
        }
        IncidentEvent silent = silentDeath(reports, events, places, notes);
        if (silent != null) {
            return silent;
        }
        return NeverJoined.root(reports, events, places, notes);
    }

    /** The earliest of the pool; ties within the skew go to a party that others blame, then to the order read. */
    private static IncidentEvent earliest(List<IncidentEvent> pool, List<IncidentEvent> reports, List<String> notes) {
        IncidentEvent best = null;
        for (IncidentEvent e : pool) {
            if (best == null) {
                best = e;
                continue;
            }
            int order = before(e, best);
            if (order > 0) {
                best = e;
            } else if (order == 0) {
                boolean eBlamed = blamedBy(e, reports);
                boolean bBlamed = blamedBy(best, reports);
                boolean bothStamped = e.stamp().known() && best.stamp().known();
                if (eBlamed != bBlamed) {
                    best = eBlamed ? e : best;
                } else if (bothStamped && e.stamp().inferred() != best.stamp().inferred()) {
                    // a line's own time over another's lower bound: the inferred one may as well have come later
                    best = e.stamp().inferred() ? best : e;
                } else if (bothStamped && e.stamp().millis() < best.stamp().millis()) {
                    best = e;
                }
            }
        }
        if (best != null) {
            for (IncidentEvent e : pool) {
                if (e != best && !e.who().same(best.who()) && e.stamp().known() && best.stamp().known()
                        && before(e, best) == 0 && !e.who().lane().equals(best.who().lane())) {
                    IncidentEvent bounded = e.stamp().inferred() ? e : best.stamp().inferred() ? best : null;
                    notes.add("the order of " + best.who().label() + "'s " + best.title() + " and " + e.who().label() + "'s "
                            + e.title() + (bounded == null
                            ? " lies within the clock skew tolerated between nodes (" + Stamp.SKEW_MS / 1000 + " s)"
                            : " cannot be told: " + bounded.who().label() + "'s line has no time of its own, and "
                                    + bounded.stamp().clock() + ", the last before it in its file, is only a lower bound"));
                    break;
                }
            }
        }
        return best;
    }

    /**
     * The reports, one per signature, reporter and blamed party (the first of each, in time order): a
     * thousand ranks' same report of one peer weighs no more than one, and costs one comparison.
     */
    private static List<IncidentEvent> distinctReports(List<IncidentEvent> reports) {
        Map<String, IncidentEvent> first = new LinkedHashMap<>();
        for (IncidentEvent r : reports) {
            first.merge(r.id() + "|" + r.who().label() + "|" + r.blamed().label(), r, (a, b) -> ORDER.compare(a, b) <= 0 ? a : b);
        }
        return new ArrayList<>(first.values());
    }

    private static boolean blamedBy(IncidentEvent e, List<IncidentEvent> reports) {
        for (IncidentEvent r : reports) {
            if (!r.blamed().isNobody() && r.blamed().same(e.who()) && !r.who().same(e.who())) {
                return true;
            }
        }
        return false;
    }

    /**
     * A cause whose own party was reported gone by a peer no later than it (within the skew) is not the
     * root: the party the report blames failed first. Its own cause when it has one, else its silent death.
     */
    private static IncidentEvent blamedBefore(IncidentEvent first, List<IncidentEvent> reports, List<IncidentEvent> causes,
                                              List<IncidentEvent> events, Places places, List<String> notes) {
        for (IncidentEvent r : reports) {
            Who p = r.blamed();
            boolean gone = r.causeClass() == CauseClass.DEAD_RANK || r.causeClass() == CauseClass.NETWORK_LINK;
            if (!gone || p.isNobody() || p.same(first.who()) || !r.who().same(first.who()) || before(first, r) > 0) {
                continue;
            }
            if (!first.stamp().known() && r.seq() > first.seq() && r.evidence().source().equals(first.evidence().source())) {
                continue; // the report came after the cause in the same file
            }
            for (IncidentEvent c : causes) {
                if (c.who().same(p)) {
                    return c;
                }
            }
            notes.add(first.who().label() + "'s " + first.title() + " follows " + r.who().label() + "'s report that "
                    + p.label() + " was gone");
            return goneOrLinkLost(r, events, places);
        }
        return first;
    }

    /** Of the causes on the root's party close to it in time, the most specific. */
    private static IncidentEvent specific(IncidentEvent root, List<IncidentEvent> causes) {
        if (!GENERIC.contains(root.causeClass())) {
            return root;
        }
        IncidentEvent best = root;
        for (IncidentEvent c : causes) {
            if (GENERIC.contains(c.causeClass()) || !c.who().same(root.who()) && !sameNode(c, root) && !samePid(c, root)) {
                continue;
            }
            boolean near = !c.stamp().known() || !root.stamp().known()
                    || Math.abs(c.stamp().millis() - root.stamp().millis()) <= EXPLAINS_MS;
            if (near && (best == root || ORDER.compare(c, best) < 0)) {
                best = c;
            }
        }
        if (best != root && best.who().isNobody()) { // the kernel's line names a pid: it is the party the generic cause names
            return new IncidentEvent(best.seq(), best.id(), best.title(), best.role(), best.causeClass(), best.severity(),
                    best.stamp(), root.who(), best.blamed(), best.fields(), best.remedies(), best.evidence(), best.origin());
        }
        return best;
    }

    /** Both name the same process id (a kernel's OOM kill and torchrun's SIGKILL of that pid). */
    private static boolean samePid(IncidentEvent a, IncidentEvent b) {
        String p = a.fields().get("pid");
        return p != null && p.equals(b.fields().get("pid"));
    }

    private static boolean sameNode(IncidentEvent a, IncidentEvent b) {
        return !a.who().node().isEmpty() && a.who().node().equals(b.who().node());
    }

    /** Reports that blame a party with no failure of its own: that party died without a word. */
    private static IncidentEvent silentDeath(List<IncidentEvent> reports, List<IncidentEvent> events, Places places,
                                             List<String> notes) {
        IncidentEvent firstReport = null;
        for (IncidentEvent r : reports) {
            boolean gone = r.causeClass() == CauseClass.DEAD_RANK || r.causeClass() == CauseClass.NETWORK_LINK;
            if (gone && !r.blamed().isNobody() && !r.blamed().same(r.who())
                    && (firstReport == null || ORDER.compare(r, firstReport) < 0)) {
                firstReport = r;
            }
        }
        if (firstReport != null) {
            return goneOrLinkLost(firstReport, events, places);
        }
        // reports of a peer gone that name nobody: the known ranks that said nothing of a failure are the dead
        List<IncidentEvent> peerGone = reports.stream().filter(r -> r.causeClass() == CauseClass.DEAD_RANK
                || r.causeClass() == CauseClass.NETWORK_LINK).toList();
        if (peerGone.isEmpty()) {
            return null;
        }
        List<Integer> quiet = quietRanks(events, places);
        if (quiet.size() == 1) {
            IncidentEvent r = peerGone.stream().min(ORDER).orElseThrow();
            return InferredEvents.silent(events.size(), places.complete(Who.NOBODY.withRank(quiet.get(0))), r);
        }
        if (quiet.size() > 1) {
            notes.add("peers report a process gone without naming it; ranks " + quiet + " printed no failure");
        }
        return null;
    }

    /** The world ranks that printed no failure of any kind. */
    private static List<Integer> quietRanks(List<IncidentEvent> events, Places places) {
        List<Integer> out = new ArrayList<>();
        for (int rank : places.worldRanks()) {
            boolean said = events.stream().anyMatch(e -> e.who().rank() == rank && failure(e));
            if (!said) {
                out.add(rank);
            }
        }
        return out;
    }

    /**
     * What a report that a peer is gone means: the peer died without a word, or, when the peer was still
     * printing after the report (beyond the skew), the connection between them broke.
     */
    private static IncidentEvent goneOrLinkLost(IncidentEvent report, List<IncidentEvent> events, Places places) {
        Who peer = report.blamed();
        IncidentEvent later = events.stream().filter(e -> e.who().same(peer) && before(report, e) > 0).findFirst().orElse(null);
        Stamp seen = places.lastSeen(peer);
        boolean alive = later != null || seen.known() && report.stamp().known() && seen.millis() > report.stamp().millis() + Stamp.SKEW_MS;
        return alive ? InferredEvents.linkLost(events.size(), report, later != null ? later.stamp() : seen) : InferredEvents.silent(events.size(), peer, report);
    }


    /**
     * A rendezvous that never completed names the member that did not come: a member whose own failure
     * kept it out (it could not reach or resolve the store: a cause of another class on another party) is
     * the root; else the one member whose log says nothing or whose pod is Pending, when there is one.
     */
    private static IncidentEvent missingMember(IncidentEvent root, List<IncidentEvent> causes, List<IncidentEvent> events,
                                               Places places, List<String> notes) {
        IncidentEvent member = null;
        for (IncidentEvent c : causes) {
            if (c.causeClass() != CauseClass.RENDEZVOUS && !c.who().same(root.who()) && !c.who().isNobody()
                    && (!c.stamp().known() || !root.stamp().known()
                    || Math.abs(c.stamp().millis() - root.stamp().millis()) <= EXPLAINS_MS)
                    && (member == null || ORDER.compare(c, member) < 0)) {
                member = c;
            }
        }
        if (member != null) {
            notes.add(root.who().label() + "'s " + root.title() + " waited for " + member.who().label()
                    + ", which failed to join: " + member.title());
            return member;
        }
        List<Who> quiet = places.quietParties(events, root.who());
        if (quiet.size() != 1) {
            if (quiet.size() > 1) {
                notes.add("the rendezvous never completed; members that said nothing: "
                        + quiet.stream().map(Who::label).toList());
            } else {
                notes.add("the rendezvous never completed, and no input names the member that never joined (it printed"
                        + " nothing that was loaded): " + root.who().label() + " only waited for it; load the job's pods"
                        + " (kubectl get pods -o json) or the missing member's log to name it");
            }
            return root;
        }
        Who who = quiet.get(0);
        String phase = places.podPhase(who);
        Map<String, String> f = new LinkedHashMap<>(root.fields());
        if (!phase.isEmpty()) {
            f.put("phase", phase);
        }
        return new IncidentEvent(events.size(), "fabricscope.rendezvous-member-missing", "never joined the rendezvous"
                + (phase.isEmpty() ? "" : " (its pod is " + phase + ")") + ": " + root.who().label() + " reports " + root.title(),
                Role.CAUSE, CauseClass.RENDEZVOUS, Severity.ERROR, root.stamp(), who, Who.NOBODY, f, List.of(
                        "Find why " + who.label() + " never reached the rendezvous: did its process start (its log, kubectl get"
                                + " pod, its events: Pending, image pull, scheduling), and does it reach MASTER_ADDR:MASTER_PORT?",
                        "Every member must start within the rendezvous timeout: a member scheduled late or crash-looping keeps"
                                + " the others waiting until they time out."),
                root.evidence(), "FabricScope: the one member of a rendezvous that never completed whose log says nothing");
    }

    /**
     * A rendezvous on another party that timed out close to the root (a store that waited for its members) waited for
     * the root's party: said in a note, as {@link #missingMember} says it when the rendezvous comes first.
     */
    private static void waitedFor(IncidentEvent root, List<IncidentEvent> causes, List<String> notes) {
        for (IncidentEvent c : causes) {
            if (c.causeClass() == CauseClass.RENDEZVOUS && !c.who().same(root.who()) && !c.who().isNobody()
                    && !root.who().isNobody() && (!c.stamp().known() || !root.stamp().known()
                    || Math.abs(c.stamp().millis() - root.stamp().millis()) <= EXPLAINS_MS)) {
                notes.add(c.who().label() + "'s " + c.title() + " waited for " + root.who().label() + ", which failed to join: "
                        + root.title());
                return;
            }
        }
    }

    /** Each consequence's cause: the first cause of the party it blames, else the root cause when it came first. */
    private static Map<Integer, Integer> link(List<IncidentEvent> events, IncidentEvent root) {
        Map<Integer, Integer> out = new HashMap<>();
        if (root == null) {
            return out;
        }
        Map<String, java.util.Optional<IncidentEvent>> firstCause = new HashMap<>();
        for (IncidentEvent e : events) {
            if (e == root || e.seq() == root.seq() || e.role() == Role.CONTEXT) {
                continue;
            }
            boolean consequence = e.role() == Role.CONSEQUENCE || !e.who().same(root.who()) && before(root, e) >= 0
                    && e.role() == Role.CAUSE && GENERIC.contains(e.causeClass());
            if (!consequence) {
                continue;
            }
            IncidentEvent cause = root;
            if (!e.blamed().isNobody()) {
                // the blamed party's first cause, looked up once per party (a thousand ranks report the same peer)
                IncidentEvent c = firstCause.computeIfAbsent(e.blamed().label(), k -> events.stream()
                        .filter(x -> x.role() == Role.CAUSE && x.who().same(e.blamed())).findFirst()).orElse(null);
                if (c != null && c != e && before(e, c) <= 0) {
                    cause = c;
                }
            }
            if (before(e, cause) <= 0) {
                out.put(e.seq(), cause.seq());
            }
        }
        return out;
    }
}
