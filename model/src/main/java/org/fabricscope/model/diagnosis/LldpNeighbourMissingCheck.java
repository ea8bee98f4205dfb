package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.FindingSpec;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.SwitchPortConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code lldp-neighbour-missing}: a switch port whose planned neighbour (SONiC {@code config_db.json}'s
 * {@code DEVICE_NEIGHBOR}: name and port) LLDP does not show there: the switch's own LLDP table, loaded, lists no
 * neighbour on the port (unplugged, link down, or LLDP off at the far end), or LLDP shows a different neighbour on it
 * (cabled against the plan: two cables swapped, a NIC on the wrong port). A port with no cable whose switch table was
 * not loaded is no finding: nothing says what that port sees. The neighbour's port matches by interface name, or for
 * a host NIC by the RDMA device it carries ({@code mlx5_0}), case aside.
 */
public final class LldpNeighbourMissingCheck implements FabricCheck {
    static final FindingSpec SPEC = new FindingSpec("lldp-neighbour-missing", Layer.FABRIC, Severity.WARNING,
            "Switch ports whose planned neighbour (config_db.json DEVICE_NEIGHBOR) LLDP does not show there: missing, or another device cabled instead",
            "SONiC config_db.json DEVICE_NEIGHBOR; LLDP neighbour tables (lldpcli show neighbors, SONiC show lldp table); the RDMA fabric manual (topology audits against LLDP)");

    @Override
    public List<FindingSpec> findings() {
        return List.of(SPEC);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        List<Finding> out = new ArrayList<>();
        for (FabricNode n : context.model().fabric().nodes().values()) {
            if (!n.isSwitch()) {
                continue;
            }
            for (Port p : n.ports()) {
                SwitchPortConfig c = p.switchConfig();
                if (c == null || !c.neighbourPlanned() || c.neighbourEvidence() == null) {
                    continue;
                }
                String planned = c.expectedNeighbour() + (c.expectedNeighbourPort().isEmpty() ? "" : " " + c.expectedNeighbourPort());
                Port peer = p.peer();
                if (peer == null) {
                    Evidence table = n.neighbourTable();
                    if (table == null) {
                        continue;
                    }
                    String title = p.label() + ": the plan (DEVICE_NEIGHBOR) expects " + planned + " but " + n.displayName()
                            + "'s LLDP table (" + table.source() + ") lists no neighbour on " + p.name();
                    out.add(new Finding(SPEC.id(), Severity.WARNING, title, List.<Subject>of(Subjects.port(p)),
                            List.of(c.neighbourEvidence(), table), missingRemedies(p, c)));
                    continue;
                }
                if (nameMatches(peer, c.expectedNeighbour()) && portMatches(peer, c.expectedNeighbourPort())) {
                    continue;
                }
                Evidence seen = p.cable().reportedBy(p) != null ? p.cable().reportedBy(p) : p.cable().reportedBy(peer);
                String title = p.label() + ": the plan (DEVICE_NEIGHBOR) expects " + planned + " but LLDP shows " + peer.label()
                        + " there: cabled against the plan";
                List<String> remedies = List.of(
                        "Trace the cable on " + p.label() + ": it reaches " + peer.label() + ", the plan says " + planned
                                + ". Move it (two swapped cables show as two such ports), or, if the plan is what is wrong, fix "
                                + "DEVICE_NEIGHBOR (config_db.json, or the minigraph it is made from) so that audits match.",
                        "On a rail-optimised RoCE fabric a NIC on the wrong leaf port puts its traffic on another rail: NCCL's "
                                + "rings cross the spines and bandwidth drops. Audit every port against LLDP (RDMA fabric manual).");
                out.add(new Finding(SPEC.id(), Severity.WARNING, title, List.<Subject>of(Subjects.port(p)),
                        seen == null ? List.of(c.neighbourEvidence()) : List.of(c.neighbourEvidence(), seen), remedies));
            }
        }
        return out;
    }

    private static List<String> missingRemedies(Port p, SwitchPortConfig c) {
        return List.of(
                "On " + p.node().displayName() + ": show interfaces status " + p.name() + " says whether the link is up; if it "
                        + "is down, check the cable and the optics at both ends (show interfaces transceiver presence).",
                "If the link is up, LLDP does not arrive from " + c.expectedNeighbour() + ": lldpd must run there and transmit on "
                        + (c.expectedNeighbourPort().isEmpty() ? "that port" : c.expectedNeighbourPort())
                        + " (lldpcli show interfaces; on a host, lldpd or the NIC firmware's LLDP agent).",
                "If the neighbour moved for good, update DEVICE_NEIGHBOR so the plan matches the fabric.");
    }

    private static boolean nameMatches(Port peer, String expected) {
        String e = expected.toLowerCase(Locale.ROOT);
        FabricNode n = peer.node();
        if (n.displayName().toLowerCase(Locale.ROOT).equals(e)) {
            return true;
        }
        return !n.isSwitch() && EthernetEnds.node(peer).toLowerCase(Locale.ROOT).equals(e);
    }

    private static boolean portMatches(Port peer, String expected) {
        if (expected.isEmpty()) {
            return true;
        }
        String e = expected.toLowerCase(Locale.ROOT);
        if (peer.name() != null && peer.name().toLowerCase(Locale.ROOT).equals(e)) {
            return true;
        }
        return !peer.node().isSwitch() && peer.node().displayName().toLowerCase(Locale.ROOT).endsWith(" " + e);
    }
}
