package org.fabricscope.model.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.fabricscope.model.core.Evidence;
import org.junit.jupiter.api.Test;

/** Step times in the training layer: kept in the order added, immutable, and no NCCL fact of their own. */
class StepTimeTest {
    private static StepTime step(String source, int line, int rank, long step, double ms) {
        return new StepTime(source, line, "", rank, step, ms, Double.NaN, "", -1, "megatron",
                Evidence.at(source, line, "iteration " + step));
    }

    @Test
    void builderKeepsStepTimesInOrderAndTheLogHandsThemOutUnchangeable() {
        TrainingLogBuilder b = new TrainingLogBuilder();
        b.addStepTime(step("a.log", 3, 0, 10, 1200));
        b.addStepTime(step("b.log", 1, 1, 10, 1900));
        b.addStepTime(step("a.log", 9, 0, 20, 1210));
        TrainingLog log = b.build();
        assertEquals(List.of(10L, 10L, 20L), log.stepTimes().stream().map(StepTime::step).toList());
        assertEquals(1900, log.stepTimes().get(1).stepMs());
        assertThrows(UnsupportedOperationException.class, () -> log.stepTimes().add(step("c.log", 1, 2, 1, 1)));
        b.addStepTime(step("c.log", 1, 2, 30, 1));
        assertEquals(3, log.stepTimes().size(), "a built log does not change with its builder");
        assertTrue(log.isEmpty(), "step times alone are no NCCL or PyTorch distributed facts");
        assertTrue(TrainingLog.EMPTY.stepTimes().isEmpty());
    }

    @Test
    void aStepTimeWithoutLocalRankOrTimeSaysSo() {
        StepTime t = new StepTime(null, 4, null, -1, 7, Double.NaN, 5432, "tokens/s", -1, "torchtitan", null);
        assertEquals(-1, t.localRank());
        assertEquals("", t.source());
        assertEquals("", t.host());
        assertFalse(t.hasStepMs());
        assertTrue(t.hasThroughput());
        StepTime placed = t.withHost("node-1");
        assertEquals("node-1", placed.host());
        assertEquals(7, placed.step());
        assertEquals("tokens/s", placed.throughputUnit());
        assertTrue(step("a.log", 1, 0, 1, 12.5).hasStepMs());
        assertFalse(step("a.log", 1, 0, 1, 12.5).hasThroughput());
    }
}
