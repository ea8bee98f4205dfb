package org.fabricscope.app.render;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.TreeSet;

import org.junit.jupiter.api.Test;

/** A glyph's rank badge: consecutive ranks as one range, the rest listed. */
class RankRangesTest {
    @Test
    void consecutiveRanksMakeOneRange() {
        assertEquals("r0-7", RankRanges.of(new TreeSet<>(java.util.List.of(3, 0, 1, 2, 4, 5, 6, 7))));
        assertEquals("r0-3,5", RankRanges.of(new TreeSet<>(java.util.List.of(0, 1, 2, 3, 5))));
        assertEquals("r4", RankRanges.of(new TreeSet<>(java.util.List.of(4))));
        assertEquals("r1,3,5-6", RankRanges.of(new TreeSet<>(java.util.List.of(1, 3, 5, 6))));
        assertEquals("r", RankRanges.of(new TreeSet<>()));
    }
}
