package org.fabricscope.importers.ibnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.fabric.LinkSpeed;
import org.fabricscope.model.fabric.LinkWidth;
import org.fabricscope.model.fabric.NodeKind;
import org.fabricscope.model.fabric.PhysState;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.PortState;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.diagnosis.Diagnosis;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.diagnosis.LinkDegradedCheck;
import org.junit.jupiter.api.Test;

/**
 * ibnetdiscover -p and -l, and iblinkinfo. Line shapes follow the printf formats of rdma-core's
 * infiniband-diags (ibnetdiscover.c dump_ports_report/list_node, iblinkinfo.c print_port/print_node_header).
 */
class PortsListAndLinkinfoTest {
    static final long LEAF = 0x0002c90200400000L;
    static final long SPINE = 0x0002c90200400100L;
    static final long H1 = 0x0002c90300001000L;
    static final long H1_PORT = 0x0002c90300001001L;

    static final String TOPO = """
            Switch\t41 "S-0002c90200400000"\t\t# "MF0;leaf-1:MQM8700/U1" enhanced port 0 lid 2 lmc 0
            [1]\t"H-0002c90300001000"[1](2c90300001001) \t\t# "h1 mlx5_0" lid 10 4xHDR
            [5]\t"S-0002c90200400100"[5]\t\t# "spine-1" lid 3 4xHDR

            Switch\t41 "S-0002c90200400100"\t\t# "spine-1" enhanced port 0 lid 3 lmc 0
            [5]\t"S-0002c90200400000"[5]\t\t# "MF0;leaf-1:MQM8700/U1" lid 2 4xHDR

            Ca\t2 "H-0002c90300001000"\t\t# "h1 mlx5_0"
            [1](2c90300001001) \t"S-0002c90200400000"[1]\t\t# lid 10 lmc 0 "MF0;leaf-1:MQM8700/U1" lid 2 4xHDR
            """;

    static FabricModel clean(ImportResult r) {
        assertEquals("", TestSupport.dump(TestSupport.atLeast(r.model(), Severity.WARNING)));
        return r.model();
    }

    // ---- ibnetdiscover -p: "%2s %5d %2d 0x%016x %s %s" then " - %2s %5d %2d 0x%016x ( '%s' - '%s' )" or "%36s'%s'"
    static final String PORTS = """
            SW     2 41 0x0002c90200400000 ?? ???                                    'MF0;leaf-1:MQM8700/U1'
            SW     2  5 0x0002c90200400000 4x HDR - SW     3  5 0x0002c90200400100 ( 'MF0;leaf-1:MQM8700/U1' - 'spine-1' )
            SW     2  1 0x0002c90200400000 4x HDR - CA    10  1 0x0002c90300001001 ( 'MF0;leaf-1:MQM8700/U1' - 'h1 mlx5_0' )
            SW     3  5 0x0002c90200400100 4x HDR - SW     2  5 0x0002c90200400000 ( 'spine-1' - 'MF0;leaf-1:MQM8700/U1' )
            CA    10  1 0x0002c90300001001 4x HDR - SW     2  1 0x0002c90200400000 ( 'h1 mlx5_0' - 'MF0;leaf-1:MQM8700/U1' )
            CA    11  1 0x0002c90300002001 2x NDR - SW     2  7 0x0002c90200400000 ( 'h2 mlx5_0' - 'MF0;leaf-1:MQM8700/U1' )
            """;

    @Test
    void portsReportAlone() {
        ImportResult r = TestSupport.importTexts("ports.txt", PORTS);
        assertEquals("ibnetdiscover-ports", r.formats().get("ports.txt"));
        FabricModel m = clean(r);
        assertEquals(3, m.cables().size(), "each link once though both ends list it");
        assertEquals("leaf-1", m.node(LEAF).displayName());
        assertEquals(2, m.node(LEAF).lid());
        assertNotNull(m.node(LEAF).port(41), "a port with no peer is still listed");
        assertNull(m.node(LEAF).port(41).cable());
        Cable ndr = m.node(LEAF).port(7).cable();
        assertEquals(LinkWidth.X2, ndr.width());
        assertEquals(LinkSpeed.NDR, ndr.speed());
        // -p prints port GUIDs only: a CA read from -p alone is keyed by its port GUID
        assertEquals(2, m.channelAdapters().size());
        assertEquals(2, m.hosts().size());
    }

    @Test
    void portsReportWithTopologyAddsNoPhantomCas() {
        ImportResult r = TestSupport.importTexts("topo.txt", TOPO, "ports.txt", PORTS);
        FabricModel m = clean(r);
        assertEquals(2, m.channelAdapters().size(), m.channelAdapters().toString());
        assertEquals(m.node(H1), m.node(LEAF).port(1).peer().node());
        assertEquals(3, m.cables().size(), "2 from the topology plus h2 from -p");
    }

    // ---- ibnetdiscover -l: "%s\t : 0x%016x ports %d devid 0x%x vendid 0x%x \"%s\""
    @Test
    void nodeList() {
        String list = """
                Ca\t : 0x0002c90300001000 ports 2 devid 0x101b vendid 0x2c9 "h1 mlx5_0"
                Ca\t : 0x0002c90300001100 ports 1 devid 0xcf09 vendid 0x2c9 "Mellanox Technologies Aggregation Node"
                Switch\t : 0x0002c90200400000 ports 41 devid 0xd2f0 vendid 0x2c9 "MF0;leaf-1:MQM8700/U1"
                Router\t : 0x0002c90300005000 ports 2 devid 0x1234 vendid 0x2c9 "rt-1"
                """;
        ImportResult r = TestSupport.importTexts("list.txt", list);
        assertEquals("ibnetdiscover-list", r.formats().get("list.txt"));
        FabricModel m = clean(r);
        assertEquals(4, m.nodes().size());
        assertEquals(0, m.cables().size());
        FabricNode sw = m.node(LEAF);
        assertEquals(NodeKind.SWITCH, sw.kind());
        assertEquals(41, sw.numPorts());
        assertEquals(0xd2f0, sw.deviceId());
        assertEquals(0x2c9, sw.vendorId());
        assertEquals("MQM8700", sw.switchModel());
        assertEquals(NodeKind.ROUTER, m.node(0x0002c90300005000L).kind());
        assertEquals(1, m.hosts().size(), "the SHARP node is not a host");
    }

    // ---- iblinkinfo (rdma-core): "Switch: 0x%016x %s:" / "CA: %s:" headers;
    //      "      %6d %4d[%2s] ==(%3s %18s %6s/%8s)==>  %6d %4d[%2s] \"%s\" (%s %s)"; CA ports start with their port GUID
    static final String LINKINFO = """
            Switch: 0x0002c90200400000 leaf-1:
                       2    1[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>      10    1[  ] "h1 mlx5_0" ( )
                       2    2[  ] ==( 1X        53.125 Gbps Active/  LinkUp)==>      11    1[  ] "h2 mlx5_0" (Could be 4X )
                       2    3[  ] ==(                Down/ Polling)==>             [  ] "" ( )
                       2    4[  ] ==( 4X        53.125 Gbps   Init/  LinkUp)==>      12    1[  ] "h3 mlx5_0" ( )
                       2    5[  ] ==( 4X         25.78125 Gbps Active/  LinkUp)==>       3    5[  ] "spine-1" ( Could be 53.125 Gbps)
                       2    6[  ] ==( 4X  10.0 Gbps (FDR10) Active/  LinkUp)==>       3    6[  ] "spine-1" ( )
            Switch: 0x0002c90200400100 spine-1:
                       3    5[  ] ==( 4X         25.78125 Gbps Active/  LinkUp)==>       2    5[  ] "leaf-1" ( Could be 53.125 Gbps)
                       3    6[  ] ==( 4X  10.0 Gbps (FDR10) Active/  LinkUp)==>       2    6[  ] "leaf-1" ( )
                       3    7[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>      99    1[  ] "not-described" ( )
            CA: h1 mlx5_0:
                  0x0002c90300001001     10    1[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>       2    1[  ] "leaf-1" ( )
                  0x0002c90300001002      0    2[  ] ==(                Down/Disabled)==>             [  ] "" ( )
            CA: h2 mlx5_0:
                  0x0002c90300002001     11    1[  ] ==( 1X        53.125 Gbps Active/  LinkUp)==>       2    2[  ] "leaf-1" (Could be 4X )
            CA: h3 mlx5_0:
                  0x0002c90300003001     12    1[  ] ==( 4X        53.125 Gbps   Init/  LinkUp)==>       2    4[  ] "leaf-1" ( )
            """;

    @Test
    void linkinfoAlone() {
        ImportResult r = TestSupport.importTexts("linkinfo.txt", LINKINFO);
        assertEquals("iblinkinfo", r.formats().get("linkinfo.txt"));
        FabricModel m = clean(r);
        FabricNode leaf = m.node(LEAF);
        assertEquals("leaf-1", leaf.displayName());
        assertEquals(2, leaf.lid());
        Port p1 = leaf.port(1);
        assertEquals(LinkWidth.X4, p1.width());
        assertEquals(LinkSpeed.HDR, p1.speed());
        assertEquals(PortState.ACTIVE, p1.state());
        assertEquals(PhysState.LINK_UP, p1.physState());
        Port p3 = leaf.port(3);
        assertEquals(PortState.DOWN, p3.state());
        assertEquals(PhysState.POLLING, p3.physState());
        assertNull(p3.cable());
        assertEquals(LinkWidth.X4, leaf.port(2).couldBeWidth());
        assertEquals(LinkSpeed.HDR, leaf.port(5).couldBeSpeed());
        assertEquals(LinkSpeed.EDR, leaf.port(5).speed());
        assertEquals(LinkSpeed.FDR10, leaf.port(6).speed());
        assertEquals(PortState.INIT, leaf.port(4).state());
        // the HCAs: one node per CA header, however many ports it lists
        assertEquals(3, m.channelAdapters().size(), m.channelAdapters().toString());
        FabricNode h1 = m.nodeByPortGuid(H1_PORT);
        assertNotNull(h1);
        assertEquals(2, h1.ports().size());
        assertEquals(PhysState.DISABLED, h1.port(2).physState());
        assertEquals(h1, leaf.port(1).peer().node());
        // cables: leaf-h1, leaf-h2, leaf-h3, leaf-spine x2 (parallel); spine port 7's peer is unknown
        assertEquals(5, m.cables().size());
        assertEquals(2, m.cables().stream().filter(c -> c.touches(m.node(SPINE))).count());
        assertTrue(m.diagnostics().stream().anyMatch(d -> d.severity() == Severity.INFO
                && d.message().contains("not-described") && d.line() == 11));
    }

    @Test
    void linkinfoFindingsDegradedAndNotActive() {
        FabricModel m = TestSupport.importTexts("linkinfo.txt", LINKINFO).model();
        List<Finding> f = Diagnosis.fabric(ErrorThresholds.defaults()).run(m, ErrorThresholds.defaults());
        assertEquals(Severity.ERROR, f.get(0).severity());
        assertTrue(f.stream().anyMatch(x -> x.id().equals("link-degraded") && x.severity() == Severity.ERROR
                && x.title().contains("1xHDR")), f.toString());
        assertTrue(f.stream().anyMatch(x -> x.id().equals("link-degraded") && x.severity() == Severity.WARNING
                && x.title().contains("4xEDR")), f.toString());
        assertTrue(f.stream().anyMatch(x -> x.id().equals("port-not-active")), f.toString());
        assertTrue(LinkDegradedCheck.assess(m).values().stream().anyMatch(why -> why.contains("ends support 4x")));
    }

    @Test
    void linkinfoWithTopologyJoinsCaPortsByPortGuid() {
        ImportResult r = TestSupport.importTexts("topo.txt", TOPO, "linkinfo.txt", LINKINFO);
        FabricModel m = clean(r);
        assertEquals(3, m.channelAdapters().size(), "h1 by its node GUID; h2 and h3 known only from iblinkinfo");
        FabricNode h1 = m.node(H1);
        assertEquals(PortState.ACTIVE, h1.port(1).state());
        assertEquals(PhysState.DISABLED, h1.port(2).physState());
        assertEquals(PortState.ACTIVE, m.node(LEAF).port(1).state());
        assertEquals("leaf-1", m.node(LEAF).displayName(), "the MF0 name is kept");
        assertEquals("MQM8700", m.node(LEAF).switchModel());
    }

    @Test
    void linkinfoLineMode() {
        // -l: "0x%016x \"%30s\" " before each port; the peer gets its GUID too
        String l = """
                0x0002c90200400000 "                        leaf-1"      2    1[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>  0x0002c90300001001     10    1[  ] "h1 mlx5_0" ( )
                0x0002c90200400000 "                        leaf-1"      2    5[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>  0x0002c90200400100      3    5[  ] "spine-1" ( )
                0x0002c90200400100 "                       spine-1"      3    5[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>  0x0002c90200400000      2    5[  ] "leaf-1" ( )
                0x0002c90200400000 "                        leaf-1"      2    3[  ] ==(                Down/ Polling)==>             [  ] "" ( )
                """;
        ImportResult r = TestSupport.importTexts("topo.txt", TOPO, "linkinfo-l.txt", l);
        assertEquals("iblinkinfo", r.formats().get("linkinfo-l.txt"));
        FabricModel m = clean(r);
        assertEquals(PortState.ACTIVE, m.node(LEAF).port(5).state());
        assertEquals(PortState.DOWN, m.node(LEAF).port(3).state());
        assertEquals(2, m.cables().size());
        assertEquals(3, m.nodes().size());
        // alone: -l carries no node types, so every node reads as a switch; the leaf-spine cable is found by LID
        FabricModel alone = TestSupport.importTexts("linkinfo-l.txt", l).model();
        assertEquals(1, alone.cables().size());
        assertEquals(alone.node(SPINE).port(5), alone.node(LEAF).port(5).peer());
        assertEquals("spine-1", alone.node(SPINE).displayName());
    }

    @Test
    void olderLinkinfoHeaderWithoutColon() {
        String old = """
                Switch 0x0002c90200400000 leaf-1:
                           2    1[  ] ==( 4X 53.125 Gbps Active/  LinkUp)==>      10    1[  ] "h1 mlx5_0" ( )
                """;
        FabricModel m = clean(TestSupport.importTexts("topo.txt", TOPO, "old.txt", old));
        assertEquals(PortState.ACTIVE, m.node(LEAF).port(1).state());
    }

    @Test
    void linkinfoBadLineIsReportedAndReadingGoesOn() {
        String text = LINKINFO.replace("       2    2[  ] ==( 1X", "       2    2[  ] ==( 1X ?? garbled");
        FabricModel m = TestSupport.importTexts("linkinfo.txt", text).model();
        List<Diagnostic> ws = TestSupport.atLeast(m, Severity.WARNING);
        assertEquals(1, ws.size(), TestSupport.dump(ws));
        assertEquals(3, ws.get(0).line());
        assertEquals(PortState.ACTIVE, m.node(LEAF).port(5).state());
    }
}
