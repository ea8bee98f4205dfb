package org.fabricscope.model.pairwise;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.NaturalOrder;
import org.fabricscope.model.forensics.NcclTestDevice;
import org.fabricscope.model.forensics.NcclTestRow;
import org.fabricscope.model.forensics.NcclTestRun;
import org.fabricscope.model.forensics.PerftestRow;
import org.fabricscope.model.forensics.PerftestRun;

/**
 * Every pairwise matrix of a model, one per test, and the runs that could not be placed on a pair.
 * Made from the perftest runs ({@link PairResolver} tells their hosts) and the nccl-tests runs whose
 * ranks are on exactly two hosts. A perftest bandwidth run counts its highest average over its sizes, a
 * latency run its typical latency at its smallest size, an nccl-tests run its peak bus bandwidth over
 * sizes from {@link #NCCL_MIN_BYTES} (as {@code busbw-below-expected} does). Several runs of one pair
 * keep the worst value that was measured (the other runs' lines stay in the evidence); a pair whose every
 * run failed is a failed cell. Computed once per model ({@link #of}); immutable.
 */
public final class PairMatrices {
    /**
     * nccl-tests sizes from 64 MiB up count: below, latency still weighs (the same bound as
     * {@code BusBwCheck.MIN_BYTES}, which this package cannot name without a package cycle; a test keeps them equal).
     */
    public static final long NCCL_MIN_BYTES = 64L << 20;
    public static final PairMatrices EMPTY = new PairMatrices(List.of(), List.of());

    /** A run that is on no pair, and why. */
    public record Unplaced(String test, Evidence at, String reason) {
    }

    private final List<PairMatrix> matrices;
    private final List<Unplaced> unplaced;

    PairMatrices(List<PairMatrix> matrices, List<Unplaced> unplaced) {
        this.matrices = List.copyOf(matrices);
        this.unplaced = List.copyOf(unplaced);
    }

    /** The model's matrices, computed on the first call and kept with the model. */
    public static PairMatrices of(FabricModel model) {
        return model.derived(PairMatrices.class, PairMatrices::compute);
    }

    /** The matrices, most pairs first. */
    public List<PairMatrix> matrices() {
        return matrices;
    }

    /** The perftest runs no evidence placed on two hosts, and the two-host nccl-tests runs with no size to count. */
    public List<Unplaced> unplaced() {
        return unplaced;
    }

    /** No matrix and nothing unplaced: the inputs held no pairwise test. */
    public boolean isEmpty() {
        return matrices.isEmpty() && unplaced.isEmpty();
    }

    /** One measurement of a pair on its way into a cell. */
    private record Measured(PairEnds ends, double value, String what, List<Evidence> lines) {
    }

    private static final class Draft {
        final PairKind kind;
        final String test;
        final Map<List<String>, List<Measured>> pairs = new LinkedHashMap<>();

        Draft(PairKind kind, String test) {
            this.kind = kind;
            this.test = test;
        }

        void add(Measured m) {
            String x = m.ends().a();
            String y = m.ends().b();
            List<String> key = NaturalOrder.INSTANCE.compare(x, y) <= 0 ? List.of(x, y) : List.of(y, x);
            pairs.computeIfAbsent(key, k -> new ArrayList<>()).add(m);
        }

        PairMatrix build() {
            List<PairCell> cells = new ArrayList<>();
            pairs.forEach((key, runs) -> cells.add(cell(key, runs)));
            return new PairMatrix(kind, test, cells);
        }

        private PairCell cell(List<String> key, List<Measured> runs) {
            Measured kept = null;
            for (Measured m : runs) {
                if (!Double.isNaN(m.value()) && (kept == null || Double.isNaN(kept.value())
                        || kind.score(m.value(), kept.value()) < 1)) {
                    kept = m;
                }
            }
            boolean failed = kept == null;
            if (failed) {
                kept = runs.get(0);
            }
            Set<Evidence> ev = new LinkedHashSet<>(kept.lines());
            ev.addAll(kept.ends().evidence());
            for (Measured m : runs) {
                ev.addAll(m.lines());
            }
            return new PairCell(key.get(0), key.get(1), kind, failed ? Double.NaN : kept.value(), failed, kept.what(),
                    kept.ends().how(), runs.size(), new ArrayList<>(ev));
        }
    }

    static PairMatrices compute(FabricModel model) {
        Map<String, Draft> drafts = new LinkedHashMap<>();
        List<Unplaced> unplaced = new ArrayList<>();
        PairResolver resolver = new PairResolver(model);
        for (PerftestRun run : model.forensics().perftests()) {
            PairKind kind = run.measure() == PerftestRun.Measure.LATENCY ? PairKind.PERFTEST_LAT : PairKind.PERFTEST_BW;
            Evidence at = Evidence.at(run.source(), run.line(), run.test());
            if (run.verb().isEmpty()) {
                unplaced.add(new Unplaced(run.test(), run.errors().isEmpty() ? at : run.errors().get(0),
                        "the run stopped before it printed which test it was" + (run.errors().isEmpty() ? ""
                                : ": " + run.errors().get(0).text())));
                continue;
            }
            Measured value = measure(run, kind);
            if (value == null) {
                continue; // a server that printed no result of its own: the client's output has it
            }
            PairResolver.Result where = resolver.resolve(run);
            if (where.ends() == null) {
                unplaced.add(new Unplaced(run.test(), at, where.unknown()));
                continue;
            }
            drafts.computeIfAbsent(kind.id() + " " + run.test(), k -> new Draft(kind, run.test()))
                    .add(new Measured(where.ends(), value.value(), value.what(), value.lines()));
        }
        for (NcclTestRun run : model.forensics().ncclTests()) {
            List<String> hosts = run.devices().stream().map(NcclTestDevice::host).filter(h -> !h.isEmpty()).distinct().toList();
            if (hosts.size() != 2) {
                continue; // one host, or more than two: not a pair test
            }
            Evidence at = Evidence.at(run.source(), run.line(), run.test());
            Optional<NcclTestRow> peak = peakRow(run);
            if (peak.isEmpty()) {
                unplaced.add(new Unplaced(run.test(), at, "no size of 64 MiB or more: below that, bus bandwidth is bound by latency"));
                continue;
            }
            Evidence header = Evidence.at(run.source(), run.line(), run.test() + ": its header's Rank lines place "
                    + run.ranks() + " ranks on " + hosts.get(0) + " and " + hosts.get(1));
            PairEnds ends = new PairEnds(hosts.get(0), hosts.get(1), PairEnds.How.NCCL_TESTS_HEADER, List.of(header));
            drafts.computeIfAbsent(PairKind.NCCL_TESTS_BUSBW.id() + " " + run.test(),
                    k -> new Draft(PairKind.NCCL_TESTS_BUSBW, run.test())).add(new Measured(ends, busBw(peak.get()),
                    "busbw at " + size(peak.get().bytes()), List.of(peak.get().evidence())));
        }
        List<PairMatrix> matrices = new ArrayList<>(drafts.values().stream().map(Draft::build).toList());
        matrices.sort(java.util.Comparator.comparingInt((PairMatrix m) -> -m.cells().size()));
        return matrices.isEmpty() && unplaced.isEmpty() ? EMPTY : new PairMatrices(matrices, unplaced);
    }

    /** The run's value: its best bandwidth row or its smallest latency row; NaN (with the failure lines) when it failed; null when it has neither. */
    private static Measured measure(PerftestRun run, PairKind kind) {
        Optional<PerftestRow> row = kind == PairKind.PERFTEST_BW ? run.bestBandwidth() : run.smallestLatency();
        if (row.isPresent()) {
            PerftestRow r = row.get();
            double v = kind == PairKind.PERFTEST_BW ? r.bandwidth().averageGbps() : r.latency().usual();
            String what = (kind == PairKind.PERFTEST_BW ? "BW average" : Double.isNaN(r.latency().typical()) ? "t_avg" : "t_typical")
                    + " at " + r.bytes() + " B";
            return new Measured(null, v, what, List.of(r.evidence()));
        }
        if (!run.errors().isEmpty()) {
            return new Measured(null, Double.NaN, "failed", run.errors());
        }
        return null;
    }

    /** The row of the peak bus bandwidth over sizes from {@link #NCCL_MIN_BYTES}. */
    static Optional<NcclTestRow> peakRow(NcclTestRun run) {
        NcclTestRow best = null;
        for (NcclTestRow r : run.rows()) {
            if (r.bytes() >= NCCL_MIN_BYTES && (best == null || busBw(r) > busBw(best))) {
                best = r;
            }
        }
        return Optional.ofNullable(best);
    }

    private static double busBw(NcclTestRow r) {
        double a = r.outOfPlace() == null || !Double.isFinite(r.outOfPlace().busBw()) ? 0 : r.outOfPlace().busBw();
        double b = r.inPlace() == null || !Double.isFinite(r.inPlace().busBw()) ? 0 : r.inPlace().busBw();
        return Math.max(a, b);
    }

    static String size(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + " GiB";
        }
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        return String.format(Locale.ROOT, "%d B", bytes);
    }
}
