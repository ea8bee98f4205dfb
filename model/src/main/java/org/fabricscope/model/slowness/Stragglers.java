package org.fabricscope.model.slowness;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.forensics.FlightRecorderAnalysis;
import org.fabricscope.model.ranks.RankMap;
import org.fabricscope.model.ranks.RankSite;

/**
 * The ranks that hold a job back, from every kind of evidence that times them: the flight recorder's
 * enqueue times and kernel durations ({@link FrStragglers}), NCCL Inspector's per-rank summaries
 * ({@link InspectorStragglers}) and the ranks' own step times ({@link StepStragglers}). One answer per model (computed once, kept with the model); each rank at most once,
 * its strongest evidence first (the flight recorder's, then the step times').
 *
 * @param stragglers the ranks found, worst first
 * @param groups     what each compared process group showed, found or not (for "nothing found because...")
 * @param steps      what the step times showed
 */
public record Stragglers(List<Straggler> stragglers, List<FrStragglers.GroupVerdict> groups,
                         StepStragglers.Verdict steps) {
    public Stragglers {
        stragglers = List.copyOf(stragglers);
        groups = List.copyOf(groups);
    }

    /** The model's answer (computed on the first call). */
    public static Stragglers of(FabricModel model) {
        return model.derived(Stragglers.class, Stragglers::compute);
    }

    private static Stragglers compute(FabricModel model) {
        RankMap ranks = RankMap.of(model);
        List<FrStragglers.GroupVerdict> groups = model.forensics().flightRecorder().isEmpty() ? List.of()
                : FrStragglers.analyse(FlightRecorderAnalysis.byRank(model.forensics().flightRecorder()), r -> host(ranks, r));
        StepStragglers.Verdict steps = StepStragglers.analyse(model.trainingLog().stepTimes(), r -> host(ranks, r));
        Map<Integer, Straggler> best = new LinkedHashMap<>();
        List<FrStragglers.GroupVerdict> byWeight = new ArrayList<>(groups);
        byWeight.sort(Comparator.comparingInt(FrStragglers.GroupVerdict::compared).reversed());
        for (FrStragglers.GroupVerdict g : byWeight) {
            for (Straggler s : g.stragglers()) {
                best.putIfAbsent(s.rank(), s);
            }
        }
        for (Straggler s : InspectorStragglers.analyse(model.forensics().inspector(), ranks::worldRankOf)) {
            best.putIfAbsent(s.rank() >= 0 ? s.rank() : -1 - best.size(), s);
        }
        for (Straggler s : steps.stragglers()) {
            best.putIfAbsent(s.rank() >= 0 ? s.rank() : -1 - best.size(), s);
        }
        List<Straggler> out = new ArrayList<>(best.values());
        out.sort(Comparator.comparing((Straggler s) -> !s.confirmed()).thenComparing(Comparator.comparingDouble(Straggler::lateMs).reversed()));
        return new Stragglers(out, groups, steps);
    }

    /** Where a global rank ran (pod or host), null when no log placed it. */
    static String host(RankMap ranks, int rank) {
        RankSite s = ranks.worldSite(rank);
        if (s == null) {
            return null;
        }
        return s.host() != null ? s.host() : s.rank().host();
    }
}
