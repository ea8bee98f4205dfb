package org.fabricscope.model.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.Fabrics;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.fabric.LinkSpeed;
import org.fabricscope.model.fabric.LinkWidth;
import org.fabricscope.model.fabric.PhysState;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.PortState;
import org.fabricscope.model.core.Severity;
import org.junit.jupiter.api.Test;

class ChecksTest {
    /** A leaf with 8 HCAs at 4xHDR and two spines; cable i is leaf - node-i. */
    static final class Small {
        final Fabrics f = new Fabrics();
        final FabricNode leaf = f.sw("leaf-1");
        final List<FabricNode> hcas = new ArrayList<>();
        final List<Cable> hostCables = new ArrayList<>();

        Small(LinkWidth oddWidth, LinkSpeed oddSpeed) {
            for (FabricNode s : List.of(f.sw("spine-1"), f.sw("spine-2"))) {
                f.cable(leaf, s);
            }
            for (int i = 0; i < 8; i++) {
                FabricNode h = f.hca("node-" + i, 0);
                hcas.add(h);
                boolean odd = i == 3;
                hostCables.add(f.cable(h, leaf, odd && oddWidth != null ? oddWidth : LinkWidth.X4,
                        odd && oddSpeed != null ? oddSpeed : LinkSpeed.HDR));
            }
        }

        FabricModelBuilder b() {
            return f.builder();
        }

        void active() {
            for (FabricNode h : hcas) {
                Port p = h.port(1);
                b().setPortState(p, PortState.ACTIVE, PhysState.LINK_UP, null, null, Evidence.at("l", 1, ""));
                b().setPortState(p.peer(), PortState.ACTIVE, PhysState.LINK_UP, null, null, Evidence.at("l", 1, ""));
            }
        }
    }

    @Test
    void healthyFabricHasNoFindings() {
        Small s = new Small(null, null);
        s.active();
        assertEquals(List.of(), Diagnosis.fabric(ErrorThresholds.defaults()).run(org.fabricscope.model.diagnosis.CheckContext.of(s.f.build())));
    }

    @Test
    void oneLaneAmongFourIsAnError() {
        Small s = new Small(LinkWidth.X1, null);
        FabricModel m = s.f.build();
        Map<Cable, String> degraded = LinkDegradedCheck.assess(m);
        assertEquals(List.of(s.hostCables.get(3)), new ArrayList<>(degraded.keySet()));
        assertTrue(degraded.get(s.hostCables.get(3)).contains("width 1x where other host-leaf cables run 4x"),
                degraded.toString());
        List<Finding> f = new LinkDegradedCheck().run(org.fabricscope.model.diagnosis.CheckContext.of(m));
        assertEquals(1, f.size());
        assertEquals(Severity.ERROR, f.get(0).severity());
        assertTrue(f.get(0).title().contains("1xHDR"), f.get(0).title());
        assertEquals("synthetic.txt", f.get(0).evidence().get(0).source());
    }

    @Test
    void slowerSpeedIsAWarning() {
        Small s = new Small(null, LinkSpeed.EDR);
        List<Finding> f = new LinkDegradedCheck().run(org.fabricscope.model.diagnosis.CheckContext.of(s.f.build()));
        assertEquals(1, f.size());
        assertEquals(Severity.WARNING, f.get(0).severity());
        assertTrue(f.get(0).evidence().get(0).text().contains("speed EDR where other host-leaf cables run HDR"));
    }

    @Test
    void couldBeWidthFlagsALinkEvenWhenAllRunNarrow() {
        // every host link runs 2x (so the tier's prevailing width is 2x), but iblinkinfo says one could run 4x
        Fabrics f = new Fabrics();
        FabricNode leaf = f.sw("leaf-1");
        List<Cable> cs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            cs.add(f.cable(f.hca("n" + i, 0), leaf, LinkWidth.X2, LinkSpeed.NDR));
        }
        Port p = cs.get(1).a();
        f.builder().setPortState(p, PortState.ACTIVE, PhysState.LINK_UP, LinkWidth.X4, null, Evidence.at("li", 9, "x"));
        FabricModel m = f.build();
        Map<Cable, String> d = LinkDegradedCheck.assess(m);
        assertEquals(List.of(cs.get(1)), new ArrayList<>(d.keySet()));
        assertTrue(d.get(cs.get(1)).contains("width 2x where the ends support 4x"), d.toString());
    }

    @Test
    void errorCounterThresholds() {
        Small s = new Small(null, null);
        FabricModelBuilder b = s.b();
        Evidence e = Evidence.at("perf", 1, "");
        int[] lids = new int[8];
        for (int i = 0; i < 8; i++) {
            lids[i] = s.hcas.get(i).port(1).lid();
        }
        b.counters(lids[0], 1, 0, null, Map.of("SymbolErrorCounter", 10L), e, false);   // at threshold: fine
        b.counters(lids[1], 1, 0, null, Map.of("SymbolErrorCounter", 11L), e, false);   // over: warning
        b.counters(lids[2], 1, 0, null, Map.of("SymbolErrorCounter", 101L), e, false);  // 10x over: error
        b.counters(lids[3], 1, 0, null, Map.of("PortXmitWait", 1_000_000L), e, false);  // congestion: warning at most
        b.counters(lids[4], 1, 0, null, Map.of("PortXmitData", 1L << 40), e, false);    // data: never
        FabricModel m = s.f.build();
        ErrorThresholds t = ErrorThresholds.defaults();
        assertNull(LinkErrorsCheck.worst(s.hcas.get(0).port(1), t));
        assertEquals(Severity.WARNING, LinkErrorsCheck.worst(s.hcas.get(1).port(1), t));
        assertEquals(Severity.ERROR, LinkErrorsCheck.worst(s.hcas.get(2).port(1), t));
        assertEquals(Severity.WARNING, LinkErrorsCheck.worst(s.hcas.get(3).port(1), t));
        assertNull(LinkErrorsCheck.worst(s.hcas.get(4).port(1), t));
        List<Finding> f = new LinkErrorsCheck(t).run(org.fabricscope.model.diagnosis.CheckContext.of(m));
        assertEquals(3, f.size());
        Finding err = f.stream().filter(x -> x.severity() == Severity.ERROR).findFirst().orElseThrow();
        assertTrue(err.subjects().get(1).startsWith("leaf-1 port"), "names the far end: " + err.subjects());
        assertTrue(err.evidence().get(0).text().contains("SymbolErrorCounter=101 (threshold 10)"));
    }

    @Test
    void thresholdsFromAFile() throws IOException {
        List<Diagnostic> problems = new ArrayList<>();
        ErrorThresholds t = ErrorThresholds.parse(new StringReader("""
                # infiniband-diags error_thresholds
                SymbolErrorCounter=200
                LinkDownedCounter = 0   # any link down is bad
                PortXmitWait=oops
                garbage
                """), "error_thresholds", problems);
        assertEquals(200, t.limit("SymbolErrorCounter"));
        assertEquals(0, t.limit("LinkDownedCounter"));
        assertEquals(1000, t.limit("PortXmitWait"), "a bad value keeps the default");
        assertEquals(List.of(4, 5), problems.stream().map(Diagnostic::line).toList());
        assertNull(t.judge("SymbolErrorCounter", 150));
        assertEquals(Severity.WARNING, t.judge("SymbolErrorCounter", 201));
        assertEquals(Severity.ERROR, t.judge("LinkDownedCounter", 11), "10 x max(1, 0)");
        assertEquals(-1, t.limit("PortRcvPkts"));
    }

    @Test
    void fewPortsInInitOrArmedAreNamedOneByOne() {
        Small s = new Small(null, null);
        s.active();
        Evidence e = Evidence.at("li", 4, "init");
        s.b().setPortState(s.hcas.get(2).port(1), PortState.INIT, PhysState.LINK_UP, null, null, e);
        s.b().setPortState(s.hcas.get(5).port(1), PortState.ARMED, PhysState.LINK_UP, null, null, e);
        List<Finding> f = new PortNotActiveCheck().run(org.fabricscope.model.diagnosis.CheckContext.of(s.f.build()));
        assertEquals(2, f.size());
        assertTrue(f.stream().allMatch(x -> x.severity() == Severity.ERROR));
        assertTrue(f.stream().anyMatch(x -> x.title().endsWith("is armed, not active")));
        assertTrue(f.stream().anyMatch(x -> x.title().endsWith("is init, not active")));
        assertEquals(e, f.get(0).evidence().get(0));
    }

    @Test
    void mostPortsInInitMeansNoSubnetManager() {
        Small s = new Small(null, null);
        for (FabricNode h : s.hcas) {
            s.b().setPortState(h.port(1), PortState.INIT, PhysState.LINK_UP, null, null, Evidence.at("li", 1, ""));
        }
        List<Finding> f = new PortNotActiveCheck().run(org.fabricscope.model.diagnosis.CheckContext.of(s.f.build()));
        assertEquals(1, f.size());
        assertTrue(f.get(0).title().contains("no subnet manager"), f.get(0).title());
        assertEquals(8, f.get(0).subjects().size());
    }

    @Test
    void diagnosisSortsMostSevereFirst() {
        Small s = new Small(null, LinkSpeed.EDR); // warning: slow link
        s.active();
        s.b().setPortState(s.hcas.get(6).port(1), PortState.ARMED, PhysState.LINK_UP, null, null, Evidence.at("l", 2, ""));
        s.b().counters(s.hcas.get(0).port(1).lid(), 1, 0, null, Map.of("PortXmitDiscards", 500L), Evidence.at("p", 1, ""), false);
        FabricCheck info = new FabricCheck() {
            public List<org.fabricscope.model.core.FindingSpec> findings() {
                return List.of(new org.fabricscope.model.core.FindingSpec("a-info", org.fabricscope.model.core.Layer.FABRIC,
                        Severity.INFO, "always says hello", "this test"));
            }

            public List<Finding> run(CheckContext context) {
                return List.of(new Finding("a-info", Severity.INFO, "hello",
                        List.of(new org.fabricscope.model.core.Subject.HostRef("z", "z")), List.of(), List.of()));
            }
        };
        List<Finding> f = Diagnosis.fabric(ErrorThresholds.defaults()).with(info).run(org.fabricscope.model.diagnosis.CheckContext.of(s.f.build()));
        assertEquals(List.of(Severity.ERROR, Severity.WARNING, Severity.WARNING, Severity.INFO),
                f.stream().map(Finding::severity).toList());
        assertEquals(List.of("port-not-active", "link-degraded", "link-errors", "a-info"),
                f.stream().map(Finding::id).toList(), "same severity: by check id");
    }

    @Test
    void aCheckMayNotRaiseAnIdItDidNotDeclare() {
        FabricCheck rogue = new FabricCheck() {
            public List<org.fabricscope.model.core.FindingSpec> findings() {
                return List.of(new org.fabricscope.model.core.FindingSpec("declared", org.fabricscope.model.core.Layer.FABRIC,
                        Severity.INFO, "what it may raise", "this test"));
            }

            public List<Finding> run(CheckContext context) {
                return List.of(new Finding("undeclared", Severity.INFO, "surprise",
                        List.of(new org.fabricscope.model.core.Subject.HostRef("h", "h")), List.of(), List.of()));
            }
        };
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> new Diagnosis(List.of(rogue)).run(FabricModel.empty(), ErrorThresholds.defaults()));
        assertTrue(e.getMessage().contains("undeclared"), e.getMessage());
    }

    @Test
    void theStandardCatalogueDeclaresEachIdOnce() {
        List<String> ids = Diagnosis.standard(ErrorThresholds.defaults()).catalogue().stream()
                .map(org.fabricscope.model.core.FindingSpec::id).toList();
        assertEquals(ids.size(), new java.util.HashSet<>(ids).size(), ids.toString());
        assertEquals(46, ids.size(), ids.toString()); // training 10 (rdma-device-not-needed), + forensics (5 with busbw-below-expected), slowness (4: transport-downgraded, straggler, config-drift, pairwise-slow), host evidence (3), the incident (1) and Ethernet/RoCE (9: lldp-one-sided, roce-nic-miscabled, roce-pfc-off, roce-lossy, roce-pause-storm, roce-ecn-inactive, roce-mtu-mismatch, roce-pfc-one-end, lldp-neighbour-missing)
    }
}
