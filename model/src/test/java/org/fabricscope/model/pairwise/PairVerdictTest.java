package org.fabricscope.model.pairwise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The bisection's verdict: one node slow in all its pairs, one slow link between two nodes that are fine with the
 * others, nothing for ordinary spread, nothing (and why) for too few pairs, latencies judged the other way round.
 */
class PairVerdictTest {
    private static final List<String> FIVE = List.of("gpu-node-01", "gpu-node-02", "gpu-node-03", "gpu-node-04", "gpu-node-05");

    @Test
    void ordinarySpreadRaisesNothing() {
        PairMatrix m = PairRuns.fullMesh(PairKind.PERFTEST_BW, FIVE, 392, null, 0);
        PairVerdict v = m.verdict();
        assertTrue(v.healthy());
        assertTrue(v.notJudged().isEmpty());
        assertFalse(v.tooFew());
        assertEquals(List.of("No slow node or link: no node is below 75% of the median of the others in all its pairs and no single pair is"),
                v.sentences(m));
    }

    @Test
    void oneNodeSlowInEveryPairIsNamedAndNoLinkIs() {
        PairMatrix m = PairRuns.fullMesh(PairKind.PERFTEST_BW, FIVE, 392, "gpu-node-03", 196);
        PairVerdict v = m.verdict();
        assertEquals(1, v.slowNodes().size());
        PairVerdict.SlowNode s = v.slowNodes().get(0);
        assertEquals("gpu-node-03", s.node());
        assertEquals(4, s.cells().size());
        assertEquals(6, s.referencePairs(), "the pairs among the other four nodes");
        assertEquals(392, s.reference(), 392 * 0.03);
        assertTrue(s.worst() > 0.45 && s.best() < 0.55, s.worst() + " " + s.best());
        assertTrue(v.slowLinks().isEmpty(), "the slow node's pairs are not links: " + v.slowLinks());
        assertTrue(v.sentences(m).get(0).startsWith("gpu-node-03 is slow in all 4 of its pairs: "), v.sentences(m).get(0));
    }

    @Test
    void aNodeSlowInAllButOnePairIsNotSlow() {
        PairMatrix m = PairRuns.matrix(PairKind.PERFTEST_BW, "a1", "a2", 390, "a1", "a3", 391, "a2", "a3", 389,
                "a1", "a4", 200, "a2", "a4", 201, "a3", "a4", 380);
        assertTrue(m.verdict().slowNodes().isEmpty(), m.verdict().toString());
    }

    @Test
    void oneSlowPairBetweenHealthyNodesIsALink() {
        PairMatrix m = PairRuns.matrix(PairKind.PERFTEST_BW, "a1", "a2", 390, "a1", "a3", 391, "a1", "a4", 389,
                "a2", "a3", 392, "a2", "a4", 388, "a3", "a4", 150);
        PairVerdict v = m.verdict();
        assertTrue(v.slowNodes().isEmpty());
        assertEquals(1, v.slowLinks().size());
        PairVerdict.SlowLink l = v.slowLinks().get(0);
        assertEquals("a3 - a4", l.cell().label());
        assertEquals(5, l.referencePairs());
        assertEquals(390, l.reference(), 1e-9);
        assertEquals(150 / 390.0, l.score(), 1e-9);
    }

    @Test
    void aTriangleIsTooFewToJudgeANodeAndSaysSo() {
        PairMatrix m = PairRuns.matrix(PairKind.PERFTEST_BW, "a1", "a2", 390, "a1", "a3", 190, "a2", "a3", 195);
        PairVerdict v = m.verdict();
        assertTrue(v.healthy(), v.toString());
        assertTrue(v.tooFew());
        assertEquals(List.of("a1", "a2", "a3"), v.notJudged());
        assertEquals(List.of("3 pairs: a node needs at least 2 pairs of its own and 2 pairs without it to be judged; measure more pairs"),
                v.sentences(m));
    }

    @Test
    void aLonePairIsTooFew() {
        PairMatrix m = PairRuns.matrix(PairKind.PERFTEST_BW, "a1", "a2", 10);
        assertTrue(m.verdict().tooFew());
        assertTrue(m.verdict().sentences(m).get(0).startsWith("1 pair: "));
    }

    @Test
    void aNodeWithOnePairIsNotJudgedButTheOthersAre() {
        PairMatrix full = PairRuns.fullMesh(PairKind.PERFTEST_BW, FIVE.subList(0, 4), 392, null, 0);
        List<Object> abv = new java.util.ArrayList<>();
        for (PairCell c : full.cells()) {
            abv.addAll(List.of(c.a(), c.b(), c.value()));
        }
        abv.addAll(List.of("gpu-node-01", "gpu-node-09", 100.0));
        PairMatrix m = PairRuns.matrix(PairKind.PERFTEST_BW, abv.toArray());
        PairVerdict v = m.verdict();
        assertEquals(List.of("gpu-node-09"), v.notJudged());
        assertTrue(v.slowNodes().isEmpty());
        assertTrue(v.slowLinks().isEmpty(), "gpu-node-09 has no other pair: its one slow pair tells nothing: " + v.slowLinks());
        assertEquals("Not judged (fewer than 2 pairs of their own or 2 without them): gpu-node-09", v.sentences(m).get(1));
    }

    @Test
    void failedPairsAreSlow() {
        PairMatrix m = PairRuns.fullMesh(PairKind.PERFTEST_BW, FIVE.subList(0, 4), 392, "gpu-node-02", Double.NaN);
        assertEquals(List.of("gpu-node-02"), m.verdict().slowNodes().stream().map(PairVerdict.SlowNode::node).toList());
        assertEquals(0, m.fractionOfBest(m.cell("gpu-node-02", "gpu-node-01")), 0);
        assertTrue(m.cell("gpu-node-01", "gpu-node-02").failed());
    }

    @Test
    void latenciesAreSlowWhenHigher() {
        PairMatrix hops = PairRuns.matrix(PairKind.PERFTEST_LAT, "a1", "a2", 1.05, "a1", "a3", 1.38, "a1", "a4", 1.40,
                "a2", "a3", 1.37, "a2", "a4", 1.41, "a3", "a4", 1.04);
        assertTrue(hops.verdict().healthy(), "a third more across the spines is ordinary: " + hops.verdict());
        PairMatrix bad = PairRuns.fullMesh(PairKind.PERFTEST_LAT, FIVE, 1.1, "gpu-node-05", 2.4);
        assertEquals(List.of("gpu-node-05"), bad.verdict().slowNodes().stream().map(PairVerdict.SlowNode::node).toList());
        assertEquals(1.1 * 0.976, bad.best(), 1e-9, "the best latency is the lowest");
        assertEquals(1, bad.fractionOfBest(bad.cells().stream().filter(c -> c.value() == bad.best()).findFirst().orElseThrow()), 1e-9);
    }

    @Test
    void medianOfEvenAndOdd() {
        assertEquals(2, PairVerdict.median(new double[] {3, 1, 2}), 0);
        assertEquals(2.5, PairVerdict.median(new double[] {4, 1, 2, 3}), 0);
    }
}
