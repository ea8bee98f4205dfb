package org.fabricscope.model.fabric;

import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Guids;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;


/**
 * Collects the fabric layer importers read (switches, CAs, ports, cables, counters), from any
 * number of files in any order, and builds one immutable {@link FabricLayer}. Nodes merge by GUID,
 * cables by their two ports, counters join ports by LID and port number once everything is read.
 * The whole-model builder ({@code FabricModelBuilder}) extends this with the host, Kubernetes and
 * training layers; the fabric's mutable state stays package-private here. Not thread-safe.
 */
public class FabricBuilder {
    private static final Pattern MANAGED_SWITCH_DESC = Pattern.compile("^MF0;([^:]+):([^/\\s]+)(?:/.*)?$");

    /** The nodes in the order first seen, and by GUID. */
    private final List<FabricNode> nodes = new ArrayList<>();
    private final LongIndex<FabricNode> nodeByGuid = new LongIndex<>();
    private final List<Cable> cables = new ArrayList<>();
    private final LongIndex<FabricNode> byPortGuid = new LongIndex<>();
    private final List<PendingCounters> pendingCounters = new ArrayList<>();
    private final List<Diagnostic> diagnostics = new ArrayList<>();
    private final List<String> sources = new ArrayList<>();
    private final List<LinkChange> linkChanges = new ArrayList<>();

    private record PendingCounters(int lid, int port, long guid, String nodeName, Map<String, Long> counters,
                                   Evidence evidence, boolean allPorts, java.time.Instant time) {
    }

    /** The node with this GUID, created on first mention. A known GUID keeps its first kind. */
    public FabricNode node(long guid, NodeKind kind) {
        FabricNode n = nodeByGuid.get(guid);
        if (n == null) {
            n = new FabricNode(guid, kind);
            nodeByGuid.put(guid, n);
            nodes.add(n);
        }
        return n;
    }

    public FabricNode findNode(long guid) {
        return nodeByGuid.get(guid);
    }

    /** The node with this node GUID, or owning a port with this port GUID; null if none. */
    public FabricNode findNodeByPortGuid(long guid) {
        FabricNode n = nodeByGuid.get(guid);
        return n != null ? n : byPortGuid.get(guid);
    }

    /** Nodes by LID and by name, indexed once over the nodes added so far: for resolving many peers. */
    public NodeLookup lookup() {
        return new NodeLookup(nodes);
    }

    /** First node whose trimmed description or switch name equals {@code name}, or null. */
    public FabricNode findNodeByName(String name) {
        String key = name.strip();
        for (FabricNode n : nodes) {
            if (n.description.strip().equals(key) || key.equals(n.switchName)) {
                return n;
            }
        }
        return null;
    }

    /**
     * The switch whose port-0 LID, or the CA whose port LID, is {@code lid}; null if none, and null if
     * several nodes have it (files from several subnets: the LID names neither).
     */
    public FabricNode findNodeByLid(int lid) {
        if (lid <= 0) {
            return null;
        }
        FabricNode found = null;
        for (FabricNode n : nodes) {
            boolean has = n.lid == lid;
            if (!has && !n.isSwitch()) {
                for (Port p : n.ports.values()) {
                    if (p.lid == lid) {
                        has = true;
                        break;
                    }
                }
            }
            if (has && found != null && found != n) {
                return null;
            }
            if (has) {
                found = n;
            }
        }
        return found;
    }

    public Port port(FabricNode node, int number) {
        Port p = node.ports.get(number); // most calls find it: no capturing lambda made for them
        return p != null ? p : node.ports.computeIfAbsent(number, k -> new Port(node, k));
    }

    public void setDescription(FabricNode n, String description) {
        if (description == null) {
            return;
        }
        n.description = description;
        String d = description.strip();
        Matcher m = d.startsWith("MF0;") ? MANAGED_SWITCH_DESC.matcher(d) : null; // the pattern's own start: skip the rest
        if (m != null && m.matches()) {
            n.switchName = m.group(1);
            n.switchModel = m.group(2);
        } else {
            n.switchName = null;
            n.switchModel = null;
        }
    }

    /** Sets the description only when no file has given one yet. */
    public void offerDescription(FabricNode n, String description) {
        if (n.description.isEmpty() && description != null && !description.isEmpty()) {
            setDescription(n, description);
        }
    }

    /**
     * The node's own name, as its own line prints it (an ibnetdiscover node line): replaces what a
     * peer's remark said. A GUID whose own line was already read under another name in the same file
     * is a conflict (a duplicate GUID): a warning naming both, and the first name is kept. (A name
     * from another file replaces it, with a note naming both: a capture run with a node-name-map
     * names nodes differently from one without, which is no error.)
     */
    public void setDescription(FabricNode n, String description, Evidence where) {
        if (description == null || conflict(n, description, where)) {
            return;
        }
        setDescription(n, description);
        n.nameEvidence = where;
    }

    /**
     * Whether {@code description} contradicts the node's own name read before in the same file
     * (reported when it does). Across files a different name is no conflict: one capture may have
     * run with a node-name-map and the other without; the later file's name is taken, and a note
     * names both.
     */
    private boolean conflict(FabricNode n, String description, Evidence where) {
        if (n.nameEvidence == null || where == null) {
            return false;
        }
        String old = n.description.strip();
        String now = description.strip();
        if (old.equals(now) || now.equals(n.switchName) || old.equals(switchNameOf(now))) {
            return false; // one capture ran with a node-name-map (leaf-1), the other without (MF0;leaf-1:MQM8700/U1)
        }
        if (!n.nameEvidence.source().equals(where.source())) {
            // Not an error (a node-name-map renames nodes), but never silent: say which name won.
            diagnostics.add(Diagnostic.info(where.source(), where.line(), Guids.format(n.guid()) + " is named \""
                    + now + "\" here but \"" + old + "\" at " + where(n.nameEvidence)
                    + " (a node-name-map in one capture, or a duplicate GUID); taking \"" + now + "\" from this file"));
            return false;
        }
        diagnostics.add(Diagnostic.warning(where.source(), where.line(), Guids.format(n.guid()) + " is named \""
                + now + "\" here but \"" + old + "\" at " + where(n.nameEvidence)
                + ": one GUID, two names (a duplicate GUID, or captures of different fabrics); keeping \"" + old + "\""));
        return true;
    }

    private static String switchNameOf(String description) {
        Matcher m = MANAGED_SWITCH_DESC.matcher(description);
        return m.matches() ? m.group(1) : null;
    }

    private static String where(Evidence e) {
        return e.source() + (e.line() > 0 ? ":" + e.line() : "");
    }

    public void setNodeInfo(FabricNode n, int numPorts, long sysImgGuid, int vendorId, int deviceId) {
        if (numPorts > 0) {
            n.numPorts = numPorts;
        }
        if (sysImgGuid != 0) {
            n.sysImgGuid = sysImgGuid;
        }
        if (vendorId != 0) {
            n.vendorId = vendorId;
        }
        if (deviceId != 0) {
            n.deviceId = deviceId;
        }
    }

    public void setSwitchPort0(FabricNode n, int lid, int lmc, Boolean enhanced) {
        if (lid != 0) {
            n.lid = lid;
        }
        n.lmc = lmc;
        if (enhanced != null) {
            n.enhancedPort0 = enhanced;
        }
    }

    public void setEvidence(FabricNode n, Evidence e) {
        if (n.evidence == null) {
            n.evidence = e;
        }
    }

    public void setPortAddress(Port p, long portGuid, int lid, int lmc) {
        if (portGuid != 0) {
            p.portGuid = portGuid;
            byPortGuid.put(portGuid, p.node());
        }
        if (lid != 0) {
            p.lid = lid;
            p.lmc = lmc;
        }
    }

    public void setExtNumber(Port p, int ext) {
        p.extNumber = ext;
    }

    public void setPortRate(Port p, LinkWidth width, LinkSpeed speed) {
        if (width != null) {
            p.width = width;
        }
        if (speed != null) {
            p.speed = speed;
        }
    }

    public void setPortState(Port p, PortState state, PhysState phys, LinkWidth couldBeWidth,
                             LinkSpeed couldBeSpeed, Evidence e) {
        if (state != null && state != PortState.UNKNOWN) {
            p.state = state;
        }
        if (phys != null && phys != PhysState.UNKNOWN) {
            p.physState = phys;
        }
        if (couldBeWidth != null) {
            p.couldBeWidth = couldBeWidth;
        }
        if (couldBeSpeed != null) {
            p.couldBeSpeed = couldBeSpeed;
        }
        p.stateEvidence = e;
        if (p.evidence == null) {
            p.evidence = e;
        }
    }

    /**
     * Records a cable between two ports. Both ends of a link usually report it: the second report
     * fills in what the first lacked. A port already cabled elsewhere gets a warning and keeps its
     * first cable.
     */
    public Cable link(Port x, Port y, LinkWidth width, LinkSpeed speed, Evidence evidence) {
        if (x.evidence == null) {
            x.evidence = evidence;
        }
        // A port is on at most one cable (a second one is refused below), so the cable of these two
        // ports, if there is one, is x's: no lookup by the pair (ten times Selene: 245,760 reports).
        Cable c = x.cable != null && joins(x.cable, x, y) ? x.cable : null;
        if (c == null) {
            for (Port p : new Port[] {x, y}) {
                if (p.cable != null) {
                    Port other = p.cable.other(p);
                    diagnostics.add(Diagnostic.warning(evidence.source(), evidence.line(),
                            p.label() + " is reported cabled to " + (p == x ? y : x).label()
                                    + " but was already cabled to " + (other == null ? "?" : other.label())
                                    + "; keeping the first"));
                    return p.cable;
                }
            }
            boolean xFirst = x.node().id().compareTo(y.node().id()) < 0
                    || (x.node() == y.node() && x.number() <= y.number());
            c = xFirst ? new Cable(x, y) : new Cable(y, x);
            c.evidence = evidence;
            x.cable = c;
            y.cable = c;
            cables.add(c);
        }
        if (width != null && c.width == null) {
            c.width = width;
        }
        if (speed != null && c.speed == null) {
            c.speed = speed;
        }
        return c;
    }

    /** Whether cable {@code c} runs between ports {@code x} and {@code y} (either way round). */
    private static boolean joins(Cable c, Port x, Port y) {
        return (c.a() == x && c.b() == y) || (c.a() == y && c.b() == x);
    }

    /**
     * PMA counters of one port, addressed as perfquery addresses it: by LID and port number
     * (port 255 or {@code allPorts} for an aggregate over all ports), with the GUID or node name
     * when the tool printed it. Matched to ports when the model is built, so file order is free.
     */
    public void counters(int lid, int port, long guid, String nodeName, Map<String, Long> counters,
                         Evidence evidence, boolean allPorts) {
        counters(lid, port, guid, nodeName, counters, evidence, allPorts, null);
    }

    /**
     * Counters read at {@code time} (null: not known): one sample of the port's series. Samples with
     * times are applied in time order, so the port's {@link Port#counters()} are the latest reading.
     */
    public void counters(int lid, int port, long guid, String nodeName, Map<String, Long> counters,
                         Evidence evidence, boolean allPorts, java.time.Instant time) {
        pendingCounters.add(new PendingCounters(lid, port, guid, nodeName, new LinkedHashMap<>(counters),
                evidence, allPorts, time));
    }

    /** A port's link state seen to change at a time (a fabric poller's reading); kept in time order in the layer. */
    public void linkChange(LinkChange change) {
        linkChanges.add(change);
    }

    public void diagnostic(Diagnostic d) {
        diagnostics.add(d);
    }

    public void source(String name) {
        sources.add(name);
    }

    public int nodeCount() {
        return nodes.size();
    }

    /** Diagnostics so far, for the later layers' resolution to add to. */
    protected final List<Diagnostic> diagnosticList() {
        return diagnostics;
    }

    /**
     * Resolves counters, classifies CAs, groups HCAs into hosts and assigns tiers, and returns the
     * fabric as an immutable layer. Call once, when every file has been read.
     */
    protected final FabricLayer buildFabric() {
        LidIndex lids = new LidIndex(nodes);
        resolveCounters(lids);
        classifyAdapters();
        Map<String, Host> hosts = groupHosts();
        TierClassifier.assign(nodes, cables);
        Diagnostic repeats = lids.summary(sources.isEmpty() ? "" : sources.get(sources.size() - 1));
        if (repeats != null) {
            diagnostics.add(repeats);
        }
        return new FabricLayer(nodes, cables, hosts, List.copyOf(sources), linkChanges, lids);
    }

    private void resolveCounters(LidIndex lids) {
        if (pendingCounters.isEmpty()) {
            return;
        }
        // stable: untimed readings keep file order, before the timed ones in time order (a series' latest last)
        pendingCounters.sort(java.util.Comparator.comparing(PendingCounters::time,
                java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder())));
        for (PendingCounters pc : pendingCounters) {
            FabricNode node = null;
            if (Guids.isValid(pc.guid)) {
                node = nodeByGuid.get(pc.guid);
                if (node == null) {
                    node = byPortGuid.get(pc.guid);
                }
            }
            if (node == null && pc.lid > 0) {
                node = lids.node(pc.lid);
            }
            if (node == null && pc.nodeName != null) {
                node = findNodeByName(pc.nodeName);
            }
            if (node == null && pc.lid > 0 && lids.repeated(pc.lid)) {
                diagnostics.add(Diagnostic.warning(pc.evidence.source(), pc.evidence.line(),
                        "counters for LID " + pc.lid + " port " + pc.port + " were not placed: LID " + pc.lid
                                + " is claimed by " + lids.claimants(pc.lid) + " (files from several subnets, or from"
                                + " different times); read counters that name GUIDs (ibqueryerrors) or load one subnet at a time"));
                continue;
            }
            if (node == null) {
                diagnostics.add(Diagnostic.warning(pc.evidence.source(), pc.evidence.line(),
                        "counters for " + (pc.lid > 0 ? "LID " + pc.lid : pc.nodeName != null ? "\"" + pc.nodeName + "\""
                                : Guids.format(pc.guid)) + " port " + pc.port
                                + " match no node of the loaded fabric; load its ibnetdiscover output too"));
                continue;
            }
            if (pc.allPorts || pc.port == 255) {
                diagnostics.add(Diagnostic.info(pc.evidence.source(), pc.evidence.line(),
                        "aggregate counters over all ports of " + node.displayName()
                                + " cannot be placed on one port; read per-port counters (perfquery without -a)"));
                continue;
            }
            Port p = port(node, pc.port);
            if (p.counters.isEmpty()) {
                p.counters = new LinkedHashMap<>();
                p.counterSources = new HashMap<>();
            }
            p.counters.putAll(pc.counters);
            p.counterEvidence = pc.evidence;
            if (p.counterSamples.isEmpty()) {
                p.counterSamples = new ArrayList<>(1);
            }
            p.counterSamples.add(new CounterSample(pc.time, pc.counters, pc.evidence));
            for (String name : pc.counters.keySet()) {
                p.counterSources.put(name, pc.evidence);
            }
        }
    }

    /** SHARP aggregation nodes and a switch's own management CA are not hosts. */
    private void classifyAdapters() {
        Map<Long, Boolean> switchSysImg = new HashMap<>();
        for (FabricNode n : nodes) {
            if (n.isSwitch() && n.sysImgGuid != 0) {
                switchSysImg.put(n.sysImgGuid, true);
            }
        }
        for (FabricNode n : nodes) {
            if (n.kind() != NodeKind.CA) {
                continue;
            }
            String d = n.description.strip();
            if (d.contains("Aggregation Node")) {
                n.role = CaRole.SHARP_AGGREGATION;
            } else if ((n.sysImgGuid != 0 && switchSysImg.containsKey(n.sysImgGuid))
                    || (d.startsWith("MF0;") && MANAGED_SWITCH_DESC.matcher(d).matches())) {
                n.role = CaRole.SWITCH_MANAGEMENT;
            } else {
                n.role = CaRole.HOST;
            }
        }
    }

    private Map<String, Host> groupHosts() {
        Map<String, Host> hosts = new LinkedHashMap<>();
        for (FabricNode n : nodes) {
            if (!n.isHostAdapter()) {
                continue;
            }
            String name = hostNameOf(n);
            Host h = hosts.computeIfAbsent(name, Host::new);
            h.addAdapter(n);
            n.host = h;
        }
        return hosts;
    }

    /**
     * The host part of an HCA description: {@code "selene-cache-02 mlx5_1 "} gives
     * {@code selene-cache-02}. A description of one word is the host itself; none at all falls
     * back to the system image GUID, which the ports of one adapter share.
     */
    public static String hostNameOf(FabricNode ca) {
        String d = ca.description.strip();
        if (d.isEmpty()) {
            return Guids.format(ca.sysImgGuid != 0 ? ca.sysImgGuid : ca.guid());
        }
        int sp = indexOfWhitespace(d);
        return sp < 0 ? d : d.substring(0, sp);
    }

    private static int indexOfWhitespace(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isWhitespace(s.charAt(i))) {
                return i;
            }
        }
        return -1;
    }
}
