package org.fabricscope.model.ranks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.fabricscope.model.FabricModel;
import org.junit.jupiter.api.Test;

/** The join keys RankMap relies on. (The whole join is tested on the training-incident sample.) */
class RankMapTest {
    @Test
    void ncclBusIdsMatchTopologyBusIds() {
        // NCCL prints domain:bus:dev.fn as one hex number: 0000:89:00.0 -> 89000, 0000:0f:00.0 -> f000
        assertEquals(RankMap.busIdValue("0000:89:00.0"), RankMap.busIdValue("89000"));
        assertEquals(RankMap.busIdValue("0000:0f:00.0"), RankMap.busIdValue("f000"));
        assertEquals(RankMap.busIdValue("0001:0f:00.0"), RankMap.busIdValue("10f000"));
        assertTrue(RankMap.busIdValue("0000:0f:00.0") != RankMap.busIdValue("0000:f0:00.0"));
        assertEquals(-1, RankMap.busIdValue("zz"));
        assertEquals(-1, RankMap.busIdValue(""));
        assertEquals(-1, RankMap.busIdValue(null));
    }

    @Test
    void aModelWithoutLogsHasNoRanks() {
        RankMap m = RankMap.of(FabricModel.empty());
        assertTrue(m.isEmpty());
        assertTrue(m.routes().isEmpty());
    }
}
