package org.fabricscope.model.pairwise;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

import org.fabricscope.model.core.NaturalOrder;

/**
 * The pairwise results of one test ({@code ib_write_bw}, {@code ib_send_lat}, {@code all_reduce_perf}) as
 * a symmetric matrix: its nodes in natural order, a cell per measured pair ({@link PairCell}), the best
 * value, and the {@link PairVerdict}. Runs of different tests are never mixed (a bidirectional run
 * moves twice the bytes; read and write differ), so one load may give several matrices
 * ({@link PairMatrices}). Immutable.
 */
public final class PairMatrix {
    private final PairKind kind;
    private final String test;
    private final List<String> nodes;
    private final List<PairCell> cells;
    private final Map<String, PairCell> byPair = new HashMap<>();
    private final Map<String, List<PairCell>> byNode = new HashMap<>();
    private final PairVerdict verdict;

    /** {@code cells}: one per pair (the caller merged several runs of a pair into one). */
    public PairMatrix(PairKind kind, String test, List<PairCell> cells) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.test = test == null ? "" : test;
        TreeSet<String> n = new TreeSet<>(NaturalOrder.INSTANCE);
        List<PairCell> sorted = new ArrayList<>(cells);
        sorted.sort(Comparator.comparing(PairCell::a, NaturalOrder.INSTANCE).thenComparing(PairCell::b, NaturalOrder.INSTANCE));
        for (PairCell c : sorted) {
            if (byPair.putIfAbsent(key(c.a(), c.b()), c) != null) {
                throw new IllegalArgumentException("two cells for " + c.label());
            }
            n.add(c.a());
            n.add(c.b());
            byNode.computeIfAbsent(c.a(), k -> new ArrayList<>()).add(c);
            byNode.computeIfAbsent(c.b(), k -> new ArrayList<>()).add(c);
        }
        this.nodes = List.copyOf(n);
        this.cells = List.copyOf(sorted);
        this.verdict = PairVerdict.judge(this);
    }

    private static String key(String x, String y) {
        return NaturalOrder.INSTANCE.compare(x, y) <= 0 ? x + '\0' + y : y + '\0' + x;
    }

    public PairKind kind() {
        return kind;
    }

    /** The test whose runs these are: {@code ib_write_bw}, {@code ib_write_bw -b}, {@code all_reduce_perf}. */
    public String test() {
        return test;
    }

    /** {@code ib_write_bw (perftest-bw, Gb/s)}. */
    public String title() {
        return test + " (" + kind.id() + ", " + kind.unit() + ")";
    }

    /** Every node of a measured pair, in natural order. */
    public List<String> nodes() {
        return nodes;
    }

    /** The measured pairs, by first then second node. */
    public List<PairCell> cells() {
        return cells;
    }

    /** The cell of two nodes, in either order, or null when they were not measured together. */
    public PairCell cell(String x, String y) {
        return byPair.get(key(x, y));
    }

    /** The pairs {@code node} is part of. */
    public List<PairCell> pairsOf(String node) {
        return Collections.unmodifiableList(byNode.getOrDefault(node, List.of()));
    }

    /** The best value of a pair that did not fail (highest bandwidth, lowest latency); NaN when every pair failed. */
    public double best() {
        return cells.stream().filter(c -> !c.failed()).mapToDouble(PairCell::value)
                .reduce(kind.higherIsBetter() ? Math::max : Math::min).orElse(Double.NaN);
    }

    /** The cell's value as a fraction of the best pair's ({@link PairKind#score}): 1 for the best, 0 for a failed pair. */
    public double fractionOfBest(PairCell c) {
        double b = best();
        return c.failed() || Double.isNaN(b) ? 0 : kind.score(c.value(), b);
    }

    public PairVerdict verdict() {
        return verdict;
    }
}
