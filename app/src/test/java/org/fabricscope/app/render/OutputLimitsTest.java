package org.fabricscope.app.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class OutputLimitsTest {
    @Test
    void picturesPastTheLimitAreRefusedByName() {
        assertNull(OutputLimits.pictureProblem(1600, 1000));
        assertNull(OutputLimits.pictureProblem(10_000, 10_000), "exactly the limit");
        assertEquals("a picture of 100,000 x 100,000 = 10,000,000,000 pixels is past the limit of 100,000,000 pixels "
                + "(OutputLimits.MAX_PIXELS)", OutputLimits.pictureProblem(100_000, 100_000));
        assertTrue(OutputLimits.pictureProblem(Integer.MAX_VALUE, Integer.MAX_VALUE).contains("MAX_PIXELS"), "no overflow");
        assertTrue(OutputLimits.pictureProblem(15, 1000).contains("OutputLimits.MIN_SIDE"));
    }

    @Test
    void graphsPastTheLimitAreRefusedByName() {
        assertNull(OutputLimits.graphProblem("the graphml export", 10));
        assertEquals("the graphml export would hold 11 elements, past the limit of 10 (OutputLimits.MAX_ELEMENTS): "
                + "the file would run to gigabytes", OutputLimits.graphProblem("the graphml export", 11, 10));
        // ten times Selene (BENCHMARKS.md, gen-superpod.py's default): 46,080 nodes and 122,880 cables
        assertNull(OutputLimits.graphProblem("ten times Selene", 46_080 + 122_880));
        assertTrue(OutputLimits.graphProblem("x", OutputLimits.MAX_ELEMENTS + 1L).contains("1,000,000"));
    }
}
