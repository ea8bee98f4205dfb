package org.fabricscope.importers.forensics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.fabricscope.importers.core.ImportState;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.forensics.FlightRecorderAnalysis;
import org.fabricscope.model.forensics.FlightRecorderDump;
import org.fabricscope.model.forensics.FrProcessGroup;

/**
 * The flight recorder dumps of one import, judged together once all are read: which job they are of, and
 * which dump stands for each rank. The job is the default process group ({@code default_pg}, else the
 * group named {@code 0}) that most dumps list with the same members (the first dump's on a tie); a dump
 * whose default group has other members is another job's, and a dump whose rank is not a member of the
 * job's default group is from outside it: both are named and left out, so they cannot stand for a rank of
 * the job. Two dumps of one rank are both kept, with a warning naming both: the analysis uses the one
 * whose entries reach furthest (the highest record id), the later file on a tie
 * ({@link FlightRecorderAnalysis#byRank}). Dumps are added to the model in file order.
 */
final class FlightRecorderJob implements ImportState {
    private final List<FlightRecorderDump> dumps = new ArrayList<>();

    /** A dump read (in file order). */
    void offer(FlightRecorderDump dump) {
        dumps.add(dump);
    }

    @Override
    public void applyTo(FabricModelBuilder builder) {
        List<Integer> job = jobMembers();
        Set<Integer> members = job == null ? Set.of() : new java.util.HashSet<>(job);
        int agreeing = 0;
        for (FlightRecorderDump d : dumps) {
            if (job != null && job.equals(defaultMembers(d))) {
                agreeing++;
            }
        }
        List<FlightRecorderDump> kept = new ArrayList<>();
        for (FlightRecorderDump d : dumps) {
            List<Integer> own = defaultMembers(d);
            if (job != null && own != null && !own.equals(job)) {
                builder.diagnostic(Diagnostic.error(d.source(), 0, "flight recorder dump of another job: its default "
                        + "process group has " + own.size() + " ranks " + ranks(own) + ", that of " + agreeing + " other dump"
                        + (agreeing == 1 ? "" : "s") + " " + job.size() + " ranks " + ranks(job) + "; left out"));
                continue;
            }
            if (job != null && d.rank() >= 0 && !members.contains(d.rank())) {
                builder.diagnostic(Diagnostic.error(d.source(), 0, "flight recorder dump of rank " + d.rank()
                        + ", which is not a member of the job's default process group (" + job.size() + " ranks "
                        + ranks(job) + "); left out"));
                continue;
            }
            kept.add(d);
        }
        sameRank(kept, builder);
        kept.forEach(builder.forensics()::flightRecorder);
    }

    /** Warns of each rank with several dumps, naming them and the one the analysis uses. */
    private static void sameRank(List<FlightRecorderDump> kept, FabricModelBuilder builder) {
        Map<Integer, List<FlightRecorderDump>> byRank = new TreeMap<>();
        for (FlightRecorderDump d : kept) {
            if (d.rank() >= 0) {
                byRank.computeIfAbsent(d.rank(), r -> new ArrayList<>()).add(d);
            }
        }
        for (var e : byRank.entrySet()) {
            List<FlightRecorderDump> same = e.getValue();
            if (same.size() < 2) {
                continue;
            }
            FlightRecorderDump used = FlightRecorderAnalysis.byRank(same).get(e.getKey());
            for (FlightRecorderDump d : same) {
                if (d != used) {
                    builder.diagnostic(Diagnostic.warning(d.source(), 0, "flight recorder dump of rank " + e.getKey()
                            + ", as is " + used.source() + ": the analysis uses " + used.source() + " (of two dumps of a "
                            + "rank, the one whose entries reach the higher record id, " + used.entryTable().maxRecordId()
                            + " against " + d.entryTable().maxRecordId() + "; the later file on a tie)"));
                }
            }
        }
    }

    /** The default group's members that most dumps list (the first dump's on a tie), or null when none lists one. */
    private List<Integer> jobMembers() {
        Map<List<Integer>, Integer> count = new LinkedHashMap<>();
        for (FlightRecorderDump d : dumps) {
            List<Integer> m = defaultMembers(d);
            if (m != null) {
                count.merge(m, 1, Integer::sum);
            }
        }
        List<Integer> best = null;
        int most = 0;
        for (var e : count.entrySet()) {
            if (e.getValue() > most) {
                best = e.getKey();
                most = e.getValue();
            }
        }
        return best;
    }

    /** The members of a dump's default group ({@code default_pg}, else the group named {@code 0}); null when it lists none. */
    static List<Integer> defaultMembers(FlightRecorderDump d) {
        FrProcessGroup found = null;
        for (FrProcessGroup g : d.processGroups().values()) {
            if (g.desc().equals("default_pg")) {
                found = g;
                break;
            }
        }
        if (found == null) {
            found = d.processGroups().get("0");
        }
        return found == null || found.ranks().isEmpty() ? null : found.ranks();
    }

    /** {@code [0 - 1023]} for a run, else the first few. */
    private static String ranks(List<Integer> r) {
        boolean run = true;
        for (int i = 1; i < r.size() && run; i++) {
            run = r.get(i) == r.get(i - 1) + 1;
        }
        if (run && r.size() > 2) {
            return "[" + r.get(0) + " - " + r.get(r.size() - 1) + "]";
        }
        return r.size() <= 8 ? r.toString() : r.subList(0, 8).toString().replace("]", ", ...]");
    }
}
