package org.fabricscope.model.slowness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.forensics.FlightRecorderDump;
import org.fabricscope.model.forensics.FrEntries;

/**
 * Stragglers from the flight recorder's timings: per process group and collective sequence number, when
 * each rank enqueued it ({@code time_created_ns}, the host's wall clock when the collective was called) and,
 * with {@code TORCH_NCCL_ENABLE_TIMING=1}, how long its kernel ran ({@code duration_ms}, CUDA events around
 * the NCCL kernel on the rank's stream; PyTorch torch/csrc/distributed/c10d/FlightRecorder.hpp and
 * ProcessGroupNCCL.cpp, 2.1-2.11).
 *
 * <p>A collective ends on every rank at about the same time: it cannot end before the last rank joined.
 * So a rank that calls it late makes the others' kernels wait (their durations grow by its delay) and its
 * own is short; a rank whose GPU is behind (the CPU ran ahead, its kernels queue) calls on time but its
 * kernel starts late, so again the others' durations grow and its own is short; a rank that calls and starts on
 * time while its collectives take longest is slow inside them. The rules, with their thresholds:
 * <ul>
 *   <li>only sequence numbers every compared rank holds count, and at least {@link #MIN_COLLECTIVES} of them
 *       (with two ranks, one of them last in 8 of 8 by chance is 1 in 256);</li>
 *   <li>the rank must be the worst in at least {@link #WORST_SHARE} of them: ordinary jitter moves the last
 *       place around, a straggler holds it;</li>
 *   <li>its median delay must reach {@link #MIN_LATE_MS} and {@link #MIN_STEP_SHARE} of the step: healthy
 *       ranks of one job call a collective within a millisecond or two of each other (Python, the GIL,
 *       launch overheads), and a delay under 5% of a step costs under 5% of the job's speed;</li>
 *   <li>ranks on different hosts are compared across two clocks: the delay is confirmed when a rank on the
 *       same host was on time, or when the others' kernels took at least {@link #WAIT_CONFIRMS} of the delay
 *       longer (they waited for it); otherwise it is reported as unconfirmed, since a clock offset between
 *       hosts reads the same.</li>
 * </ul>
 */
public final class FrStragglers {
    /** Fewest collectives in common for a verdict. */
    public static final int MIN_COLLECTIVES = 8;
    /** Share of the collectives in which the rank must be the worst. */
    public static final double WORST_SHARE = 0.75;
    /** Smallest median delay that counts, in milliseconds. */
    public static final double MIN_LATE_MS = 5;
    /** Smallest median delay that counts, as a share of the step. */
    public static final double MIN_STEP_SHARE = 0.05;
    /** Share of the delay the others' longer kernels must show to confirm it across clocks. */
    public static final double WAIT_CONFIRMS = 0.5;
    /** For {@link Straggler.Kind#SLOW_INSIDE}: its median duration against the others' median. */
    public static final double INSIDE_RATIO = 1.25;
    /** Most rank x sequence number cells compared per process group (about 100 MB of columns). */
    static final long MAX_CELLS = 8_000_000L;

    private FrStragglers() {
    }

    /** What one process group's comparison found, or why it found nothing. */
    public record GroupVerdict(String processGroup, int ranks, int compared, boolean timing, double stepMs,
                               int perStep, List<Straggler> stragglers, String note) {
        public GroupVerdict {
            stragglers = List.copyOf(stragglers);
            note = note == null ? "" : note;
        }
    }

    /**
     * Every process group that two or more dumps recorded collectives of.
     *
     * @param byRank one dump per rank
     * @param hostOf a rank's host, null when unknown
     */
    public static List<GroupVerdict> analyse(Map<Integer, FlightRecorderDump> byRank, IntFunction<String> hostOf) {
        Set<String> groups = new LinkedHashSet<>();
        for (FlightRecorderDump d : byRank.values()) {
            groups.addAll(d.entryTable().processGroupNames());
        }
        List<GroupVerdict> out = new ArrayList<>();
        for (String pg : groups) {
            GroupVerdict v = group(byRank, pg, hostOf);
            if (v != null) {
                out.add(v);
            }
        }
        return out;
    }

    private static GroupVerdict group(Map<Integer, FlightRecorderDump> byRank, String pg, IntFunction<String> hostOf) {
        List<Integer> ranks = new ArrayList<>();
        List<FrEntries> tables = new ArrayList<>();
        List<String> sources = new ArrayList<>();
        List<int[]> entries = new ArrayList<>();
        long lo = Long.MIN_VALUE;
        long hi = Long.MAX_VALUE;
        for (Map.Entry<Integer, FlightRecorderDump> e : byRank.entrySet()) {
            FrEntries t = e.getValue().entryTable();
            int[] idx = t.collectiveEntries(pg);
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            for (int i : idx) {
                if (t.createdNs(i) > 0) {
                    min = Math.min(min, t.collectiveSeqId(i));
                    max = Math.max(max, t.collectiveSeqId(i));
                }
            }
            if (max < 0) {
                continue; // no timed collective of this group in this dump
            }
            ranks.add(e.getKey());
            tables.add(t);
            sources.add(e.getValue().source());
            entries.add(idx);
            lo = Math.max(lo, min);
            hi = Math.min(hi, max);
        }
        int r = ranks.size();
        if (r < 2) {
            return null;
        }
        long span = hi - lo + 1;
        // the columns hold rank x sequence number cells: a dump whose numbers lie far apart (a hostile or broken one)
        // is refused by name rather than given gigabytes (1,024 ranks x 2,000 collectives is 2 million cells)
        if (span < MIN_COLLECTIVES || span > MAX_CELLS / r) {
            String note = span < MIN_COLLECTIVES
                    ? String.format(Locale.ROOT, "%d collectives in common (%d needed)", Math.max(0, span), MIN_COLLECTIVES)
                    : "the ranks' sequence numbers are too far apart to compare";
            return new GroupVerdict(pg, r, (int) Math.max(0, span), false, Double.NaN, 0, List.of(), note);
        }
        return Timings.of(tables, entries, lo, (int) span, sources).verdict(pg, ranks, hostOf);
    }

    /** The compared ranks' times by sequence number (index = seq - lo), and what follows from them. */
    private static final class Timings {
        final long lo;
        final long[][] created;
        final double[][] duration;
        /** The sequence numbers (as indexes) every rank holds. */
        final int[] valid;
        final Object[] signature;
        /** Each compared rank's dump file. */
        final List<String> sources;

        private Timings(long lo, long[][] created, double[][] duration, int[] valid, Object[] signature,
                        List<String> sources) {
            this.lo = lo;
            this.created = created;
            this.duration = duration;
            this.valid = valid;
            this.signature = signature;
            this.sources = sources;
        }

        static Timings of(List<FrEntries> tables, List<int[]> entries, long lo, int n, List<String> sources) {
            int r = tables.size();
            long[][] created = new long[r][n];
            double[][] duration = new double[r][n];
            Object[] signature = new Object[n];
            for (int k = 0; k < r; k++) {
                Arrays.fill(duration[k], -1);
                FrEntries t = tables.get(k);
                for (int i : entries.get(k)) {
                    long s = t.collectiveSeqId(i) - lo;
                    if (s < 0 || s >= n || created[k][(int) s] != 0 || t.createdNs(i) <= 0) {
                        continue;
                    }
                    created[k][(int) s] = t.createdNs(i);
                    duration[k][(int) s] = t.durationMs(i);
                    if (k == 0) {
                        signature[(int) s] = List.of(t.profilingName(i), String.valueOf(t.inputSizes(i)));
                    }
                }
            }
            int[] valid = new int[n];
            int nv = 0;
            for (int s = 0; s < n; s++) {
                boolean all = true;
                for (int k = 0; k < r && all; k++) {
                    all = created[k][s] > 0;
                }
                if (all) {
                    valid[nv++] = s;
                }
            }
            return new Timings(lo, created, duration, Arrays.copyOf(valid, nv), signature, sources);
        }

        GroupVerdict verdict(String pg, List<Integer> ranks, IntFunction<String> hostOf) {
            int r = ranks.size();
            int n = valid.length;
            if (n < MIN_COLLECTIVES) {
                return new GroupVerdict(pg, r, n, false, Double.NaN, 0, List.of(), String.format(Locale.ROOT,
                        "%d collectives held by every rank (%d needed)", n, MIN_COLLECTIVES));
            }
            boolean timing = timed();
            StepPeriod step = StepPeriod.of(valid, signature, s -> medianCreated(s, -1));
            int[] lastCount = new int[r];
            for (int s : valid) {
                lastCount[argExtreme(created, s, true)]++;
            }
            List<Straggler> found = new ArrayList<>();
            int cand = argMax(lastCount);
            double late = medianLate(cand);
            String basis = String.format(Locale.ROOT, "flight recorder dumps of %d ranks, %d collectives of %s compared%s",
                    r, n, pg.isEmpty() ? "the process group" : "process group " + pg,
                    timing ? " (with kernel durations)" : " (enqueue times only: TORCH_NCCL_ENABLE_TIMING was off)");
            // kernel time is compared per step: only the first collective of a step waits for a late rank, the
            // later ones queue behind it on the stream and run short on every rank
            double[][] perStep = timing ? stepSums(Math.max(1, step.perStep())) : new double[0][];
            if (lastCount[cand] >= WORST_SHARE * n && counts(late, step.ms())) {
                double wait = timing ? medianGap(perStep, cand, true) : Double.NaN;
                found.add(straggler(ranks, cand, pg, Straggler.Kind.LATE_TO_ENQUEUE, n, lastCount[cand], "collectives", late,
                        step, wait, hostOf, basis));
            } else if (timing && perStep.length > 0 && perStep[0].length >= MIN_COLLECTIVES) {
                int blocks = perStep[0].length;
                int[] shortest = new int[r];
                int[] longest = new int[r];
                for (int b = 0; b < blocks; b++) {
                    int lo = 0;
                    int hi = 0;
                    for (int k = 1; k < r; k++) {
                        lo = perStep[k][b] < perStep[lo][b] ? k : lo;
                        hi = perStep[k][b] > perStep[hi][b] ? k : hi;
                    }
                    shortest[lo]++;
                    longest[hi]++;
                }
                int gpu = argMax(shortest);
                double wait = medianGap(perStep, gpu, true);
                int inside = argMax(longest);
                double extra = medianGap(perStep, inside, false);
                if (shortest[gpu] >= WORST_SHARE * blocks && counts(wait, step.ms()) && !counts(medianLate(gpu), step.ms())) {
                    found.add(straggler(ranks, gpu, pg, Straggler.Kind.LATE_ON_GPU, blocks, shortest[gpu], "steps", wait, step,
                            wait, hostOf, basis));
                } else if (longest[inside] >= WORST_SHARE * blocks && counts(extra, step.ms())
                        && medianSum(perStep[inside]) >= INSIDE_RATIO * (medianSum(perStep[inside]) - extra)) {
                    found.add(straggler(ranks, inside, pg, Straggler.Kind.SLOW_INSIDE, blocks, longest[inside], "steps", extra,
                            step, Double.NaN, hostOf, basis));
                }
            }
            return new GroupVerdict(pg, r, n, timing, step.ms(), step.perStep(), found, "");
        }

        private Straggler straggler(List<Integer> ranks, int k, String pg, Straggler.Kind kind, int n, int worst,
                                    String counted, double late, StepPeriod step, double wait, IntFunction<String> hostOf,
                                    String basis) {
            String host = hostOf.apply(ranks.get(k));
            boolean sameClock = false;
            for (int j = 0; j < ranks.size() && host != null; j++) {
                sameClock |= j != k && host.equals(hostOf.apply(ranks.get(j)));
            }
            boolean confirmed = sameClock || kind == Straggler.Kind.LATE_ON_GPU || kind == Straggler.Kind.SLOW_INSIDE
                    || (Double.isFinite(wait) && wait >= WAIT_CONFIRMS * late);
            List<Evidence> ev = new ArrayList<>();
            int s = typicalExample(k, kind, late);
            ev.add(Evidence.at(sources.get(k), 0, String.format(Locale.ROOT,
                    "%s, collective %d (%s): rank %d enqueued it %.1f ms after the others' median%s",
                    pg.isEmpty() ? "the process group" : "process group " + pg, lo + s, name(s), ranks.get(k),
                    (created[k][s] - medianCreated(s, k)) / 1e6 + 0.0, // + 0.0: no "-0.0"
                    duration[k][s] >= 0 ? String.format(Locale.ROOT, ", its kernel ran %.1f ms, the others' %.1f ms",
                            duration[k][s], medianOthersDurationAt(s, k)) : "")));
            for (int j = 0; j < sources.size() && ev.size() < 4; j++) {
                if (j != k) {
                    ev.add(Evidence.at(sources.get(j), 0, "rank " + ranks.get(j) + "'s dump"));
                }
            }
            return new Straggler(ranks.get(k), host, pg, kind, n, worst, counted, late, step.ms(), step.perStep(), wait,
                    sameClock, confirmed, basis, ev);
        }

        /**
         * A typical collective to show: the one whose delay is closest to the median {@code late} (an enqueue delay, or
         * the others' longer kernel), so that the example reads like the finding and not like an outlier (the
         * first collectives, say, which include the job's start).
         */
        private int typicalExample(int k, Straggler.Kind kind, double late) {
            int best = valid[valid.length / 2];
            double bestDistance = Double.MAX_VALUE;
            for (int s : valid) {
                double delay = kind == Straggler.Kind.LATE_TO_ENQUEUE ? (created[k][s] - medianCreated(s, k)) / 1e6
                        : duration[k][s] < 0 ? Double.NaN : kind == Straggler.Kind.SLOW_INSIDE
                        ? duration[k][s] - medianOthersDurationAt(s, k) : medianOthersDurationAt(s, k) - duration[k][s];
                double distance = Math.abs(delay - late);
                if (distance < bestDistance) {
                    bestDistance = distance;
                    best = s;
                }
            }
            return best;
        }

        private String name(int s) {
            Object sig = signature[s];
            return sig instanceof List<?> l && !l.isEmpty() ? String.valueOf(l.get(0)) : "?";
        }

        private boolean counts(double lateMs, double stepMs) {
            return Double.isFinite(lateMs) && lateMs >= MIN_LATE_MS
                    && (!Double.isFinite(stepMs) || lateMs >= MIN_STEP_SHARE * stepMs);
        }

        private boolean timed() {
            int timed = 0;
            for (int s : valid) {
                timed += durationsAt(s) ? 1 : 0;
            }
            return timed >= Math.max(MIN_COLLECTIVES, valid.length / 2);
        }

        private boolean durationsAt(int s) {
            for (double[] d : duration) {
                if (!(d[s] >= 0)) {
                    return false;
                }
            }
            return true;
        }

        /** Each sequence index's enqueue times over the ranks, sorted; made on first use (null until then). */
        private long[][] sorted;

        private long[] sortedAt(int s) {
            if (sorted == null) {
                sorted = new long[created[0].length][];
            }
            long[] v = sorted[s];
            if (v == null) {
                v = new long[created.length];
                for (int k = 0; k < created.length; k++) {
                    v[k] = created[k][s];
                }
                Arrays.sort(v);
                sorted[s] = v;
            }
            return v;
        }

        /**
         * The median of the ranks' enqueue times of sequence index s, leaving out rank index {@code except} (-1: none);
         * read off the index's sorted times, so each index is sorted once however often it is asked.
         */
        double medianCreated(int s, int except) {
            long[] v = sortedAt(s);
            int skip = except < 0 ? -1 : Math.max(0, Arrays.binarySearch(v, created[except][s]));
            int m = v.length - (skip >= 0 ? 1 : 0);
            return m % 2 == 1 ? at(v, skip, m / 2) : (at(v, skip, m / 2 - 1) + (double) at(v, skip, m / 2)) / 2;
        }

        /** Element i of {@code v} with index {@code skip} left out. */
        private static long at(long[] v, int skip, int i) {
            return skip < 0 || i < skip ? v[i] : v[i + 1];
        }

        private double medianOthersDurationAt(int s, int except) {
            double[] v = new double[duration.length - 1];
            int m = 0;
            for (int k = 0; k < duration.length; k++) {
                if (k != except) {
                    v[m++] = duration[k][s];
                }
            }
            return Medians.of(v, m);
        }

        /** Median over the valid sequence numbers of how late rank index k enqueued, against the others' median, in ms. */
        private double medianLate(int k) {
            double[] v = new double[valid.length];
            for (int i = 0; i < valid.length; i++) {
                v[i] = (created[k][valid[i]] - medianCreated(valid[i], k)) / 1e6;
            }
            return Medians.of(v, v.length);
        }

        /**
         * Each rank's kernel time per step: sums over consecutive blocks of {@code p} sequence numbers (one step's
         * collectives) that every rank timed; [rank][block].
         */
        private double[][] stepSums(int p) {
            int r = duration.length;
            List<double[]> blocks = new ArrayList<>();
            for (int i = 0; i + p <= valid.length; i += p) {
                if (valid[i + p - 1] - valid[i] != p - 1) {
                    continue; // a gap inside: not one step's collectives
                }
                double[] sums = new double[r];
                boolean all = true;
                for (int j = i; j < i + p && all; j++) {
                    all = durationsAt(valid[j]);
                    for (int k = 0; k < r && all; k++) {
                        sums[k] += duration[k][valid[j]];
                    }
                }
                if (all) {
                    blocks.add(sums);
                }
            }
            double[][] out = new double[r][blocks.size()];
            for (int b = 0; b < blocks.size(); b++) {
                for (int k = 0; k < r; k++) {
                    out[k][b] = blocks.get(b)[k];
                }
            }
            return out;
        }

        /**
         * Median over the steps of how much longer the others' kernel time was than rank index k's ({@code othersMinusOwn}),
         * or how much longer k's was than the others' median (not othersMinusOwn); NaN without steps.
         */
        private static double medianGap(double[][] perStep, int k, boolean othersMinusOwn) {
            if (perStep.length == 0 || perStep[0].length == 0) {
                return Double.NaN;
            }
            int blocks = perStep[0].length;
            double[] gaps = new double[blocks];
            double[] others = new double[perStep.length - 1];
            for (int b = 0; b < blocks; b++) {
                int m = 0;
                for (int j = 0; j < perStep.length; j++) {
                    if (j != k) {
                        others[m++] = perStep[j][b];
                    }
                }
                double o = Medians.of(others, m);
                gaps[b] = othersMinusOwn ? o - perStep[k][b] : perStep[k][b] - o;
            }
            return Medians.of(gaps, blocks);
        }

        private static double medianSum(double[] sums) {
            return Medians.of(sums.clone(), sums.length);
        }

        private static int argExtreme(long[][] values, int s, boolean max) {
            int best = 0;
            for (int k = 1; k < values.length; k++) {
                if (max ? values[k][s] > values[best][s] : values[k][s] < values[best][s]) {
                    best = k;
                }
            }
            return best;
        }

        private static int argMax(int[] counts) {
            int best = 0;
            for (int k = 1; k < counts.length; k++) {
                if (counts[k] > counts[best]) {
                    best = k;
                }
            }
            return best;
        }
    }

}
