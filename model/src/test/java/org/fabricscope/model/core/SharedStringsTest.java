package org.fabricscope.model.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** Equal short strings come back as one object; every string comes back equal to itself, whatever its slot held. */
class SharedStringsTest {
    @Test
    void equalShortStringsAreOneObject() {
        SharedStrings s = new SharedStrings();
        String first = s.of(new String("2.28.9"));
        String again = s.of(new String("2.28.9"));
        assertSame(first, again);
        assertNull(s.of(null));
        String longer = "x".repeat(SharedStrings.MAX_LENGTH + 1);
        s.of(longer);
        assertNotSame(longer, s.of(new String(longer)), "a long string is kept as it is");
    }

    /** Many values that share slots: each comes back equal (never another's), and repeats that kept their slot are shared. */
    @Test
    void anyStringComesBackEqual() {
        SharedStrings s = new SharedStrings();
        Random r = new Random(30);
        List<String> pool = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            pool.add("v" + r.nextInt(100_000));
        }
        int shared = 0;
        for (int round = 0; round < 3; round++) {
            for (String v : pool) {
                String copy = new String(v);
                String got = s.of(copy);
                assertEquals(v, got);
                shared += got != copy ? 1 : 0;
            }
        }
        assertTrue(shared > 0, "repeats found their earlier equal");
    }
}
