package org.fabricscope.importers.ibnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.diagnosis.Diagnosis;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.diagnosis.LinkErrorsCheck;
import org.junit.jupiter.api.Test;

/** perfquery and ibqueryerrors output joined to the ports of an ibnetdiscover topology. */
class CountersTest {
    static final long SW = 0x0002c903006e29b0L;
    static final long CA = 0xe41d2d0300e0bae0L;
    static final long CA_PORT = 0xe41d2d0300e0bae1L;

    /** A switch (LID 1719), an HCA whose port GUID differs from its node GUID (LID 40, LMC 2). */
    static final String TOPO = """
            vendid=0x2c9
            devid=0xc738
            switchguid=0x2c903006e29b0(2c903006e29b0)
            Switch\t36 "S-0002c903006e29b0"\t\t# "ib-sw-1" enhanced port 0 lid 1719 lmc 0
            [1]\t"H-e41d2d0300e0bae0"[1](e41d2d0300e0bae1) \t\t# "rd240 mlx4_0" lid 40 4xFDR
            [6]\t"S-0002c903006e2a00"[6]\t\t# "ib-sw-2" lid 1720 4xFDR

            vendid=0x2c9
            devid=0x1003
            caguid=0xe41d2d0300e0bae0
            Ca\t2 "H-e41d2d0300e0bae0"\t\t# "rd240 mlx4_0"
            [1](e41d2d0300e0bae1) \t"S-0002c903006e29b0"[1]\t\t# lid 40 lmc 2 "ib-sw-1" lid 1719 4xFDR
            """;

    /** Real perfquery -x output [src: treydock/infiniband_exporter collectors/perfquery_test.go, via FORMATS.md section 5]. */
    static final String PERFQUERY_X = """
            # Port extended counters: Lid 1719 port 1 (CapMask: 0x5300 CapMask2: 0x0000002)
            PortSelect:......................1
            CounterSelect:...................0x0000
            PortXmitData:....................36298026860928
            PortRcvData:.....................12279028775751
            PortXmitPkts:....................101733204203
            PortRcvPkts:.....................32262508468
            PortUnicastXmitPkts:.............101708165289
            PortUnicastRcvPkts:..............26677661727
            PortMulticastXmitPkts:...........25038914
            PortMulticastRcvPkts:............5584846741
            CounterSelect2:..................0x00000000
            SymbolErrorCounter:..............0
            LinkErrorRecoveryCounter:........0
            LinkDownedCounter:...............0
            PortRcvErrors:...................0
            """;

    /** perfquery basic, libibmad field names and dot padding. */
    static final String PERFQUERY_BASIC = """
            ibwarn: [21453] main: PerfMgt ClassPortInfo 0x400 extended counters not indicated
            # Port counters: Lid 42 port 1 (CapMask: 0x1400)
            PortSelect:......................1
            CounterSelect:...................0x1b01
            SymbolErrorCounter:..............1500
            LinkErrorRecoveryCounter:........3
            LinkDownedCounter:...............2
            PortRcvErrors:...................0
            PortRcvRemotePhysicalErrors:.....0
            PortRcvSwitchRelayErrors:........0
            PortXmitDiscards:................0
            PortXmitConstraintErrors:........0
            PortRcvConstraintErrors:.........0
            CounterSelect2:..................0x00
            LocalLinkIntegrityErrors:........0
            ExcessiveBufferOverrunErrors:....0
            VL15Dropped:.....................0
            PortXmitData:....................4294967295
            PortRcvData:.....................4294967295
            PortXmitPkts:....................4294967295
            PortRcvPkts:.....................4294967295
            PortXmitWait:....................0
            """;

    @Test
    void perfqueryExtendedJoinsASwitchPortByLidAndPort() {
        ImportResult r = TestSupport.importTexts("perf-x.txt", PERFQUERY_X, "topo.txt", TOPO);
        assertEquals("perfquery", r.formats().get("perf-x.txt"));
        FabricModel m = r.model();
        assertEquals("", TestSupport.dump(TestSupport.atLeast(m, Severity.WARNING)));
        Port p = m.node(SW).port(1);
        assertEquals(36298026860928L, p.counter("PortXmitData"));
        assertEquals(5584846741L, p.counter("PortMulticastRcvPkts"));
        assertEquals(0, p.counter("SymbolErrorCounter"));
        assertTrue(p.counters().containsKey("PortRcvErrors"));
        assertTrue(!p.counters().containsKey("CounterSelect") && !p.counters().containsKey("PortSelect"));
        assertEquals(1, p.counterEvidence().line());
        assertEquals("perf-x.txt", p.counterEvidence().source());
        assertEquals(Map.of(), m.node(SW).port(6).counters());
    }

    @Test
    void perfqueryBasicJoinsACaPortByAnyLidOfItsLmcRange() {
        // LID 40 with LMC 2 answers on 40..43
        ImportResult r = TestSupport.importTexts("perf.txt", PERFQUERY_BASIC, "topo.txt", TOPO);
        FabricModel m = r.model();
        assertEquals("", TestSupport.dump(TestSupport.atLeast(m, Severity.WARNING)));
        Port p = m.node(CA).port(1);
        assertEquals(1500, p.counter("SymbolErrorCounter"));
        assertEquals(4294967295L, p.counter("PortXmitData"));
        assertEquals(Severity.ERROR, LinkErrorsCheck.worst(p, ErrorThresholds.defaults()));
        List<Finding> f = Diagnosis.fabric(ErrorThresholds.defaults()).run(m, ErrorThresholds.defaults());
        assertEquals(1, f.size(), f.toString());
        assertEquals("link-errors", f.get(0).id());
        assertTrue(f.get(0).subjects().get(1).startsWith("ib-sw-1 port 1"), f.get(0).subjects().toString());
    }

    @Test
    void perfqueryAllPortsAggregateIsNotPlacedOnAPort() {
        String agg = PERFQUERY_BASIC.replace("Lid 42 port 1", "Lid 1719 port 255");
        FabricModel m = TestSupport.importTexts("perf-a.txt", agg, "topo.txt", TOPO).model();
        assertEquals("", TestSupport.dump(TestSupport.atLeast(m, Severity.WARNING)));
        assertTrue(m.diagnostics().stream().anyMatch(d -> d.severity() == Severity.INFO && d.message().contains("aggregate")));
        assertTrue(m.node(SW).ports().stream().allMatch(p -> p.counters().isEmpty()));
    }

    @Test
    void perfqueryForSeveralPortsInOneFile() {
        String two = PERFQUERY_X + PERFQUERY_BASIC.replace("Lid 42 port 1", "Lid 1719 port 6");
        FabricModel m = TestSupport.importTexts("perf.txt", two, "topo.txt", TOPO).model();
        assertEquals(36298026860928L, m.node(SW).port(1).counter("PortXmitData"));
        assertEquals(1500, m.node(SW).port(6).counter("SymbolErrorCounter"));
        assertEquals(18, m.node(SW).port(6).counterEvidence().line(), "16 lines of -x output, the ibwarn line, then the header");
    }

    @Test
    void perfqueryForAnUnknownLidIsAWarning() {
        FabricModel m = TestSupport.importTexts("perf.txt", PERFQUERY_BASIC.replace("Lid 42", "Lid 999"),
                "topo.txt", TOPO).model();
        List<Diagnostic> ws = TestSupport.atLeast(m, Severity.WARNING);
        assertEquals(1, ws.size(), TestSupport.dump(ws));
        assertEquals(2, ws.get(0).line());
        assertTrue(ws.get(0).message().contains("LID 999"));
    }

    @Test
    void perfqueryBadValueIsReportedWithItsLine() {
        FabricModel m = TestSupport.importTexts("perf.txt", PERFQUERY_BASIC.replace("LinkDownedCounter:...............2",
                "LinkDownedCounter:...............two"), "topo.txt", TOPO).model();
        List<Diagnostic> ws = TestSupport.atLeast(m, Severity.WARNING);
        assertEquals(1, ws.size(), TestSupport.dump(ws));
        assertEquals(7, ws.get(0).line());
        assertEquals(1500, m.node(CA).port(1).counter("SymbolErrorCounter"), "the other counters are kept");
    }

    /** FORMATS.md section 5 sample (a mailing-list post) with the switch's "Errors for" header added. */
    static final String IBQUERYERRORS = """
            Errors for 0x2c903006e29b0 "ib-sw-1"
               GUID 0x2c903006e29b0 port 6: [LinkDownedCounter == 9] [PortRcvSwitchRelayErrors == 2285] [PortXmitDiscards == 14176] [PortXmitWait == 4294967295]
            Errors for "rd240 mlx4_0"
               GUID 0xe41d2d0300e0bae1 port 1: [PortXmitWait == 4294967295]

            ## Summary: 4 nodes checked, 4 bad nodes found
            ##          43 ports checked, 14 ports have errors beyond threshold
            ## Thresholds:
            ## Suppressed:
            """;

    @Test
    void ibqueryerrorsJoinsBySwitchGuidAndCaPortGuid() {
        ImportResult r = TestSupport.importTexts("qerr.txt", IBQUERYERRORS, "topo.txt", TOPO);
        assertEquals("ibqueryerrors", r.formats().get("qerr.txt"));
        FabricModel m = r.model();
        assertEquals("", TestSupport.dump(TestSupport.atLeast(m, Severity.WARNING)));
        Port sw6 = m.node(SW).port(6);
        assertEquals(9, sw6.counter("LinkDownedCounter"));
        assertEquals(2285, sw6.counter("PortRcvSwitchRelayErrors"));
        assertEquals(14176, sw6.counter("PortXmitDiscards"));
        assertEquals(4294967295L, sw6.counter("PortXmitWait"));
        assertEquals(2, sw6.counterEvidence().line());
        assertEquals(4294967295L, m.node(CA).port(1).counter("PortXmitWait"));
        assertEquals(4, m.node(CA).port(1).counterEvidence().line());
        // congestion counters only: warnings, and LinkDowned 9 is within its threshold of 10
        assertEquals(Severity.WARNING, LinkErrorsCheck.worst(sw6, ErrorThresholds.defaults()));
        List<Finding> f = Diagnosis.fabric(ErrorThresholds.defaults()).run(m, ErrorThresholds.defaults());
        assertEquals(2, f.size());
        assertTrue(f.stream().allMatch(x -> x.severity() == Severity.WARNING));
        assertTrue(f.stream().allMatch(x -> x.title().startsWith("Congestion counters")));
    }

    @Test
    void ibqueryerrorsSixtyFourBitAndAllPorts() {
        String text = """
                Errors for 0x2c903006e29b0 "ib-sw-1"
                   GUID 0x2c903006e29b0 port ALL: [PortXmitWait == 12345]
                   GUID 0x2c903006e29b0 port 1: [SymbolErrorCounter == 120 (120.000)] [PortXmitWait == 4294967296 (4.295G)]
                """;
        FabricModel m = TestSupport.importTexts("qerr.txt", text, "topo.txt", TOPO).model();
        assertEquals("", TestSupport.dump(TestSupport.atLeast(m, Severity.WARNING)));
        Port p = m.node(SW).port(1);
        assertEquals(120, p.counter("SymbolErrorCounter"));
        assertEquals(4294967296L, p.counter("PortXmitWait"));
        assertEquals(Severity.ERROR, LinkErrorsCheck.worst(p, ErrorThresholds.defaults()), "120 > 10 x 10");
    }

    @Test
    void ibqueryerrorsAloneWarnsThatNodesAreUnknown() {
        FabricModel m = TestSupport.importTexts("qerr.txt", IBQUERYERRORS).model();
        // a switch block names its node GUID, so the switch is created; the CA block has only a port GUID
        List<Diagnostic> ws = TestSupport.atLeast(m, Severity.WARNING);
        assertEquals(1, ws.size(), TestSupport.dump(ws));
        assertEquals(4, ws.get(0).line());
        assertTrue(ws.get(0).message().contains("load its ibnetdiscover"));
        assertEquals("ib-sw-1", m.node(SW).displayName());
        assertEquals(14176, m.node(SW).port(6).counter("PortXmitDiscards"));
    }

    @Test
    void thresholdsFileOverridesDefaults() {
        ImportResult r = TestSupport.importTexts(
                "error_thresholds", """
                        # Define error thresholds here
                        SymbolErrorCounter=2000
                        PortXmitWait=100000000000
                        """,
                "perf.txt", PERFQUERY_BASIC, "qerr.txt", IBQUERYERRORS, "topo.txt", TOPO);
        assertEquals("error-thresholds", r.formats().get("error_thresholds"));
        assertNotNull(r.thresholds());
        assertEquals(2000, r.thresholds().limit("SymbolErrorCounter"));
        assertEquals(10, r.thresholds().limit("LinkDownedCounter"), "unlisted counters keep their default");
        Port ca = r.model().node(CA).port(1);
        assertEquals(null, LinkErrorsCheck.worst(ca, r.thresholds()));
        assertEquals(Severity.ERROR, LinkErrorsCheck.worst(ca, ErrorThresholds.defaults()));
    }
}
