package org.fabricscope.model.fabric;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Random;

import org.junit.jupiter.api.Test;

/** The indexed lookup answers what the builder's scans answer, LIDs of two subnets and names alike. */
class NodeLookupTest {
    @Test
    void answersAsTheScansDo() {
        FabricBuilder b = new FabricBuilder();
        Random r = new Random(5);
        for (int i = 0; i < 300; i++) {
            boolean sw = i % 5 == 0;
            FabricNode n = b.node(0x1000L + i, sw ? NodeKind.SWITCH : NodeKind.CA);
            // descriptions repeat (several nodes share one), LIDs repeat now and then (two subnets)
            b.setDescription(n, (sw ? "MF0;leaf-" + (i % 40) + ":MQM8700/U1" : "host-" + (i % 70) + " mlx5_0") + (i % 3 == 0 ? "  " : ""));
            int lid = 1 + r.nextInt(400);
            if (sw) {
                b.setSwitchPort0(n, lid, 0, null);
            } else {
                b.setPortAddress(b.port(n, 1), 0x2000L + i, lid, 0);
                if (i % 7 == 0) {
                    b.setPortAddress(b.port(n, 2), 0x3000L + i, 1 + r.nextInt(400), 0);
                }
            }
        }
        NodeLookup lookup = b.lookup();
        for (int lid = -1; lid <= 402; lid++) {
            assertSame(b.findNodeByLid(lid), lookup.byLid(lid), "LID " + lid);
        }
        for (int i = 0; i < 80; i++) {
            for (String name : new String[] {"leaf-" + i, "host-" + i + " mlx5_0", " host-" + i + " mlx5_0 ", "MF0;leaf-" + i + ":MQM8700/U1"}) {
                assertSame(b.findNodeByName(name), lookup.byName(name), name);
            }
        }
        assertNull(lookup.byName(null));
    }
}
