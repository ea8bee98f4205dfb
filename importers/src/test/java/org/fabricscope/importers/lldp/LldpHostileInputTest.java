package org.fabricscope.importers.lldp;

import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Severity;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad LLDP input: each failure names its file and line, and the good tables beside it are kept. */
class LldpHostileInputTest {
    static final String GOOD = """
            -------------------------------------------------------------------------------
            LLDP neighbors:
            -------------------------------------------------------------------------------
            Interface:    ens1f0np0, via: LLDP, RID: 1, Time: 0 day, 00:00:05
              Chassis:
                ChassisID:    mac ea:4a:c0:a5:10:72
                SysName:      leaf-01
                Capability:   Bridge, on
              Port:
                PortID:       ifname Ethernet8
            -------------------------------------------------------------------------------
            """;

    private static List<Diagnostic> warnings(ImportResult r) {
        return TestSupport.atLeast(r.model(), Severity.WARNING);
    }

    private static String kept(ImportResult r) {
        return String.join(",", LldpNeighborsReaderTest.cables(r.model()));
    }

    @Test
    void malformedJsonSectionIsReportedAtItsLineAndTheOtherNodesKept() {
        String file = "==> gpu-node-01 <==\n" + GOOD + "==> gpu-node-02 <==\n{\n  \"lldp\": {\n    \"interface\": [ {\"x\": \n";
        ImportResult r = TestSupport.importTexts("loop.txt", file);
        List<Diagnostic> w = warnings(r);
        assertEquals(1, w.size(), w.toString());
        assertEquals("loop.txt", w.get(0).source());
        assertTrue(w.get(0).line() >= 14, w.toString());
        assertTrue(w.get(0).message().contains("gpu-node-02") && w.get(0).message().contains("not valid JSON"), w.toString());
        assertFalse(w.get(0).message().contains("Exception"), w.toString());
        assertEquals("gpu-node-01 ens1f0np0 <-> leaf-01 Ethernet8", kept(r));
    }

    @Test
    void jsonWithoutLldpObjectIsNotLldpcli() {
        ImportResult r = TestSupport.importTexts("leaf-01/x.json", "==> leaf-01 <==\n{\"lldp\": {}}\n==> leaf-02 <==\n{\"other\": 1}\n");
        assertTrue(warnings(r).stream().anyMatch(d -> d.message().contains("without an \"lldp\" object") && d.line() == 4),
                warnings(r).toString());
    }

    @Test
    void deeplyNestedJsonIsRefusedNotOverflowed() {
        String deep = "{\"lldp\": " + "[\n".repeat(100_000) + "]\n".repeat(100_000) + "}";
        ImportResult r = TestSupport.importTexts("leaf-01/lldp.json", deep);
        List<Diagnostic> w = warnings(r);
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).message().contains("not valid JSON"), w.toString());
        assertTrue(w.get(0).message().contains("LldpJson.MAX_DEPTH"), w.toString());
        assertFalse(w.get(0).message().contains("StreamReadConstraints"), w.toString());
    }

    @Test
    void xmlDoctypeAndEntitiesAreRefused() {
        String xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE lldp [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n"
                + "<lldp label=\"LLDP neighbors\"><interface name=\"eth0\"><chassis><name>&x;</name></chassis></interface></lldp>\n";
        ImportResult r = TestSupport.importTexts("gpu-node-01/lldp.xml", "==> gpu-node-01 <==\n" + xml);
        List<Diagnostic> w = warnings(r);
        assertTrue(w.stream().anyMatch(d -> d.message().contains("DOCTYPE") && d.line() == 3), w.toString());
        assertTrue(w.stream().noneMatch(d -> d.message().contains("root:")), w.toString());
        assertEquals(0, r.model().fabric().cables().size());
    }

    @Test
    void deeplyNestedXmlStopsAtTheLimit() {
        String xml = "<lldp>" + "<a>".repeat(1000) + "</a>".repeat(1000) + "</lldp>";
        ImportResult r = TestSupport.importTexts("leaf-01/lldp.xml", xml);
        assertTrue(warnings(r).stream().anyMatch(d -> d.message().contains("LldpXml.MAX_DEPTH")), warnings(r).toString());
    }

    @Test
    void aTableWithoutItsNodeNameIsSkippedWithAnExplanation() {
        ImportResult r = TestSupport.importTexts("lldpcli-neighbors.txt", GOOD);
        List<Diagnostic> w = warnings(r);
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).message().contains("without its node's name"), w.toString());
        assertEquals(0, r.model().fabric().cables().size());
    }

    @Test
    void aNeighbourWithoutPortIdIsSkippedAndTheRestKept() {
        String kv = """
                lldp.eth0.via=LLDP
                lldp.eth0.chassis.mac=aa:bb:cc:dd:ee:ff
                lldp.eth0.chassis.name=leaf-01
                lldp.eth1.via=LLDP
                lldp.eth1.chassis.name=leaf-02
                lldp.eth1.port.ifname=Ethernet8
                """;
        ImportResult r = TestSupport.importTexts("gpu-node-01/lldp.kv", kv);
        List<Diagnostic> w = warnings(r);
        assertEquals(1, w.size(), w.toString());
        assertEquals(1, w.get(0).line());
        assertTrue(w.get(0).message().contains("sent no port id"), w.toString());
        assertEquals("gpu-node-01 eth1 <-> leaf-02 Ethernet8", kept(r));
    }

    @Test
    void manyNeighboursGeneratedAreAllRead() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            sb.append("lldp.Ethernet").append(i * 4).append(".chassis.name=gpu-node-").append(i).append('\n');
            sb.append("lldp.Ethernet").append(i * 4).append(".chassis.Station.enabled=on\n");
            sb.append("lldp.Ethernet").append(i * 4).append(".port.ifname=ens1f0np0\n");
        }
        ImportResult r = TestSupport.importTexts("leaf-01/lldp.kv", sb.toString());
        assertEquals(List.of(), warnings(r));
        assertEquals(2000, r.model().fabric().cables().size());
        assertEquals(2000, r.model().fabric().hosts().size());
    }

    @Test
    void overlongValuesAndTooManyAddressesAreCutWithAWarning() {
        StringBuilder kv = new StringBuilder("lldp.eth0.chassis.name=leaf-01\nlldp.eth0.chassis.descr=" + "x".repeat(5000) + "\n");
        for (int i = 0; i < 40; i++) {
            kv.append("lldp.eth0.chassis.mgmt-ip=10.0.0.").append(i).append('\n');
        }
        kv.append("lldp.eth0.port.ifname=Ethernet0\n");
        ImportResult r = TestSupport.importTexts("gpu-node-01/lldp.kv", kv.toString());
        List<Diagnostic> w = warnings(r);
        assertEquals(1, w.size(), w.toString());
        assertEquals(1, w.get(0).line());
        assertTrue(w.get(0).message().contains("NeighbourDraft.MAX_VALUE"), w.toString());
        assertEquals("gpu-node-01 eth0 <-> leaf-01 Ethernet0", kept(r));
    }
}
