package org.fabricscope.model.fabric;

import java.util.HashMap;
import java.util.Map;

/**
 * Nodes by LID and by name, indexed once over the nodes a {@link FabricBuilder} holds at the time
 * ({@link FabricBuilder#lookup()}): for a reader that resolves many peers at once. Asking
 * {@link FabricBuilder#findNodeByLid} and {@link FabricBuilder#findNodeByName} per peer scans every node
 * each time: an iblinkinfo dump of a fabric of 100,000 endpoints read alone (its HCAs known only by the
 * switches' port lines) asked 100,000 times over 115,000 nodes. Nodes added afterwards are not in it.
 */
public final class NodeLookup {
    private final LidIndex lids;
    private final Map<String, FabricNode> names = new HashMap<>();

    NodeLookup(Iterable<FabricNode> nodes) {
        this.lids = new LidIndex(nodes);
        for (FabricNode n : nodes) { // in node order: a name goes to the first node that has it
            names.putIfAbsent(n.description.strip(), n);
            if (n.switchName != null) {
                names.putIfAbsent(n.switchName, n);
            }
        }
    }

    /**
     * The switch whose port-0 LID, or the CA one of whose ports' LIDs (with its LMC's range), is {@code lid};
     * null if none, and null if several nodes claim it (files from several subnets: the LID names neither).
     */
    public FabricNode byLid(int lid) {
        return lids.node(lid);
    }

    /** The first node whose trimmed description or switch name is {@code name} (trimmed), or null. */
    public FabricNode byName(String name) {
        return name == null ? null : names.get(name.strip());
    }
}
