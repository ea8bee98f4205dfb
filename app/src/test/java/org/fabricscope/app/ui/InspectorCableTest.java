package org.fabricscope.app.ui;

import static org.fabricscope.app.nav.Samples.RAIL;
import static org.fabricscope.app.nav.Samples.TRAINING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.fabricscope.app.nav.Samples;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Port;
import org.junit.jupiter.api.Test;

/** The inspector's cable view, and an HCA's ports showing the counters of the leaf port at the other end. */
class InspectorCableTest {
    private final Analysis a = Samples.analysis(RAIL, TRAINING);
    private final InspectorViewModel vm = new InspectorViewModel();

    InspectorCableTest() {
        vm.setContext(Map.of(), a.thresholds());
        vm.setLayers(a.model(), a.ranks());
        vm.setFindings(a.findings());
    }


    @Test
    void anHcasPortShowsTheErrorsCountedAtTheLeafEnd() {
        Port leafPort = a.model().node(0x0c42a10300010205L).port(7); // link error recoveries, counted by the leaf
        Port hcaPort = leafPort.peer();
        vm.show(hcaPort.node());
        assertTrue(vm.ports().contains(hcaPort));
        assertTrue(vm.peerCounterText(hcaPort).contains("LinkErrorRecovery="), vm.peerCounterText(hcaPort));
        assertNotEquals(InspectorViewModel.PortHealth.OK, vm.health(hcaPort), "the row is tinted by the worse end");
        assertEquals(vm.counterText(leafPort), vm.peerCounterText(hcaPort));
        assertEquals(vm.counterText(hcaPort), vm.peerCounterText(leafPort));
    }

    @Test
    void theCableViewListsBothPortsAllCountersFindingsAndRanks() {
        Cable uplink = a.model().node(0x0c42a10300010103L).port(23).cable();
        vm.showCable(uplink);
        assertEquals(uplink, vm.shownCable());
        assertNull(vm.shown());
        assertEquals(List.of(uplink.a(), uplink.b()), vm.ports());
        String t = vm.titleProperty().get();
        assertTrue(t.startsWith("Cable 4xHDR: ") && t.contains(uplink.a().label()) && t.contains(uplink.b().label()), t);
        String d = vm.detailsProperty().get();
        assertTrue(d.contains("SymbolErrorCounter=1873 (error: over 10)"), d);
        assertTrue(d.contains("ERROR link-errors"), d);
        assertTrue(d.contains("rank-path-errors"), d);
        assertTrue(d.matches("(?s).*Ranks whose InfiniBand traffic may cross it \\([1-9]\\d* pairs\\):\\n  rank \\d+ <-> rank \\d+ over .*"), d);
        vm.show(uplink.a().node());
        assertNull(vm.shownCable(), "a vertex replaces the cable view");
    }
}
