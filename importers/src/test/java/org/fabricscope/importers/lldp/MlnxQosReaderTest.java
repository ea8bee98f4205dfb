package org.fabricscope.importers.lldp;

import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.RoceQos;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** mlnx_qos -i: trust and PFC per priority, placed on the NIC that LLDP placed. */
class MlnxQosReaderTest {
    static final String LLDP = "lldp.ens1f0np0.chassis.name=leaf-01\nlldp.ens1f0np0.port.ifname=Ethernet0\n"
            + "lldp.ens2f0np0.chassis.name=leaf-02\nlldp.ens2f0np0.port.ifname=Ethernet0\n";

    static Port nic(ImportResult r, String label) {
        for (FabricNode n : r.model().fabric().nodes().values()) {
            for (Port p : n.ports()) {
                if (p.label().equals(label)) {
                    return p;
                }
            }
        }
        throw new AssertionError(label);
    }

    @Test
    void twoInterfacesInOneFileEachAfterItsCommand() {
        String qos = """
                root@gpu-node-01:~# mlnx_qos -i ens1f0np0
                DCBX mode: OS controlled
                Priority trust state: dscp
                PFC configuration:
                \tpriority    0   1   2   3   4   5   6   7
                \tenabled     0   0   0   1   0   0   0   0
                tc: 0 ratelimit: unlimited, tsa: ets, bw: 10%
                root@gpu-node-01:~# mlnx_qos -i ens2f0np0
                Priority trust state: pcp
                PFC configuration:
                priority 0 1 2 3 4 5 6 7
                enabled 1 0 1 0 0 0 1 1
                """;
        ImportResult r = TestSupport.importTexts("gpu-node-01/lldp.kv", LLDP, "qos.txt", qos);
        assertEquals(MlnxQosReader.ID, r.formats().get("qos.txt"));
        assertEquals(List.of(), TestSupport.atLeast(r.model(), Severity.WARNING));
        RoceQos a = nic(r, "gpu-node-01 ens1f0np0").qos();
        assertEquals("dscp", a.trust());
        assertEquals(List.of(3), a.pfcPriorities());
        assertEquals(6, a.evidence().line());
        RoceQos b = nic(r, "gpu-node-01 ens2f0np0").qos();
        assertEquals("pcp", b.trust());
        assertEquals(List.of(0, 2, 6, 7), b.pfcPriorities());
    }

    @Test
    void theInterfaceFromTheFileNameAndWhatCannotBePlaced() {
        String bare = "Priority trust state: dscp\nPFC configuration:\npriority 0 1 2 3 4 5 6 7\nenabled 0 0 0 1 0 0 0 0\n";
        ImportResult r = TestSupport.importTexts("gpu-node-01/lldp.kv", LLDP, "gpu-node-01/mlnx_qos-ens2f0np0.txt", bare,
                "gpu-node-01/mlnx_qos-ens9f0np0.txt", bare, "mlnx_qos.txt", bare);
        assertEquals(List.of(3), nic(r, "gpu-node-01 ens2f0np0").qos().pfcPriorities());
        assertNull(nic(r, "gpu-node-01 ens1f0np0").qos());
        List<Diagnostic> w = TestSupport.atLeast(r.model(), Severity.WARNING);
        assertEquals(1, w.size(), w.toString());
        assertEquals("mlnx_qos.txt", w.get(0).source());
        assertTrue(w.get(0).message().contains("is not known"), w.toString());
        assertTrue(r.model().diagnostics().stream().anyMatch(d -> d.message().contains("ens9f0np0: its QoS settings were read but no LLDP")),
                r.model().diagnostics().toString());
    }

    @Test
    void anEnabledRowWithoutItsPriorityRowIsRefusedAtItsLine() {
        String qos = "root@gpu-node-01:~# mlnx_qos -i ens1f0np0\nDCBX mode: OS controlled\nPFC configuration:\nenabled 0 0 0 1 0 0 0 0\n";
        ImportResult r = TestSupport.importTexts("gpu-node-01/lldp.kv", LLDP, "q.txt", qos);
        List<Diagnostic> w = TestSupport.atLeast(r.model(), Severity.WARNING);
        assertEquals(1, w.size(), w.toString());
        assertEquals(4, w.get(0).line());
        assertNull(nic(r, "gpu-node-01 ens1f0np0").qos());
    }

    private static String table(String row3, String row5) {
        StringBuilder b = new StringBuilder("root@gpu-node-01:~# mlnx_qos -i ens1f0np0\nPriority trust state: dscp\ndscp2prio mapping:\n");
        for (int p = 0; p < 8; p++) {
            String row = p == 3 ? row3 : p == 5 ? row5 : null;
            if (row == null) {
                StringBuilder r = new StringBuilder();
                for (int d = p * 8 + 7; d >= p * 8; d--) {
                    r.append(String.format("%02d,", d));
                }
                row = r.toString();
            }
            b.append("\tprio:").append(p).append(" dscp:").append(row).append("\n");
        }
        return b.append("PFC configuration:\n\tpriority    0   1   2   3   4   5   6   7\n\tenabled     0   0   0   1   0   0   0   0\n")
                .toString();
    }

    @Test
    void theDscpTableIsKept() {
        ImportResult r = TestSupport.importTexts("gpu-node-01/lldp.kv", LLDP, "q.txt",
                table("31,30,29,28,27,25,24,", "47,46,45,44,43,42,41,40,26,"));
        assertEquals(List.of(), TestSupport.atLeast(r.model(), Severity.WARNING));
        RoceQos q = nic(r, "gpu-node-01 ens1f0np0").qos();
        assertEquals(64, q.dscpToPriority().size());
        assertEquals(5, q.priorityOfDscp(26));
        assertEquals(3, q.priorityOfDscp(27));
        assertEquals(0, q.priorityOfDscp(0));
    }

    @Test
    void aPartialOrOutOfRangeDscpTableIsSaidAndTheDefaultUsed() {
        // DSCP 26 missing from every row, and a DSCP of 3 digits
        ImportResult r = TestSupport.importTexts("gpu-node-01/lldp.kv", LLDP, "q.txt",
                table("31,30,29,28,27,25,24,", "47,46,45,44,43,42,41,40,100,"));
        List<Diagnostic> w = TestSupport.atLeast(r.model(), Severity.WARNING);
        assertEquals(2, w.size(), w.toString());
        assertTrue(w.get(0).message().contains("DSCP 100 is past 63"), w.toString());
        assertEquals(9, w.get(0).line());
        assertTrue(w.get(1).message().contains("names 63 of the 64 DSCP values"), w.toString());
        RoceQos q = nic(r, "gpu-node-01 ens1f0np0").qos();
        assertEquals(List.of(), q.dscpToPriority());
        assertEquals(3, q.priorityOfDscp(26)); // the default table: DSCP / 8
        assertEquals(List.of(3), q.pfcPriorities()); // the PFC settings survive
    }
}
