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
}
