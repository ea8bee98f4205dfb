package org.fabricscope.model.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

class PairKeyTest {

    @Test
    void decodesWhatItEncodes() {
        int[] values = {0, 1, 2, 7, 1000, 65_535, 65_536, 1 << 20, Integer.MAX_VALUE - 1, Integer.MAX_VALUE};
        for (int a : values) {
            for (int b : values) {
                long k = PairKey.of(a, b);
                assertEquals(a, PairKey.first(k), () -> a + "," + b);
                assertEquals(b, PairKey.second(k), () -> a + "," + b);
            }
        }
    }

    @Test
    void unorderedKeyIsTheSameBothWaysAndPutsTheSmallerFirst() {
        assertEquals(PairKey.unordered(9, 4), PairKey.unordered(4, 9));
        assertEquals(4, PairKey.first(PairKey.unordered(9, 4)));
        assertEquals(9, PairKey.second(PairKey.unordered(9, 4)));
        assertTrue(PairKey.of(4, 9) != PairKey.of(9, 4));
    }

    @Test
    void keysOfNearbyPairsSpreadOverHashCodes() {
        // Leaf-to-spine pairs of a large fabric: (first, second) close together. Packed plainly, their
        // Long hash codes are first ^ second, which repeats a few hundred times over this set.
        Set<Integer> plain = new HashSet<>();
        Set<Integer> mixed = new HashSet<>();
        int pairs = 0;
        for (int a = 0; a < 3000; a += 3) {
            for (int b = a + 1; b < a + 300; b += 7) {
                plain.add(Long.hashCode(((long) a << 32) | b));
                mixed.add(Long.hashCode(PairKey.of(a, b)));
                pairs++;
            }
        }
        assertEquals(pairs, mixed.size(), "every pair its own hash code");
        assertTrue(plain.size() < pairs / 4, "the plain packing collides (the reason for this class): " + plain.size());
    }

    @Test
    void keysAreDistinctAndWorkAsMapKeys() {
        Map<Long, String> m = new HashMap<>();
        for (int a = 0; a < 200; a++) {
            for (int b = 0; b < 200; b++) {
                assertEquals(null, m.put(PairKey.of(a, b), a + "-" + b));
            }
        }
        assertEquals("17-123", m.get(PairKey.of(17, 123)));
    }

    @Test
    void negativeIndexIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> PairKey.of(-1, 3));
    }
}
