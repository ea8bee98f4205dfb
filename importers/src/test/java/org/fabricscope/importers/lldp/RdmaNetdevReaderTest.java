package org.fabricscope.importers.lldp;

import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.fabric.FabricNode;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** rdma link show, ibdev2netdev and the sysfs listing name the LLDP-placed NICs by their RDMA device. */
class RdmaNetdevReaderTest {
    static final Path RDMA = LldpNeighborsReaderTest.DIR.resolve("rdma");

    @Test
    void everyFormNamesTheNicsByTheirRdmaDevice() throws IOException {
        assumeTrue(Files.isDirectory(RDMA), "sample-fabrics/roce-lldp/rdma not present");
        List<String> args = new ArrayList<>();
        for (String n : LldpNeighborsReaderTest.NODES) {
            args.add("healthy/" + n + "/lldpcli-neighbors.json");
            args.add(LldpNeighborsReaderTest.read(LldpNeighborsReaderTest.DIR.resolve("healthy").resolve(n).resolve("lldpcli-neighbors.json")));
        }
        for (String f : List.of("gpu-node-01/rdma-link.txt", "gpu-node-02/rdma-link.txt", "gpu-node-03/ibdev2netdev.txt",
                "gpu-node-04/sysfs-net.txt")) {
            args.add("rdma/" + f);
            args.add(LldpNeighborsReaderTest.read(RDMA.resolve(f)));
        }
        ImportResult r = TestSupport.importTexts(args.toArray(String[]::new));
        assertEquals(RdmaNetdevReader.ID, r.formats().get("rdma/gpu-node-03/ibdev2netdev.txt"));
        assertEquals(RdmaNetdevReader.ID, r.formats().get("rdma/gpu-node-04/sysfs-net.txt"));
        assertEquals(List.of(), TestSupport.atLeast(r.model(), Severity.WARNING));
        Set<String> nics = new TreeSet<>();
        for (FabricNode n : r.model().fabric().nodes().values()) {
            if (!n.isSwitch()) {
                nics.add(n.ports().iterator().next().label());
            }
        }
        Set<String> want = new TreeSet<>();
        for (int h = 1; h <= 4; h++) {
            want.add("gpu-node-0" + h + " mlx5_0 ens1f0np0");
            want.add("gpu-node-0" + h + " mlx5_1 ens2f0np0");
        }
        assertEquals(want, nics);
        assertEquals(4, r.model().fabric().hosts().size());
    }

    @Test
    void verboseIbdev2netdevAndInfinibandPortsAndConflicts() {
        String file = """
                ==> gpu-node-01 <==
                0000:3b:00.0 mlx5_0 (MT4123 - MCX653106A-HDAT) ConnectX-6 VPI adapter card fw 20.31.1014 port 1 (ACTIVE) ==> ens1f0np0 (Up)
                link mlx5_2/1 subnet_prefix fe80:0000:0000:0000 lid 3403 sm_lid 1 lmc 0 state ACTIVE physical_state LINK_UP
                link mlx5_1/1 state DOWN physical_state POLLING netdev ens1f0np0
                """;
        String lldp = "lldp.ens1f0np0.chassis.name=leaf-01\nlldp.ens1f0np0.port.ifname=Ethernet0\n";
        ImportResult r = TestSupport.importTexts("maps.txt", file, "gpu-node-01/lldp.kv", lldp);
        List<Diagnostic> w = TestSupport.atLeast(r.model(), Severity.WARNING);
        assertEquals(1, w.size(), w.toString());
        assertEquals(4, w.get(0).line());
        assertTrue(w.get(0).message().contains("keeping mlx5_0"), w.toString());
        assertTrue(r.model().diagnostics().stream().anyMatch(d -> d.line() == 4 && d.message().contains("is DOWN, not ACTIVE")));
        assertEquals(Set.of("gpu-node-01 mlx5_0 ens1f0np0 <-> leaf-01 Ethernet0"), LldpNeighborsReaderTest.cables(r.model()));
    }

    @Test
    void withoutAHostNameTheMapIsSkippedWithAnExplanation() {
        ImportResult r = TestSupport.importTexts("ibdev2netdev.txt", "mlx5_0 port 1 ==> ens1f0np0 (Up)\n");
        List<Diagnostic> w = TestSupport.atLeast(r.model(), Severity.WARNING);
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).message().contains("which host's RDMA devices"), w.toString());
    }
}
