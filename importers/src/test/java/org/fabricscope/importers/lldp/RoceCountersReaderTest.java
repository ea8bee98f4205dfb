package org.fabricscope.importers.lldp;

import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.fabric.CounterRate;
import org.fabricscope.model.fabric.Port;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ethtool -S and hw_counters: timed samples on the LLDP-placed NIC, rates from two of them. */
class RoceCountersReaderTest {
    static final String LLDP = MlnxQosReaderTest.LLDP;
    static final String RDMA = "link mlx5_0/1 state ACTIVE physical_state LINK_UP netdev ens1f0np0 \n";

    @Test
    void twoSamplesOfBothFormsGiveRates() {
        String counters = """
                root@gpu-node-01:~# date; ethtool -S ens1f0np0 | grep prio3
                Fri Nov 27 02:00:00 UTC 2026
                     rx_prio3_discards: 10
                     rx_prio3_pause: 5
                /sys/class/infiniband/mlx5_0/ports/1/hw_counters/out_of_sequence:100
                /sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent:0
                2026-11-27T02:10:00Z
                NIC statistics:
                     rx_prio3_discards: 70
                     rx_prio3_pause: 5
                /sys/class/infiniband/mlx5_0/ports/1/hw_counters/out_of_sequence:160
                /sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent:0
                """;
        ImportResult r = TestSupport.importTexts("gpu-node-01/lldp.kv", LLDP, "gpu-node-01/rdma-link.txt", RDMA,
                "gpu-node-01/ethtool-S-ens1f0np0.txt", counters);
        assertEquals(RoceCountersReader.ID, r.formats().get("gpu-node-01/ethtool-S-ens1f0np0.txt"));
        assertEquals(List.of(), TestSupport.atLeast(r.model(), Severity.WARNING));
        Port p = MlnxQosReaderTest.nic(r, "gpu-node-01 mlx5_0 ens1f0np0");
        assertEquals(4, p.counterSamples().size());
        CounterRate d = p.counterRate("rx_prio3_discards");
        assertNotNull(d);
        assertEquals(60, d.increase());
        assertEquals(600, d.over().getSeconds());
        assertEquals(60, p.counterRate("out_of_sequence").increase());
        assertEquals(0, p.counterRate("rx_prio3_pause").increase());
        assertTrue(r.model().diagnostics().stream().allMatch(x -> x.message().contains("tiers above the leaves")), r.model().diagnostics().toString());
    }

    @Test
    void unplacedAndUnknownAndOutOfRange() {
        String noHost = "NIC statistics:\n     rx_discards_phy: 1\n";
        String big = "root@gpu-node-01:~# ethtool -S ens1f0np0\nNIC statistics:\n     rx_discards_phy: 18446744073709551616\n     rx_out_of_buffer: 3\n";
        String noRdma = "/sys/class/infiniband/mlx5_7/ports/1/hw_counters/out_of_sequence:1\n"
                + "/sys/class/infiniband/mlx5_7/ports/1/hw_counters/packet_seq_err:1\n";
        ImportResult r = TestSupport.importTexts("gpu-node-01/lldp.kv", LLDP, "stats.txt", noHost, "b.txt", big,
                "gpu-node-01/hw.txt", noRdma);
        List<Diagnostic> w = TestSupport.atLeast(r.model(), Severity.WARNING);
        assertEquals(2, w.size(), w.toString());
        assertTrue(w.stream().anyMatch(d -> d.source().equals("stats.txt") && d.message().contains("is not known")), w.toString());
        assertTrue(w.stream().anyMatch(d -> d.source().equals("b.txt") && d.line() == 3 && d.message().contains("rx_discards_phy")), w.toString());
        assertEquals(3, MlnxQosReaderTest.nic(r, "gpu-node-01 ens1f0np0").counter("rx_out_of_buffer"));
        assertTrue(r.model().diagnostics().stream().anyMatch(d -> d.message().contains("mlx5_7 (no rdma link show")),
                r.model().diagnostics().toString());
    }

    @Test
    void tooManyCountersInOneSampleAreCutWithAWarning() {
        StringBuilder sb = new StringBuilder("root@gpu-node-01:~# ethtool -S ens1f0np0\nNIC statistics:\n");
        for (int i = 0; i < RoceCountersReader.MAX_COUNTERS + 10; i++) {
            sb.append("     rx").append(i).append("_packets: ").append(i).append('\n');
        }
        ImportResult r = TestSupport.importTexts("gpu-node-01/lldp.kv", LLDP, "s.txt", sb.toString());
        List<Diagnostic> w = TestSupport.atLeast(r.model(), Severity.WARNING);
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).message().contains("RoceCountersReader.MAX_COUNTERS"), w.toString());
        assertEquals(RoceCountersReader.MAX_COUNTERS, MlnxQosReaderTest.nic(r, "gpu-node-01 ens1f0np0").counters().size());
    }
}
