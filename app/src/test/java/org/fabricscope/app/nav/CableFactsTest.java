package org.fabricscope.app.nav;

import static org.fabricscope.app.nav.Samples.RAIL;
import static org.fabricscope.app.nav.Samples.TRAINING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.ranks.RankRoute;
import org.fabricscope.model.training.Transport;
import org.junit.jupiter.api.Test;

/** A cable's ends, counters, findings and the ranks whose traffic crosses it. */
class CableFactsTest {
    private final Analysis training = Samples.analysis(RAIL, TRAINING);


    @Test
    void findingsOnACableAreThoseNamingItOrEitherPort() {
        Cable uplink = training.model().node(0x0c42a10300010103L).port(23).cable();
        List<String> ids = CableFacts.findingsOn(uplink, training.findings()).stream().map(Finding::id).toList();
        assertTrue(ids.contains("link-errors"), "names the leaf port: " + ids);
        assertTrue(ids.contains("rank-path-errors"), "names the cable: " + ids);
        assertFalse(ids.contains("link-degraded"), "the degraded link is another cable: " + ids);
        Cable degraded = training.model().node(0x0c42a10300010106L).port(12).cable();
        assertEquals(List.of("link-degraded"), CableFacts.findingsOn(degraded, training.findings()).stream()
                .map(Finding::id).filter(i -> i.startsWith("link-")).toList());
    }

    @Test
    void ranksCrossingACableAreItsInfinibandPairsOnly() {
        Cable uplink = training.model().node(0x0c42a10300010103L).port(23).cable();
        List<RankRoute> routes = CableFacts.routesOver(uplink, training.ranks());
        assertFalse(routes.isEmpty(), "the training job's IB pairs cross the uplink");
        assertTrue(routes.stream().allMatch(r -> r.transport() == Transport.NET_IB || r.transport() == Transport.NET_IB_GDR));
        assertTrue(routes.stream().allMatch(r -> r.cables().contains(uplink)));
        assertEquals(List.of(), CableFacts.routesOver(uplink, null));
    }

    @Test
    void theTooltipNamesBothEndsTheirRatesAndErrorCounters() {
        Cable uplink = training.model().node(0x0c42a10300010103L).port(23).cable();
        String t = CableFacts.tooltip(uplink, 1, ErrorThresholds.defaults(), training.findings(), training.ranks());
        assertTrue(t.startsWith("Cable 4xHDR"), t);
        FabricNode leaf = uplink.a().node().guid() == 0x0c42a10300010103L ? uplink.a().node() : uplink.b().node();
        FabricNode spine = uplink.other(leaf.port(23)).node();
        assertTrue(t.contains(leaf.displayName() + " port 23 · leaf switch, LID 9"), t);
        assertTrue(t.contains(spine.displayName() + " port 5 · spine switch"), t);
        assertTrue(t.contains("SymbolErrorCounter=1873 (error: over 10)"), t);
        assertTrue(t.contains("ERROR link-errors"), t);
        assertTrue(t.matches("(?s).*\\n\\d+ rank pairs? may send InfiniBand traffic over it.*"), t);
        assertFalse(t.contains("could be"), "no \"Could be 12X\" on an HDR port, which every port of the capture prints: " + t);
        Cable degraded = training.model().node(0x0c42a10300010106L).port(12).cable();
        assertEquals(org.fabricscope.model.fabric.LinkWidth.X12, degraded.a().couldBeWidth(), "iblinkinfo says Could be 12X");
        assertFalse(CableFacts.linkText(degraded.a()).contains("could be"), CableFacts.linkText(degraded.a()));
        String ca = CableFacts.endText(training.model().node(0x0c42a10300010106L).port(12).peer());
        assertTrue(ca.contains("· HCA, LID ") && ca.contains("GUID 0x"), ca);
    }
}
