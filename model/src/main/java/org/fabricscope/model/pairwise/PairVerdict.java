package org.fabricscope.model.pairwise;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a {@link PairMatrix} says about its nodes, as the bisection over node pairs reads it: a node
 * slow in every pair it is part of is the bad node; one pair slow while both its nodes are fine in their
 * other pairs is a bad link (the path between them). Each judgement compares with the median of the
 * pairs it does not concern, so a fabric of any speed judges itself and one bad node cannot pull the
 * reference down with it.
 *
 * <ul>
 * <li>A node is judged when it has at least {@link #MIN_OWN_PAIRS} pairs (one slow pair alone cannot
 * tell the node from the link or the other end) and there are at least {@link #MIN_REFERENCE_PAIRS}
 * measured pairs without it (one pair is no median). It is slow when every pair of its own is slow
 * against the median of the pairs without it.</li>
 * <li>A pair is a slow link when neither node is slow, both have at least one other pair, all of those
 * are fine, and the pair is slow against the median of the other pairs that involve no slow node (at
 * least {@link #MIN_REFERENCE_PAIRS} of them).</li>
 * <li>Slow is below {@link #BANDWIDTH_FRACTION} of the reference for bandwidths and above
 * {@link #LATENCY_FACTOR} times it for latencies; a pair whose every run failed is slow.</li>
 * </ul>
 */
public record PairVerdict(List<SlowNode> slowNodes, List<SlowLink> slowLinks, List<String> notJudged, boolean tooFew) {
    /**
     * A bandwidth below this fraction of the reference is slow. Healthy pairs of the same HCAs and
     * switches measure within a few percent of each other (perftest's bandwidth is the wire's rate less
     * fixed header costs; nccl-tests bus bandwidth between two hosts of the same kind likewise), while what
     * a bisection hunts costs a quarter or more: a port trained at a lower speed or width (HDR 200 to EDR
     * 100 Gb/s, 4x to 2x or 1x), a NIC's PCIe link down to half its lanes or a generation lower, a NIC on
     * the far socket; 0.75 leaves ordinary spread well clear and catches those.
     */
    public static final double BANDWIDTH_FRACTION = 0.75;
    /**
     * A latency above this multiple of the reference is slow. Latencies spread more than bandwidths
     * between healthy pairs: each switch hop adds a few hundred nanoseconds to about 1-2 us, so a pair
     * across the spines is 20-40% slower than one under one leaf; 1.5 stays above that.
     */
    public static final double LATENCY_FACTOR = 1.5;
    /** Pairs of its own a node needs to be judged. */
    public static final int MIN_OWN_PAIRS = 2;
    /** Measured pairs a reference median needs. */
    public static final int MIN_REFERENCE_PAIRS = 2;

    /** A node slow in all its pairs: those pairs, the reference median, how many pairs it was taken over, and the scores' range. */
    public record SlowNode(String node, List<PairCell> cells, double reference, int referencePairs, double worst, double best) {
        public SlowNode {
            cells = List.copyOf(cells);
        }
    }

    /** One slow pair between two nodes that are fine with the others: the pair, the reference median, how many pairs, its score. */
    public record SlowLink(PairCell cell, double reference, int referencePairs, double score) {
    }

    public PairVerdict {
        slowNodes = List.copyOf(slowNodes);
        slowLinks = List.copyOf(slowLinks);
        notJudged = List.copyOf(notJudged);
    }

    /** The score below which a pair is slow ({@link PairKind#score}: 1 is as good as the reference). */
    public static double threshold(PairKind kind) {
        return kind.higherIsBetter() ? BANDWIDTH_FRACTION : 1 / LATENCY_FACTOR;
    }

    static PairVerdict judge(PairMatrix m) {
        PairKind kind = m.kind();
        List<SlowNode> nodes = new ArrayList<>();
        List<String> notJudged = new ArrayList<>();
        for (String n : m.nodes()) {
            List<PairCell> own = m.pairsOf(n);
            double[] others = values(m.cells().stream().filter(c -> !c.involves(n)).toList());
            if (own.size() < MIN_OWN_PAIRS || others.length < MIN_REFERENCE_PAIRS) {
                notJudged.add(n);
                continue;
            }
            double ref = median(others);
            if (own.stream().allMatch(c -> slow(kind, c, ref))) {
                double[] scores = own.stream().mapToDouble(c -> score(kind, c, ref)).toArray();
                nodes.add(new SlowNode(n, own, ref, others.length, Arrays.stream(scores).min().orElse(0),
                        Arrays.stream(scores).max().orElse(0)));
            }
        }
        Set<String> slowNodes = nodes.stream().map(SlowNode::node).collect(Collectors.toSet());
        List<SlowLink> links = new ArrayList<>();
        for (PairCell c : m.cells()) {
            if (slowNodes.contains(c.a()) || slowNodes.contains(c.b())) {
                continue;
            }
            double[] rest = values(m.cells().stream().filter(o -> o != c && !slowNodes.contains(o.a())
                    && !slowNodes.contains(o.b())).toList());
            if (rest.length < MIN_REFERENCE_PAIRS) {
                continue;
            }
            double ref = median(rest);
            List<PairCell> aOthers = m.pairsOf(c.a()).stream().filter(o -> o != c).toList();
            List<PairCell> bOthers = m.pairsOf(c.b()).stream().filter(o -> o != c).toList();
            if (slow(kind, c, ref) && !aOthers.isEmpty() && !bOthers.isEmpty()
                    && aOthers.stream().noneMatch(o -> slow(kind, o, ref)) && bOthers.stream().noneMatch(o -> slow(kind, o, ref))) {
                links.add(new SlowLink(c, ref, rest.length, score(kind, c, ref)));
            }
        }
        boolean tooFew = notJudged.size() == m.nodes().size() && links.isEmpty();
        return new PairVerdict(nodes, links, notJudged, tooFew);
    }

    private static boolean slow(PairKind kind, PairCell c, double reference) {
        return score(kind, c, reference) < threshold(kind);
    }

    /** The pair's score against the reference; 0 for a pair whose every run failed. */
    static double score(PairKind kind, PairCell c, double reference) {
        return c.failed() ? 0 : kind.score(c.value(), reference);
    }

    private static double[] values(List<PairCell> cells) {
        return cells.stream().filter(c -> !c.failed()).mapToDouble(PairCell::value).toArray();
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    /** Whether it raises nothing. */
    public boolean healthy() {
        return slowNodes.isEmpty() && slowLinks.isEmpty();
    }

    /**
     * What the verdict says in sentences, for the window and the report: the slow nodes and links, else
     * that every judged pair is fine, and which nodes could not be judged (too few pairs), with the rule.
     */
    public List<String> sentences(PairMatrix m) {
        List<String> out = new ArrayList<>();
        for (SlowNode s : slowNodes) {
            out.add(String.format(Locale.ROOT, "%s is slow in all %d of its pairs: %s of the median of the %d pairs without it (%s %s)",
                    s.node(), s.cells().size(), range(s.worst(), s.best()), s.referencePairs(), num(s.reference()), m.kind().unit()));
        }
        for (SlowLink l : slowLinks) {
            out.add(String.format(Locale.ROOT, "%s alone is slow: %s %s, %s of the median of the other pairs (%s %s); both nodes are fine with the others",
                    l.cell().label(), l.cell().failed() ? "failed" : num(l.cell().value()), m.kind().unit(), pct(l.score()),
                    num(l.reference()), m.kind().unit()));
        }
        if (tooFew) {
            out.add(m.cells().size() + (m.cells().size() == 1 ? " pair" : " pairs") + ": a node needs at least " + MIN_OWN_PAIRS
                    + " pairs of its own and " + MIN_REFERENCE_PAIRS + " pairs without it to be judged; measure more pairs");
            return out;
        }
        if (healthy()) {
            out.add(String.format(Locale.ROOT, "No slow node or link: no node is below %s in all its pairs and no single pair is",
                    m.kind().higherIsBetter() ? pct(BANDWIDTH_FRACTION) + " of the median of the others"
                            : LATENCY_FACTOR + " times the median latency of the others"));
        }
        if (!notJudged.isEmpty()) {
            out.add("Not judged (fewer than " + MIN_OWN_PAIRS + " pairs of their own or " + MIN_REFERENCE_PAIRS
                    + " without them): " + String.join(", ", notJudged));
        }
        return out;
    }

    static String range(double lo, double hi) {
        return Math.round(lo * 100) == Math.round(hi * 100) ? pct(lo) : Math.round(lo * 100) + "-" + pct(hi);
    }

    static String pct(double f) {
        return Math.round(f * 100) + "%";
    }

    /** A value as the matrix prints it: no decimals from 100, one below, two below 10. */
    public static String num(double v) {
        if (Double.isNaN(v)) {
            return "failed";
        }
        return String.format(Locale.ROOT, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
    }
}
