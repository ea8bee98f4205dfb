package org.fabricscope.model.forensics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Random;

import org.junit.jupiter.api.Test;

/** Compact columns give back exactly what was put in, whatever shape the values have. */
class ColumnsTest {
    private static final long[] EDGES = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 0xffffffffL, 0x100000000L,
        Integer.MIN_VALUE, Integer.MAX_VALUE, 1795420934783416548L};

    @Test
    void longsOfEveryShapeComeBackExactly() {
        Random rnd = new Random(11);
        for (int round = 0; round < 3000; round++) {
            int n = rnd.nextInt(40);
            long[] v = new long[n + rnd.nextInt(3)]; // the builder's array can be longer than its count
            long base = rnd.nextBoolean() ? EDGES[rnd.nextInt(EDGES.length)] : rnd.nextLong();
            long step = rnd.nextInt(4) == 0 ? 0 : rnd.nextBoolean() ? rnd.nextInt(5) - 2 : rnd.nextLong();
            int shape = rnd.nextInt(5);
            for (int i = 0; i < v.length; i++) {
                v[i] = switch (shape) {
                    case 0 -> base + step * i; // progression (overflowing ones too)
                    case 1 -> base + (rnd.nextLong() & 0xffffffffL); // within 32 bits of the least
                    case 2 -> base + (rnd.nextLong() & 0x1ffffffffL); // just past 32 bits
                    case 3 -> EDGES[rnd.nextInt(EDGES.length)];
                    default -> rnd.nextLong();
                };
            }
            if (n > 2 && rnd.nextBoolean()) {
                v[rnd.nextInt(n)] ^= 1; // a progression broken once
            }
            long[] copy = v.clone();
            Columns.Longs c = Columns.Longs.of(v, n);
            for (int i = 0; i < n; i++) {
                assertEquals(copy[i], c.get(i), "round " + round + " index " + i);
            }
        }
    }

    @Test
    void refsComeBackAsTheSameInstances() {
        Random rnd = new Random(12);
        for (int round = 0; round < 1000; round++) {
            int distinct = 1 + rnd.nextInt(rnd.nextBoolean() ? 4 : 400); // past 256 distinct: held as they are
            Object[] pool = new Object[distinct];
            for (int i = 0; i < distinct; i++) {
                pool[i] = new String("v" + (i % 3)); // equal values, distinct instances: instances are what is kept
            }
            int n = rnd.nextInt(600);
            Object[] v = new Object[n];
            for (int i = 0; i < n; i++) {
                v[i] = i > 0 && rnd.nextInt(3) == 0 ? v[i - 1] : pool[rnd.nextInt(distinct)];
            }
            Columns.Refs c = Columns.Refs.of(v, n);
            for (int i = 0; i < n; i++) {
                assertSame(v[i], c.get(i), "round " + round + " index " + i);
            }
        }
    }
}
