package org.fabricscope.model.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.pairwise.PairRuns;
import org.junit.jupiter.api.Test;

/**
 * {@code pairwise-slow}: one finding for the node slow in all its pairs (the node as the subject, every pair's
 * result line as evidence), one for a link slow alone (both hosts), none for a healthy sweep or too few pairs.
 */
class PairwiseSlowCheckTest {
    private static final List<String> NODES = List.of("gpu-node-01", "gpu-node-02", "gpu-node-03", "gpu-node-04", "gpu-node-05");

    /** ib_write_bw between every two nodes, named by file, at {@code healthy} Gb/s or {@code slow} for pairs with {@code bad}. */
    private static FabricModelBuilder sweep(String bad, double healthy, double slow) {
        FabricModelBuilder b = new FabricModelBuilder();
        int k = 0;
        for (int i = 0; i < NODES.size(); i++) {
            for (int j = i + 1; j < NODES.size(); j++) {
                String x = NODES.get(i);
                String y = NODES.get(j);
                double v = (x.equals(bad) || y.equals(bad) ? slow : healthy) * (1 + (k++ % 3 - 1) * 0.01);
                b.forensics().perftest(PairRuns.bw("ib_write_bw_" + x + "_" + y + ".txt", 0, 0, v));
            }
        }
        return b;
    }

    private static List<Finding> run(FabricModelBuilder b) {
        return new PairwiseSlowCheck().run(CheckContext.of(b.build()));
    }

    @Test
    void declaresItsId() {
        assertEquals("pairwise-slow", new PairwiseSlowCheck().findings().get(0).id());
        assertEquals(Layer.FABRIC, new PairwiseSlowCheck().findings().get(0).layer());
    }

    @Test
    void theSlowNodeIsNamed() {
        List<Finding> f = run(sweep("gpu-node-03", 392, 190));
        assertEquals(1, f.size(), f.toString());
        Finding slow = f.get(0);
        assertEquals("pairwise-slow", slow.id());
        assertEquals(Severity.WARNING, slow.severity());
        assertEquals(List.of(new Subject.HostRef("gpu-node-03", "gpu-node-03")), slow.refs());
        assertTrue(slow.title().startsWith("gpu-node-03 is slow in all 4 of its ib_write_bw pairs: 190-192 Gb/s, "), slow.title());
        assertTrue(slow.title().endsWith("of the median of the 6 pairs without it (388 Gb/s)"), slow.title());
        assertEquals(4, slow.evidence().stream().filter(e -> e.line() == 21).count(), "every pair's result line: " + slow.evidence());
        assertTrue(slow.evidence().get(0).source().contains("gpu-node-03"));
        assertTrue(slow.remedies().get(0).startsWith("Take gpu-node-03 out of the job's node list"));
    }

    @Test
    void aHealthySweepRaisesNothing() {
        assertTrue(run(sweep(null, 392, 0)).isEmpty());
        assertTrue(run(new FabricModelBuilder()).isEmpty(), "no pairwise test, no finding");
    }

    @Test
    void tooFewPairsRaiseNothing() {
        FabricModelBuilder b = new FabricModelBuilder();
        b.forensics().perftest(PairRuns.bw("ib_write_bw_n1_n2.txt", 0, 0, 390));
        b.forensics().perftest(PairRuns.bw("ib_write_bw_n1_n3.txt", 0, 0, 120));
        b.forensics().perftest(PairRuns.bw("ib_write_bw_n2_n3.txt", 0, 0, 118));
        assertTrue(run(b).isEmpty());
    }

    @Test
    void aSlowLinkNamesBothHosts() {
        FabricModelBuilder b = sweep(null, 392, 0);
        b.forensics().perftest(PairRuns.bw("ib_write_bw_gpu-node-04_gpu-node-02.txt", 0, 0, 97)); // a second run, the other way
        List<Finding> f = run(b);
        assertEquals(1, f.size(), f.toString());
        assertEquals(List.of("gpu-node-02", "gpu-node-04"), f.get(0).subjects());
        assertTrue(f.get(0).title().startsWith("ib_write_bw gpu-node-02 - gpu-node-04 is slow while both nodes are fine in their "
                + "other pairs: 97.0 Gb/s, 25% of the median of the other 9 pairs (392 Gb/s)"), f.get(0).title());
    }
}
