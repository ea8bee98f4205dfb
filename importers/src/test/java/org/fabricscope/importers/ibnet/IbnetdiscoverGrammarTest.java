package org.fabricscope.importers.ibnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.CaRole;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.LinkSpeed;
import org.fabricscope.model.fabric.LinkWidth;
import org.fabricscope.model.fabric.NodeKind;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.core.Severity;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The ibnetdiscover grammar of rdma-core's ibnetdiscover.c (FORMATS.md section 7), line shape by line shape. */
class IbnetdiscoverGrammarTest {
    static final long SW1 = 0x0002c90200400000L;
    static final long SW2 = 0x0002c90200400100L;
    static final long CA1 = 0x0002c90300001000L;
    static final long CA1_PORT = 0x0002c90300001001L;

    static final String HEADER = """
            #
            # Topology file: generated on Tue Feb 23 14:02:06 2021
            #
            # Reported max hops discovered: 3
            # Total MADs used: 120
            # Initiated from node 0002c90300001000 port 0002c90300001001
            """;

    /** Two switches (one base, one enhanced port 0), two parallel cables, one HCA. */
    static final String SMALL = HEADER + """

            vendid=0x2c9
            devid=0xd2f0
            sysimgguid=0x2c90200400000
            switchguid=0x2c90200400000(2c90200400000)
            Switch\t41 "S-0002c90200400000"\t\t# "MF0;leaf-1:MQM8700/U1" enhanced port 0 lid 2 lmc 0
            [1]\t"H-0002c90300001000"[1](2c90300001001) \t\t# "node-01 mlx5_0" lid 10 4xHDR
            [39]\t"S-0002c90200400100"[1]\t\t# "spine-1" lid 3 4xHDR
            [40]\t"S-0002c90200400100"[2]\t\t# "spine-1" lid 3 4xHDR

            vendid=0x2c9
            devid=0xcb20
            switchguid=0x2c90200400100(2c90200400100)
            Switch\t36 "S-0002c90200400100"\t\t# "spine-1" base port 0 lid 3 lmc 0
            [1]\t"S-0002c90200400000"[39]\t\t# "MF0;leaf-1:MQM8700/U1" lid 2 4xHDR
            [2]\t"S-0002c90200400000"[40]\t\t# "MF0;leaf-1:MQM8700/U1" lid 2 4xHDR

            vendid=0x2c9
            devid=0x101b
            sysimgguid=0x2c90300001003
            caguid=0x2c90300001000
            Ca\t1 "H-0002c90300001000"\t\t# "node-01 mlx5_0"
            [1](2c90300001001) \t"S-0002c90200400000"[1]\t\t# lid 10 lmc 0 "MF0;leaf-1:MQM8700/U1" lid 2 4xHDR
            """;

    static FabricModel read(String text) {
        return TestSupport.read(new IbnetdiscoverImporter(), text);
    }

    static void assertClean(FabricModel m) {
        assertEquals("", TestSupport.dump(TestSupport.atLeast(m, Severity.WARNING)));
    }

    @Test
    void headerBlocksNodesAndPorts() {
        FabricModel m = read(SMALL);
        assertClean(m);
        assertEquals(3, m.nodes().size());
        FabricNode leaf = m.node(SW1);
        assertEquals(NodeKind.SWITCH, leaf.kind());
        assertEquals(41, leaf.numPorts());
        assertEquals(0x2c9, leaf.vendorId());
        assertEquals(0xd2f0, leaf.deviceId());
        assertEquals(SW1, leaf.sysImgGuid());
        assertEquals(2, leaf.lid());
        assertEquals(Boolean.TRUE, leaf.enhancedPort0());
        assertEquals("leaf-1", leaf.displayName());
        assertEquals("MQM8700", leaf.switchModel());
        assertEquals("MF0;leaf-1:MQM8700/U1", leaf.description());
        FabricNode spine = m.node(SW2);
        assertEquals(Boolean.FALSE, spine.enhancedPort0());
        assertEquals(3, spine.lid());
        assertEquals(0, spine.sysImgGuid(), "no sysimgguid line in the block");
        assertEquals("spine-1", spine.displayName());
        assertNull(spine.switchModel());
        FabricNode ca = m.node(CA1);
        assertEquals(NodeKind.CA, ca.kind());
        assertEquals(CaRole.HOST, ca.role());
        assertEquals(10, ca.port(1).lid());
        assertEquals(CA1_PORT, ca.port(1).portGuid());
        assertEquals(ca, m.nodeByPortGuid(CA1_PORT));
        assertEquals(ca, m.nodeByLid(10));
        assertEquals(leaf, m.nodeByLid(2));
        assertEquals("node-01", ca.host().name());
        // each link once though both ends print it; the two leaf-spine cables stay two
        assertEquals(3, m.cables().size());
        assertEquals(2, m.cables().stream().filter(c -> c.touches(spine)).count());
        Port p1 = leaf.port(1);
        assertEquals(ca.port(1), p1.peer());
        assertEquals(LinkWidth.X4, p1.width());
        assertEquals(LinkSpeed.HDR, p1.speed());
        assertEquals("4xHDR", p1.cable().rateToken());
        assertEquals(2, leaf.lid());
        assertEquals(2, leaf.port(39).lid(), "switch ports answer on the port-0 LID");
        assertNotNull(leaf.evidence());
        assertEquals(12, leaf.evidence().line());
    }

    @Test
    void detectedAsIbnetdiscover() {
        ImportResult r = TestSupport.importTexts("topo.txt", SMALL);
        assertEquals("ibnetdiscover", r.formats().get("topo.txt"));
        assertEquals(3, r.model().cables().size());
    }

    @ParameterizedTest
    @CsvSource({
            "1xSDR, X1, SDR", "4xDDR, X4, DDR", "4xQDR, X4, QDR", "4xFDR10, X4, FDR10", "4xFDR, X4, FDR",
            "4xEDR, X4, EDR", "2xHDR, X2, HDR", "4xHDR, X4, HDR", "8xNDR, X8, NDR", "12xNDR, X12, NDR",
            "2xNDR, X2, NDR", "4xXDR, X4, XDR", "12xQDR, X12, QDR", "1xEDR, X1, EDR"})
    void everyWidthAndSpeed(String token, LinkWidth width, LinkSpeed speed) {
        FabricModel m = read("""
                Switch\t8 "S-0002c90200400000"\t\t# "sw" base port 0 lid 1 lmc 0
                [1]\t"H-0002c90300001000"[1](2c90300001001) \t\t# "h1 mlx5_0" lid 7 %s
                """.formatted(token));
        assertClean(m);
        Cable c = m.cables().get(0);
        assertEquals(width, c.width());
        assertEquals(speed, c.speed());
        assertEquals(token, c.rateToken());
    }

    @Test
    void unknownWidthOrSpeedMarks() {
        // "??" for an unknown width and "???" for an unknown speed are what ibnetdiscover prints
        FabricModel m = read("""
                Switch\t8 "S-0002c90200400000"\t\t# "sw" base port 0 lid 1 lmc 0
                [1]\t"H-0002c90300001000"[1](2c90300001001) \t\t# "h1 mlx5_0" lid 7 ??HDR
                [2]\t"H-0002c90300002000"[1](2c90300002001) \t\t# "h2 mlx5_0" lid 8 4x???
                """);
        assertClean(m);
        assertEquals(2, m.cables().size());
        Cable c1 = m.node(SW1).port(1).cable();
        assertNull(c1.width());
        assertEquals(LinkSpeed.HDR, c1.speed());
        Cable c2 = m.node(SW1).port(2).cable();
        assertEquals(LinkWidth.X4, c2.width());
        assertNull(c2.speed());
        assertEquals("4x?", c2.rateToken());
    }

    @Test
    void extPortNumbersOnBothEnds() {
        FabricModel m = read("""
                Switch\t36 "S-0002c90200400000"\t\t# "line-1" enhanced port 0 lid 2 lmc 0
                [1][ext 17]\t"S-0002c90200400100"[5][ext 3]\t\t# "spine-1" lid 3 4xEDR
                [2][ext 18]\t"H-0002c90300001000"[1](2c90300001001) \t\t# "n1 mlx5_0" lid 10 4xEDR

                Ca\t1 "H-0002c90300001000"\t\t# "n1 mlx5_0"
                [1](2c90300001001) \t"S-0002c90200400000"[2][ext 18]\t\t# lid 10 lmc 0 "line-1" lid 2 4xEDR
                """);
        assertClean(m);
        assertEquals(17, m.node(SW1).port(1).extNumber());
        assertEquals(3, m.node(SW2).port(5).extNumber());
        assertEquals(18, m.node(SW1).port(2).extNumber());
        assertEquals(0, m.node(CA1).port(1).extNumber());
        assertEquals(2, m.cables().size());
    }

    @Test
    void portLinesWithAndWithoutPortGuids() {
        FabricModel m = read("""
                Switch\t36 "S-0002c90200400000"\t\t# "sw" enhanced port 0 lid 2 lmc 0
                [1]\t"H-0002c90300001000"[1](2c90300001001) \t\t# "n1 mlx5_0" lid 10 4xHDR
                [2]\t"H-0002c90300002000"[1]\t\t# "n2 mlx5_0" lid 11 4xHDR

                Ca\t2 "H-0002c90300003000"\t\t# "n3 mlx5_0"
                [1](2c90300003001) \t"S-0002c90200400000"[3]\t\t# lid 12 lmc 2 "sw" lid 2 4xHDR
                [2](2c90300003002) \t"H-0002c90300004000"[1] (2c90300004001) \t\t# lid 13 lmc 0 "n4 mlx5_0" lid 14 4xHDR
                """);
        assertClean(m);
        assertEquals(CA1_PORT, m.node(CA1).port(1).portGuid());
        assertEquals(0, m.node(0x0002c90300002000L).port(1).portGuid(), "peer port GUID not printed");
        assertEquals(11, m.node(0x0002c90300002000L).port(1).lid());
        Port p = m.node(0x0002c90300003000L).port(1);
        assertEquals(0x0002c90300003001L, p.portGuid());
        assertEquals(12, p.lid());
        assertEquals(2, p.lmc());
        Port back2back = m.node(0x0002c90300004000L).port(1);
        assertEquals(0x0002c90300004001L, back2back.portGuid());
        assertEquals(14, back2back.lid());
        assertEquals(m.node(0x0002c90300003000L).port(2), back2back.peer());
        assertEquals(4, m.cables().size());
    }

    @Test
    void groupedChassisOutput() {
        FabricModel m = read(HEADER + """

                Chassis 1 (guid 0x2c9020040a000)

                # Spine Nodes
                vendid=0x2c9
                devid=0xbd36
                sysimgguid=0x2c9020040a000\t\t# Chassis 1 (ISR9288)
                switchguid=0x2c90200400100(2c90200400100)\t# ISR9288 Spine 1 Chip 1
                Switch\t24 "S-0002c90200400100"\t\t# "spine-chip" base port 0 lid 3 lmc 0
                [1][ext 1]\t"S-0002c90200400000"[19][ext 19]\t\t# "line-chip" lid 2 4xDDR

                # Line Nodes
                vendid=0x2c9
                devid=0xbd36
                sysimgguid=0x2c9020040a000\t\t# Chassis 1 (ISR9288)
                switchguid=0x2c90200400000(2c90200400000)\t# ISR9288 Line 1 Chip 1
                Switch\t24 "S-0002c90200400000"\t\t# "line-chip" base port 0 lid 2 lmc 0
                [19][ext 19]\t"S-0002c90200400100"[1][ext 1]\t\t# "spine-chip" lid 3 4xDDR
                [1][ext 1]\t"H-0002c90300001000"[1](2c90300001001) \t\t# "n1 HCA-1" lid 10 4xDDR slot 3

                # Chassis Switches

                # Chassis CAs

                Non-Chassis Nodes

                vendid=0x2c9
                devid=0x6274
                caguid=0x2c90300001000
                Ca\t1 "H-0002c90300001000"\t\t# "n1 HCA-1"
                [1](2c90300001001) \t"S-0002c90200400000"[1][ext 1]\t\t# lid 10 lmc 0 "line-chip" lid 2 4xDDR
                """);
        assertClean(m);
        assertEquals(2, m.switches().size());
        assertEquals(2, m.cables().size());
        assertEquals(0x0002c9020040a000L, m.node(SW1).sysImgGuid());
        assertEquals(1, m.node(SW1).port(1).extNumber());
        assertEquals(LinkSpeed.DDR, m.node(CA1).port(1).speed());
    }

    @Test
    void fullInfoSuffixes() {
        FabricModel m = read("""
                Switch\t36 "S-0002c90200400000"\t\t# "sw" enhanced port 0 lid 2 lmc 0
                [1]\t"H-0002c90300001000"[1](2c90300001001) \t\t# "n1 mlx5_0" lid 10 4xHDR s=4 w=2 v=4 e=4
                """);
        assertClean(m);
        assertEquals("4xHDR", m.cables().get(0).rateToken());
    }

    @Test
    void nodeNameMapRenamesSwitchesButCasKeepTheirHeaderDescription() {
        ImportResult r = TestSupport.importTexts(
                "names.map", """
                        # node-name-map
                        0x0002c90200400000 "leaf-renamed"
                        0002c90200400100 "spine-renamed"   # trailing comment
                        0x0002c90300001000 "mapped-ca-name"
                        0x0002c90300009999 "not-in-fabric"
                        """,
                "topo.txt", SMALL);
        assertEquals("node-name-map", r.formats().get("names.map"));
        FabricModel m = r.model();
        assertClean(m);
        assertEquals("leaf-renamed", m.node(SW1).displayName());
        assertEquals("spine-renamed", m.node(SW2).displayName());
        assertEquals("node-01 mlx5_0", m.node(CA1).description());
        assertNotNull(m.host("node-01"));
        assertNull(m.host("mapped-ca-name"));
    }

    @Test
    void nodeNameMapNamesACaThatNoFileDescribed() {
        ImportResult r = TestSupport.importTexts(
                "names.map", "0x0002c90300002000 \"gpu-07 mlx5_3\"\n",
                "topo.txt", """
                        Switch\t36 "S-0002c90200400000"\t\t# "sw" enhanced port 0 lid 2 lmc 0
                        [2]\t"H-0002c90300002000"[1]\t\t# "" lid 11 4xHDR
                        """);
        assertEquals("gpu-07 mlx5_3", r.model().node(0x0002c90300002000L).description());
        assertNotNull(r.model().host("gpu-07"));
    }

    @Test
    void managedSwitchDescriptionsGiveNameAndModel() {
        FabricModel m = read("""
                Switch\t65 "S-0002c90200400000"\t\t# "MF0;su1-leaf-03:MQM9700/U1" enhanced port 0 lid 2 lmc 0
                Switch\t41 "S-0002c90200400100"\t\t# "MF0;ib-core-7:MQM8790" enhanced port 0 lid 3 lmc 0
                Switch\t36 "S-0002c90200400200"\t\t# "SwitchIB Mellanox Technologies" base port 0 lid 4 lmc 0
                """);
        assertClean(m);
        assertEquals("su1-leaf-03", m.node(SW1).displayName());
        assertEquals("MQM9700", m.node(SW1).switchModel());
        assertEquals("ib-core-7", m.node(SW2).displayName());
        assertEquals("MQM8790", m.node(SW2).switchModel());
        assertEquals("SwitchIB Mellanox Technologies", m.node(0x0002c90200400200L).displayName());
        assertNull(m.node(0x0002c90200400200L).switchModel());
    }

    @Test
    void trailingAndDoubleSpacesInDescriptions() {
        FabricModel m = read("""
                Switch\t36 "S-0002c90200400000"\t\t# "sw" enhanced port 0 lid 2 lmc 0   \s
                [1]\t"H-0002c90300001000"[1](2c90300001001) \t\t# "gpu-01 mlx5_0 " lid 10 4xHDR  \s
                [2]\t"H-0002c90300002000"[1](2c90300002001) \t\t# "gpu-01  mlx5_1" lid 11 4xHDR
                [3]\t"H-0002c90300003000"[1](2c90300003001) \t\t# " gpu-02 HCA-1" lid 12 4xHDR
                """);
        assertClean(m);
        assertEquals("gpu-01 mlx5_0 ", m.node(CA1).description(), "description kept as printed");
        assertEquals("gpu-01 mlx5_0", m.node(CA1).displayName());
        assertEquals(2, m.host("gpu-01").adapters().size());
        assertNotNull(m.host("gpu-02"));
        assertEquals(2, m.hosts().size());
    }

    @Test
    void crlfLineEndings() {
        FabricModel m = read(SMALL.replace("\n", "\r\n"));
        assertClean(m);
        assertEquals(3, m.cables().size());
        assertEquals("node-01 mlx5_0", m.node(CA1).description());
        assertEquals("leaf-1", m.node(SW1).displayName());
    }

    @Test
    void lostTabsFromATerminalCapture() {
        String noTabs = SMALL.replace("\t", "");
        assertTrue(noTabs.contains("Switch41 \"S-0002c90200400000\"# \"MF0;leaf-1:MQM8700/U1\""));
        FabricModel m = read(noTabs);
        assertClean(m);
        assertEquals(3, m.nodes().size());
        assertEquals(3, m.cables().size());
        assertEquals(41, m.node(SW1).numPorts());
        assertEquals(2, m.node(SW1).lid());
        assertEquals(10, m.node(CA1).port(1).lid());
    }

    @Test
    void syntheticFilesWithoutPort0Tail() {
        FabricModel m = read("""
                Switch 24 "S-0002c90200400000" # "sw-a"
                [1] "S-0002c90200400100"[1] # "sw-b" lid 0 4xQDR
                """);
        assertClean(m);
        assertEquals("sw-a", m.node(SW1).displayName());
        assertNull(m.node(SW1).enhancedPort0());
        assertEquals(1, m.cables().size());
    }

    @Test
    void diffOutputReadsTheCurrentSide() {
        // ibnetdiscover --diff: unchanged headers unprefixed, "< " the cached fabric, "> " the current one
        FabricModel m = read("""

                vendid=0x2c9
                devid=0xd2f0
                switchguid=0x2c90200400000(2c90200400000)
                Switch\t36 "S-0002c90200400000"\t\t# "sw" enhanced port 0 lid 2 lmc 0
                < [1]\t"H-0002c90300001000"[1](2c90300001001) \t\t# "old-host mlx5_0" lid 10 4xHDR
                > [1]\t"H-0002c90300002000"[1](2c90300002001) \t\t# "new-host mlx5_0" lid 11 4xHDR

                < vendid=0x2c9
                < devid=0xd2f0
                < switchguid=0x2c90200400100(2c90200400100)
                < Switch\t36 "S-0002c90200400100"\t\t# "gone" enhanced port 0 lid 3 lmc 0
                < [1]\t"S-0002c90200400000"[2]\t\t# "sw" lid 2 4xHDR

                > vendid=0x2c9
                > devid=0xd2f0
                > switchguid=0x2c90200400200(2c90200400200)
                > Switch\t36 "S-0002c90200400200"\t\t# "added" enhanced port 0 lid 4 lmc 0
                > [1]\t"S-0002c90200400000"[3]\t\t# "sw" lid 2 4xHDR
                < numports = 36
                > numports = 40
                """);
        assertClean(m);
        assertTrue(m.diagnostics().stream().anyMatch(d -> d.severity() == Severity.INFO && d.message().contains("--diff")));
        assertNull(m.node(SW2), "a node only on the old side is not loaded");
        assertNull(m.node(CA1));
        assertNotNull(m.node(0x0002c90300002000L));
        assertEquals("added", m.node(0x0002c90200400200L).displayName());
        assertEquals(2, m.cables().size());
    }

    @Test
    void routersAndRtguidLines() {
        FabricModel m = read("""
                Switch\t36 "S-0002c90200400000"\t\t# "sw" enhanced port 0 lid 2 lmc 0
                [5]\t"R-0002c90300005000"[1](2c90300005001) \t\t# "ib-router-1" lid 20 4xEDR

                vendid=0x2c9
                devid=0x1234
                sysimgguid=0x2c90300005000
                rtguid=0x2c90300005000
                Rt\t2 "R-0002c90300005000"\t\t# "ib-router-1"
                [1](2c90300005001) \t"S-0002c90200400000"[5]\t\t# lid 20 lmc 0 "sw" lid 2 4xEDR
                """);
        assertClean(m);
        FabricNode rt = m.node(0x0002c90300005000L);
        assertEquals(NodeKind.ROUTER, rt.kind());
        assertEquals(2, rt.numPorts());
        assertEquals(0x1234, rt.deviceId());
        assertFalse(rt.isHostAdapter());
        assertTrue(m.hosts().isEmpty());
        assertEquals(1, m.cables().size());
        assertEquals(20, rt.port(1).lid());
    }

    @Test
    void guidsWithTheTopBitSet() {
        // real NVIDIA OUI b8:59:9f: the GUID is a negative Java long and must still parse
        FabricModel m = read("""
                Switch\t41 "S-b8599f0300ed0000"\t\t# "sw" enhanced port 0 lid 2 lmc 0
                [12]\t"H-b8599f0300ed294a"[1](b8599f0300ed294a) \t\t# "luna-0552 mlx5_9" lid 5820 4xHDR
                """);
        assertClean(m);
        FabricNode ca = m.node(0xb8599f0300ed294aL);
        assertNotNull(ca);
        assertEquals(0xb8599f0300ed294aL, ca.port(1).portGuid());
        assertEquals(1, m.cables().size());
        assertEquals(List.of(ca), m.search("0xb8599f0300ed294a", 5));
        assertEquals(List.of(ca), m.search("b8599f0300ed294a", 5));
    }

    @Test
    void diagnosticsCarryFileAndLine() {
        FabricModel m = read("Switch\t36 \"S-0002c90200400000\"\t\t# \"sw\" enhanced port 0 lid 2 lmc 0\n"
                + "[1]\t\"H-0002c90300001000\"[1]\t\t# \"n1\" lid 10 4xZZZ\n");
        List<Diagnostic> ws = TestSupport.atLeast(m, Severity.WARNING);
        assertEquals(1, ws.size(), TestSupport.dump(ws));
        assertEquals("in.txt", ws.get(0).source());
        assertEquals(2, ws.get(0).line());
        assertTrue(ws.get(0).message().contains("4xZZZ"));
        assertEquals(1, m.cables().size(), "the cable is kept without a rate");
        assertEquals("??", m.cables().get(0).rateToken());
    }
}
