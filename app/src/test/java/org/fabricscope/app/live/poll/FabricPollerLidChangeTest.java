package org.fabricscope.app.live.poll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;


import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Port;
import org.junit.jupiter.api.Test;

/**
 * A subnet manager may give nodes other LIDs (a restart without its guid2lid cache, a re-sweep): a port's
 * counter series follows the port (its node's GUID), not the LID it was read through. Here two hosts swap
 * LIDs between two polls; one host has 100 symbol errors that never rise, the other none.
 */
class FabricPollerLidChangeTest {
    private static final long GUID_A = 0xb8cef60300000a01L;
    private static final long GUID_B = 0xb8cef60300000b01L;

    /** A scripted fabric: the LIDs of host A and host B, and each host's symbol error count (never changing). */
    private static final class Scripted implements Diags {
        int lidA = 5;
        int lidB = 6;

        @Override
        public Output run(List<String> argv, Duration timeout) {
            if (argv.get(0).equals("iblinkinfo")) {
                return new Output(0, """
                        Switch: 0x0c42a10300000001 leaf-1:
                                   1    1[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>     %d    1[  ] "hostA mlx5_0" ( )
                                   1    2[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>     %d    1[  ] "hostB mlx5_0" ( )
                        CA: hostA mlx5_0:
                              0x%016x    %d    1[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>       1    1[  ] "leaf-1" ( )
                        CA: hostB mlx5_0:
                              0x%016x    %d    1[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>       1    2[  ] "leaf-1" ( )
                        """.formatted(lidA, lidB, GUID_A, lidA, GUID_B, lidB), "");
            }
            int lid = Integer.parseInt(argv.get(argv.indexOf("-l") + 1));
            String ports = argv.get(argv.indexOf("-l") + 2);
            long symbols = lid == lidA ? 100 : 0;
            boolean extended = argv.contains("-x");
            StringBuilder out = new StringBuilder();
            for (String p : ports.split(",")) {
                out.append(extended ? "# Port extended counters: Lid " : "# Port counters: Lid ").append(lid).append(" port ")
                        .append(p).append(" (CapMask: 0x1300)\n");
                out.append("PortSelect:......................").append(p).append('\n');
                if (extended) {
                    out.append("PortXmitData:....................1000\n");
                } else {
                    out.append("SymbolErrorCounter:..............").append(lid == 1 ? 0 : symbols).append('\n');
                    out.append("LinkDownedCounter:...............0\n");
                }
            }
            return new Output(0, out.toString(), "");
        }
    }

    @Test
    void aPortKeepsItsSeriesWhenItsNodeGetsAnotherLid() throws Exception {
        Scripted fabric = new Scripted();
        FabricPollTarget every10s = FabricPollTarget.every(Duration.ofSeconds(10)).withTopologyEvery(Duration.ofSeconds(10));
        FabricPoller poller = new FabricPoller(every10s, fabric, "node-1");
        Instant t0 = Instant.parse("2026-11-27T06:00:00Z");
        PollResult first = poller.poll(t0);
        assertEquals(4, first.portsRead(), "two host ports and the switch's two: " + first);

        fabric.lidA = 6; // the subnet manager swapped the hosts' LIDs
        fabric.lidB = 5;
        PollResult second = poller.poll(t0.plusSeconds(10));
        assertTrue(second.linksRead(), "the link table is re-read at its interval");
        assertEquals(List.of(), second.rises(),
                "no counter rose on any port; keyed by LID, host B's port would have 'risen' to host A's 100");

        FabricModelBuilder b = new FabricModelBuilder();
        poller.snapshot().contribute(b);
        FabricModel m = b.build();
        Port a = port(m.node(GUID_A));
        Port hostB = port(m.node(GUID_B));
        assertEquals(100L, a.counters().get("SymbolErrorCounter"), "host A keeps its own counters");
        assertEquals(0L, hostB.counters().get("SymbolErrorCounter"), "host B keeps its own counters");
        assertEquals(2, a.counterSamples().size(), "both of host A's readings are its series: " + a.counterSamples());
        assertTrue(a.counterSamples().stream().allMatch(s -> Long.valueOf(100).equals(s.counters().get("SymbolErrorCounter"))));
    }

    private static Port port(FabricNode n) {
        for (Port p : n.ports()) {
            if (p.number() == 1) {
                return p;
            }
        }
        throw new AssertionError("no port 1 on " + n.displayName());
    }

}
