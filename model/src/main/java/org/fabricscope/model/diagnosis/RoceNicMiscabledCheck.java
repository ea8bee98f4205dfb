package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.FindingSpec;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.fabric.Port;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code roce-nic-miscabled}: a host whose Ethernet (RoCE) NICs land on one leaf where the fabric's design,
 * as the other hosts show it, is one NIC per leaf (or per rail): most hosts with two or more NICs seen by
 * LLDP have each on a leaf of its own, this one has two or more on the same leaf. The NIC to move is the one
 * whose name goes to another leaf on most hosts (its rail's leaf). Needs at least three hosts with two or more
 * NICs, so that "most" means something.
 */
public final class RoceNicMiscabledCheck implements FabricCheck {
    static final FindingSpec SPEC = new FindingSpec("roce-nic-miscabled", Layer.FABRIC, Severity.WARNING,
            "A host's RoCE NICs on one leaf where the other hosts have one NIC per leaf (rail): a NIC cabled to the wrong leaf",
            "LLDP neighbour tables; the RDMA fabric manual (topology data must match the physical layer)");
    static final int MIN_HOSTS = 3;

    @Override
    public List<FindingSpec> findings() {
        return List.of(SPEC);
    }

    /** A host NIC's port and the leaf port its cable reaches. */
    private record Attachment(Port nic, Port leaf, Cable cable) {
    }

    @Override
    public List<Finding> run(CheckContext context) {
        Map<Host, List<Attachment>> byHost = new LinkedHashMap<>();
        for (Cable c : context.model().fabric().cables()) {
            if (!c.fromLldp()) {
                continue;
            }
            for (Port p : new Port[] {c.a(), c.b()}) {
                Port other = c.other(p);
                if (p.node().isHostAdapter() && p.node().host() != null && other.node().isSwitch()) {
                    byHost.computeIfAbsent(p.node().host(), k -> new ArrayList<>()).add(new Attachment(p, other, c));
                }
            }
        }
        int multi = 0;
        int spread = 0;
        Map<String, Map<FabricNode, Integer>> leafByNicName = new HashMap<>();
        for (List<Attachment> as : byHost.values()) {
            if (as.size() < 2) {
                continue;
            }
            multi++;
            if (leaves(as).size() == as.size()) {
                spread++;
            }
            for (Attachment a : as) {
                leafByNicName.computeIfAbsent(a.nic.name(), k -> new HashMap<>()).merge(a.leaf.node(), 1, Integer::sum);
            }
        }
        List<Finding> out = new ArrayList<>();
        if (multi < MIN_HOSTS || spread * 2 <= multi) {
            return out;
        }
        for (Map.Entry<Host, List<Attachment>> e : byHost.entrySet()) {
            List<Attachment> as = e.getValue();
            for (Map.Entry<FabricNode, List<Attachment>> leaf : leaves(as).entrySet()) {
                if (leaf.getValue().size() < 2) {
                    continue;
                }
                out.add(finding(e.getKey(), leaf.getKey(), leaf.getValue(), leafByNicName, spread, multi));
            }
        }
        return out;
    }

    private static Map<FabricNode, List<Attachment>> leaves(List<Attachment> as) {
        Map<FabricNode, List<Attachment>> m = new TreeMap<>((x, y) -> x.displayName().compareTo(y.displayName()));
        for (Attachment a : as) {
            m.computeIfAbsent(a.leaf.node(), k -> new ArrayList<>()).add(a);
        }
        return m;
    }

    private static Finding finding(Host host, FabricNode leaf, List<Attachment> same,
                                   Map<String, Map<FabricNode, Integer>> leafByNicName, int spread, int multi) {
        List<String> nics = new ArrayList<>();
        List<String> ports = new ArrayList<>();
        List<Subject> refs = new ArrayList<>();
        List<Evidence> evidence = new ArrayList<>();
        List<String> moves = new ArrayList<>();
        for (Attachment a : same) {
            nics.add(a.nic.name());
            ports.add(a.leaf.name());
            refs.add(Subjects.cable(a.cable));
            Evidence ev = a.cable.reportedBy(a.nic) != null ? a.cable.reportedBy(a.nic) : a.cable.reportedBy(a.leaf);
            if (ev != null) {
                evidence.add(ev);
            }
            FabricNode usual = usualLeaf(leafByNicName.get(a.nic.name()));
            if (usual != null && usual != leaf) {
                moves.add(a.nic.name() + " to " + usual.displayName() + " (where " + a.nic.name() + " goes on most hosts)");
            }
        }
        String title = host.name() + ": " + String.join(" and ", nics) + (nics.size() == 2 ? " are both" : " are all") + " cabled to " + leaf.displayName()
                + " (" + String.join(", ", ports) + "); on " + spread + " of " + multi
                + " hosts each NIC has a leaf of its own";
        List<String> remedies = new ArrayList<>();
        remedies.add(moves.isEmpty()
                ? "Move one of these cables to the leaf its NIC's rail uses; compare with the LLDP tables of the other hosts."
                : "Move " + String.join(", ", moves) + "; then lldpcli show neighbors on " + host.name() + " should list a different leaf per NIC.");
        remedies.add("With two NICs on one leaf, that leaf is a single point of failure for " + host.name()
                + " and rail-local traffic crosses the spines; NCCL rings and trees assume each NIC reaches its rail's leaf.");
        remedies.add("Audit the cabling against the design from LLDP on every host (RDMA fabric manual: topology data must match the physical layer).");
        return new Finding(SPEC.id(), Severity.WARNING, title, refs, evidence, remedies);
    }

    private static FabricNode usualLeaf(Map<FabricNode, Integer> counts) {
        if (counts == null) {
            return null;
        }
        FabricNode best = null;
        int n = 0;
        for (Map.Entry<FabricNode, Integer> e : counts.entrySet()) {
            if (e.getValue() > n) {
                best = e.getKey();
                n = e.getValue();
            }
        }
        return best;
    }
}
