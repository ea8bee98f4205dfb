package org.fabricscope.model.slowness;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.training.StepTime;

/**
 * Stragglers from the step times the ranks log themselves (the trainers' lines: Megatron-LM, DeepSpeed,
 * Hugging Face, Lightning, torchtitan, plain prints). Each process is one rank when its lines carry a rank
 * tag, else one log (a pod's). A process whose median step is the longest, the longest in at least
 * {@link FrStragglers#WORST_SHARE} of the steps every process logged, and longer than the others' median by
 * {@link FrStragglers#MIN_LATE_MS} and {@link FrStragglers#MIN_STEP_SHARE} of a step is a straggler of kind
 * {@link Straggler.Kind#SLOW_STEPS}. Synchronous data parallel training makes every rank's step as long as the
 * slowest one's when the timer spans the collectives, so this catches what timers before the synchronisation
 * show (compute, data time) and jobs whose ranks do not wait for each other; the flight recorder tells more.
 */
public final class StepStragglers {
    /** Fewest steps each process must have logged. */
    public static final int MIN_STEPS = 5;

    private StepStragglers() {
    }

    /**
     * What the step times showed.
     *
     * @param processes    processes (ranks or logs) that logged step times
     * @param medianStepMs the median step over all of them, NaN when none had a time
     * @param stragglers   what was found
     * @param note         why nothing could be judged, "" when something could
     */
    public record Verdict(int processes, double medianStepMs, List<Straggler> stragglers, String note) {
        public Verdict {
            stragglers = List.copyOf(stragglers);
            note = note == null ? "" : note;
        }
    }

    /** The verdict over the step times read; {@code hostOf} places a rank (null when unknown). */
    public static Verdict analyse(List<StepTime> times, IntFunction<String> hostOf) {
        Map<String, Map<Long, StepTime>> byProcess = new LinkedHashMap<>();
        for (StepTime t : times) {
            if (!Double.isFinite(t.stepMs()) || t.stepMs() <= 0) {
                continue;
            }
            byProcess.computeIfAbsent(key(t), k -> new HashMap<>()).putIfAbsent(t.step(), t);
        }
        double[] all = new double[times.size()];
        int na = 0;
        for (Map<Long, StepTime> m : byProcess.values()) {
            for (StepTime t : m.values()) {
                all[na++] = t.stepMs();
            }
        }
        double median = Medians.of(all, na);
        Map<String, List<String>> byFormat = new LinkedHashMap<>();
        for (Map.Entry<String, Map<Long, StepTime>> e : byProcess.entrySet()) {
            if (e.getValue().size() >= MIN_STEPS && !e.getValue().containsKey(-1L)) {
                byFormat.computeIfAbsent(e.getKey().substring(0, e.getKey().indexOf('|')), f -> new ArrayList<>()).add(e.getKey());
            }
        }
        List<String> keys = byFormat.values().stream().max(java.util.Comparator.comparingInt(List::size)).orElse(List.of());
        if (keys.size() < 2) {
            String note = byProcess.isEmpty() ? "no step times were read"
                    : String.format(Locale.ROOT, "step times of %d process%s with %d or more steps: two are needed to compare",
                    keys.size(), keys.size() == 1 ? "" : "es", MIN_STEPS);
            return new Verdict(byProcess.size(), median, List.of(), note);
        }
        List<Long> common = new ArrayList<>(byProcess.get(keys.get(0)).keySet());
        for (String k : keys) {
            common.retainAll(byProcess.get(k).keySet());
        }
        if (common.size() < MIN_STEPS) {
            return new Verdict(byProcess.size(), median, List.of(), String.format(Locale.ROOT,
                    "%d steps logged by every process (%d needed)", common.size(), MIN_STEPS));
        }
        int[] worst = new int[keys.size()];
        for (long step : common) {
            int w = 0;
            for (int k = 1; k < keys.size(); k++) {
                if (byProcess.get(keys.get(k)).get(step).stepMs() > byProcess.get(keys.get(w)).get(step).stepMs()) {
                    w = k;
                }
            }
            worst[w]++;
        }
        int cand = 0;
        for (int k = 1; k < keys.size(); k++) {
            cand = worst[k] > worst[cand] ? k : cand;
        }
        double[] meds = new double[keys.size()];
        for (int k = 0; k < keys.size(); k++) {
            meds[k] = medianOf(byProcess.get(keys.get(k)), common);
        }
        double[] others = new double[keys.size() - 1];
        int no = 0;
        for (int k = 0; k < keys.size(); k++) {
            if (k != cand) {
                others[no++] = meds[k];
            }
        }
        double othersMedian = Medians.of(others, no);
        double late = meds[cand] - othersMedian;
        List<Straggler> found = new ArrayList<>();
        if (worst[cand] >= FrStragglers.WORST_SHARE * common.size() && late >= FrStragglers.MIN_LATE_MS
                && late >= FrStragglers.MIN_STEP_SHARE * othersMedian) {
            Map<Long, StepTime> mine = byProcess.get(keys.get(cand));
            StepTime sample = mine.get(common.get(common.size() / 2));
            String host = sample.rank() >= 0 && hostOf.apply(sample.rank()) != null ? hostOf.apply(sample.rank()) : sample.host();
            List<Evidence> ev = new ArrayList<>();
            ev.add(sample.evidence());
            for (int k = 0; k < keys.size() && ev.size() < 4; k++) {
                if (k != cand) {
                    ev.add(byProcess.get(keys.get(k)).get(sample.step()).evidence());
                }
            }
            String basis = String.format(Locale.ROOT, "step times of %d processes over %d steps (%s lines)", keys.size(),
                    common.size(), sample.format());
            found.add(new Straggler(sample.rank(), host, "", Straggler.Kind.SLOW_STEPS, common.size(), worst[cand], "steps", late,
                    othersMedian, 1, Double.NaN, true, true, basis, ev));
        }
        return new Verdict(byProcess.size(), median, found, "");
    }

    /**
     * One process's series: its rank, else its log and local rank; per line format, since one trainer prints
     * different timers on different ranks (Megatron-LM's iteration line on the last rank only, its
     * forward-backward timer on each).
     */
    private static String key(StepTime t) {
        String who = t.rank() >= 0 ? "rank " + t.rank() : t.source() + (t.localRank() >= 0 ? "#" + t.localRank() : "");
        return t.format() + "|" + who;
    }

    private static double medianOf(Map<Long, StepTime> m, List<Long> steps) {
        double[] v = new double[steps.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = m.get(steps.get(i)).stepMs();
        }
        return Medians.of(v, v.length);
    }
}
