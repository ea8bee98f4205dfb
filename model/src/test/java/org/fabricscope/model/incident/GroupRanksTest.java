package org.fabricscope.model.incident;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class GroupRanksTest {
    @Test
    void aGroupsRankTakesTheGlobalRankATaggedLineShowedAndTheFirstPairStays() {
        GroupRanks r = new GroupRanks();
        String tp = GroupRanks.key("2", "PG ID 2 PG GUID 2(tp)");
        r.learn(tp, 0, 2);
        r.learn(tp, 0, 7); // a later, contradicting line does not move it
        assertEquals(2, r.global(tp, 0));
        assertEquals(-1, r.global(tp, 1));
        assertEquals(-1, r.global(GroupRanks.key("3", "x"), 0), "another group");
        assertEquals(GroupRanks.key(null, "PG 3 (tp)"), GroupRanks.key(null, "PG 3 (tp)"));
        assertNull(GroupRanks.key(null, ""));
        r.learn(null, 0, 1);
        assertEquals(-1, r.global(null, 0), "no group, nothing learned");
    }

    /** A hostile log printing ever new (group, rank) pairs stops being remembered at the cap; what came before stays. */
    @Test
    void pairsPastTheCapAreNotKept() {
        GroupRanks r = new GroupRanks();
        for (int i = 0; i < GroupRanks.MAX_PAIRS; i++) {
            r.learn("guid g" + i, 0, i);
        }
        r.learn("guid past", 0, 5);
        assertEquals(-1, r.global("guid past", 0));
        assertEquals(17, r.global("guid g17", 0));
    }
}
