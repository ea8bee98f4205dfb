package org.fabricscope.model.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.fabricscope.model.Fabrics;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.PhysState;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.PortState;
import org.junit.jupiter.api.Test;

/**
 * {@code link-down}: one unplugged cable is one finding with its two ends; an end whose peer cannot be
 * told from the wiring stays a finding of its own, and ends that could pair more than one way are not paired.
 */
class LinkDownCheckTest {
    private final Fabrics f = new Fabrics();
    private final FabricNode leaf1 = f.sw("leaf-1");
    private final FabricNode leaf2 = f.sw("leaf-2");
    private final FabricNode spine1 = f.sw("spine-1");
    private final FabricNode spine2 = f.sw("spine-2");
    private int line = 1;

    LinkDownCheckTest() {
        for (FabricNode leaf : List.of(leaf1, leaf2)) {
            for (int i = 0; i < 2; i++) {
                f.cable(f.hca((leaf == leaf1 ? "a" : "b") + i, 0), leaf);
            }
        }
    }

    /** A port that was cabled and is Down/Polling now, its link gone down {@code times} times. */
    private void lost(FabricNode n, int port, long times) {
        Port p = f.builder().port(n, port);
        f.builder().setPortState(p, PortState.DOWN, PhysState.POLLING, null, null, Evidence.at("iblinkinfo.txt", line++,
                n.lid() + " " + port + "[  ] ==( Down/ Polling)==> [  ] \"\" ( )"));
        f.builder().counters(n.lid(), port, n.guid(), null, Map.of("LinkDownedCounter", times),
                Evidence.at("perfquery-" + n.lid() + "-" + port + ".txt", 1, "LinkDownedCounter:..." + times), false);
    }

    private static List<Finding> linkDown(FabricModel m) {
        return new LinkDownCheck().run(CheckContext.of(m));
    }

    private static List<String> ports(Finding x) {
        return x.refs().stream().map(r -> ((Subject.PortRef) r).label()).toList();
    }

    @Test
    void anUnpluggedCableBetweenSwitchesCabledToEachOtherIsOneFindingWithBothEnds() {
        f.cable(leaf1, spine1);
        f.cable(leaf1, spine1); // parallel: the unplugged one was the third
        f.cable(leaf2, spine2);
        lost(leaf1, 20, 1);
        lost(spine1, 3, 1);
        lost(leaf2, 30, 2); // a port whose far end lost nothing the capture shows
        List<Finding> found = linkDown(f.build());
        assertEquals(2, found.size(), found.toString());
        Finding cable = found.stream().filter(x -> x.refs().size() == 2).findFirst().orElseThrow();
        assertEquals("Cable leaf-1 port 20 <-> spine-1 port 3 is down (polling) after its link went down 1 time", cable.title());
        assertEquals(List.of("leaf-1 port 20", "spine-1 port 3"), ports(cable));
        assertEquals(4, cable.evidence().size(), "both ends' state and counter");
        assertTrue(cable.remedies().get(1).contains("leaf-1 and spine-1 are cabled to each other"), cable.remedies().toString());
        Finding alone = found.stream().filter(x -> x.refs().size() == 1).findFirst().orElseThrow();
        assertEquals("leaf-2 port 30 is down (polling) after its link went down 2 times", alone.title());
    }

    @Test
    void theOnlyLostPairBetweenAdjacentTiersIsPairedToo() {
        f.cable(leaf1, spine2);
        f.cable(leaf2, spine1);
        lost(leaf1, 20, 1); // leaf-1 and spine-1 share no other cable
        lost(spine1, 5, 1);
        List<Finding> found = linkDown(f.build());
        assertEquals(1, found.size(), found.toString());
        assertEquals(List.of("leaf-1 port 20", "spine-1 port 5"), ports(found.get(0)));
        assertTrue(found.get(0).remedies().get(1).contains("the only such pair between a leaf switch and a spine switch"),
                found.get(0).remedies().toString());
    }

    @Test
    void endsThatCouldPairMoreThanOneWayStayApart() {
        f.cable(leaf1, spine1);
        f.cable(leaf2, spine1);
        lost(leaf1, 20, 1);
        lost(leaf2, 20, 1);
        lost(spine1, 7, 1);
        lost(spine1, 8, 1);
        List<Finding> found = linkDown(f.build());
        assertEquals(4, found.size(), "which spine port was whose is not known: " + found);
        assertTrue(found.stream().allMatch(x -> x.refs().size() == 1));
    }
}
