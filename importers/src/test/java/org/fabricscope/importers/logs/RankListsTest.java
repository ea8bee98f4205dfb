package org.fabricscope.importers.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * A tree node's children: NCCL's three numbers without the -1s, in order; one list for the same three numbers. A
 * ring's order: an immutable copy, shared for short orders.
 */
class RankListsTest {
    @Test
    void dropsTheNonesAndKeepsTheOrder() {
        RankLists c = new RankLists();
        assertEquals(List.of(), c.children(-1, -1, -1));
        assertEquals(List.of(5), c.children(-1, 5, -1));
        assertEquals(List.of(7, 3), c.children(7, -1, 3));
        assertEquals(List.of(1000, 2000, 3000), c.children(1000, 2000, 3000));
    }

    @Test
    void theSameChildrenGiveTheSameListAndOthersNeverIt() {
        RankLists c = new RankLists();
        Random r = new Random(28);
        for (int i = 0; i < 200_000; i++) {
            // ranks of a job of 20,000: many more triples than the cache has slots, so slots are taken over
            int d0 = r.nextInt(20_001) - 1;
            int d1 = r.nextInt(4) == 0 ? -1 : r.nextInt(20_000);
            int d2 = r.nextInt(2) == 0 ? -1 : r.nextInt(20_000);
            List<Integer> l = c.children(d0, d1, d2);
            List<Integer> expected = new ArrayList<>();
            for (int d : new int[] {d0, d1, d2}) {
                if (d >= 0) {
                    expected.add(d);
                }
            }
            assertEquals(expected, l, d0 + "/" + d1 + "/" + d2);
            assertSame(l, c.children(d0, d1, d2));
        }
    }

    @Test
    void shortRingOrdersAreSharedLongOnesCopied() {
        RankLists c = new RankLists();
        List<Integer> order = new ArrayList<>(List.of(0, 1));
        List<Integer> first = c.order(order);
        order.set(0, 5); // the caller's list changes after: the copy does not
        assertEquals(List.of(0, 1), first);
        assertSame(first, c.order(new ArrayList<>(List.of(0, 1))));
        assertEquals(List.of(5, 1), c.order(order));
        List<Integer> big = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            big.add(i);
        }
        assertEquals(big, c.order(big));
        for (int i = 0; i < 10_000; i++) { // more orders than the table keeps: still the right ones
            assertEquals(List.of(i, i + 1), c.order(List.of(i, i + 1)));
        }
        assertThrows(UnsupportedOperationException.class, () -> c.order(order).add(3));
    }
}
