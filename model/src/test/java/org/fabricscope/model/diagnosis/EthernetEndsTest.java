package org.fabricscope.model.diagnosis;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The RoCE path MTU a netdev MTU allows, as Linux's iboe_get_mtu computes it. */
class EthernetEndsTest {
    @Test
    void theRoceMtuIsTheLargestIbMtuWithinTheNetdevMtuLessTheHeaders() {
        assertEquals(1024, EthernetEnds.roceMtu(1500)); // the well-known cap of a default-MTU netdev
        assertEquals(4096, EthernetEnds.roceMtu(9000));
        assertEquals(4096, EthernetEnds.roceMtu(4096 + EthernetEnds.ROCE_HEADERS));
        assertEquals(2048, EthernetEnds.roceMtu(4096 + EthernetEnds.ROCE_HEADERS - 1));
        assertEquals(2048, EthernetEnds.roceMtu(4096));
        assertEquals(256, EthernetEnds.roceMtu(256 + EthernetEnds.ROCE_HEADERS));
        assertEquals(0, EthernetEnds.roceMtu(255 + EthernetEnds.ROCE_HEADERS));
        assertEquals(0, EthernetEnds.roceMtu(0));
    }
}
