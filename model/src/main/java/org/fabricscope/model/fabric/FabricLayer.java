package org.fabricscope.model.fabric;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fabric layer once built: switches, CAs and routers by GUID, cables, hosts (HCAs grouped by
 * the host part of their description), the files read, and lookups by LID and port GUID.
 * Immutable; the nodes and ports it holds are no longer changed once {@link FabricBuilder} made it.
 */
public final class FabricLayer {
    public static final FabricLayer EMPTY = new FabricLayer(List.of(), List.of(), Map.of(), List.of());

    private final Map<Long, FabricNode> nodes;
    private final List<Cable> cables;
    private final Map<String, Host> hosts;
    private final List<String> sources;
    private final List<LinkChange> linkChanges;
    private final LidIndex byLid;
    private final LongIndex<FabricNode> byPortGuid = new LongIndex<>();

    /** {@code nodes}: each node once, in the order they are to be listed. */
    FabricLayer(List<FabricNode> nodes, List<Cable> cables, Map<String, Host> hosts, List<String> sources) {
        this(nodes, cables, hosts, sources, List.of());
    }

    /** As above, with the link state changes a poller saw (sorted here by time; untimed first). */
    FabricLayer(List<FabricNode> nodes, List<Cable> cables, Map<String, Host> hosts, List<String> sources,
                List<LinkChange> linkChanges) {
        this(nodes, cables, hosts, sources, linkChanges, new LidIndex(nodes));
    }

    /** As above, with the nodes' LIDs already indexed. */
    FabricLayer(List<FabricNode> nodes, List<Cable> cables, Map<String, Host> hosts, List<String> sources,
                List<LinkChange> linkChanges, LidIndex lids) {
        this.linkChanges = linkChanges.stream().sorted(java.util.Comparator.comparing(LinkChange::time,
                java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder()))).toList();
        Map<Long, FabricNode> byGuid = new LinkedHashMap<>(Math.max(16, nodes.size() * 4 / 3 + 1));
        for (FabricNode n : nodes) {
            byGuid.put(n.guid(), n);
        }
        this.nodes = Collections.unmodifiableMap(byGuid);
        this.cables = List.copyOf(cables);
        this.hosts = Collections.unmodifiableMap(new LinkedHashMap<>(hosts));
        this.sources = List.copyOf(sources);
        for (FabricNode n : nodes) {
            for (Port p : n.ports()) {
                if (p.portGuid != 0) {
                    byPortGuid.putIfAbsent(p.portGuid, n);
                }
            }
        }
        byLid = lids;
    }

    public Map<Long, FabricNode> nodes() {
        return nodes;
    }

    public List<Cable> cables() {
        return cables;
    }

    public Map<String, Host> hosts() {
        return hosts;
    }

    /** Link state changes seen by a poller, in time order; empty for files. */
    public List<LinkChange> linkChanges() {
        return linkChanges;
    }

    public List<String> sources() {
        return sources;
    }

    /**
     * The node answering on this LID (a switch's port 0 LID or a CA port's LID), or null: when none does,
     * and when several nodes claim it (files from several subnets; {@link #lidRepeats}).
     */
    public FabricNode nodeByLid(int lid) {
        return byLid.node(lid);
    }

    /** Whether more than one node of the loaded files claims this LID (several subnets, or different times). */
    public boolean lidRepeats(int lid) {
        return byLid.repeated(lid);
    }

    /** The node with this node GUID, or the node one of whose ports has it, or null. */
    public FabricNode nodeByPortGuid(long guid) {
        FabricNode n = nodes.get(guid);
        return n != null ? n : byPortGuid.get(guid);
    }
}
