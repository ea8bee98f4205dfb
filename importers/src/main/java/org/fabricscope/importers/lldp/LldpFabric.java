package org.fabricscope.importers.lldp;

import org.fabricscope.importers.core.ImportState;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.NaturalOrder;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.EthernetLinks;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.NetdevLink;
import org.fabricscope.model.fabric.NodeKind;
import org.fabricscope.model.fabric.PhysState;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.PortState;
import org.fabricscope.model.fabric.RoceQos;
import org.fabricscope.model.fabric.SwitchPortConfig;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The Ethernet fabric that the LLDP neighbour tables of one import describe, built into the fabric graph
 * once every file is read. A switch is a node keyed by its system name (a neighbour that sent none, by its
 * chassis id; one whose chassis id another table names is that name), its ports by interface name, numbered
 * in natural order; a host's NIC is a channel adapter of its own ({@code gpu-node-01 ens1f0np0}, one port),
 * named by the RDMA device it carries when {@code rdma link show} or {@code ibdev2netdev} says which
 * ({@link RdmaNetdevReader}), so hosts group their NICs as they group HCAs and ranks join them; a cable joins the two ports a table pairs, however many
 * tables list it, and remembers which end's table did. A node is a switch when a table says it bridges or
 * routes (LLDP's capabilities), or when its ports have switch names ({@code Ethernet0}, {@code swp1},
 * {@code Eth1/1}: a plain lldpd on a switch says Station only); else a host. The tiers then follow as for InfiniBand: a switch cabled to hosts is a leaf.
 */
public final class LldpFabric implements ImportState {
    private static final Pattern SWITCH_PORT = Pattern.compile(
            "^(?:Ethernet\\d+(?:/\\d+)*|Eth\\d+/\\d+(?:/\\d+)?|swp\\d+(?:s\\d+)?|et-\\d+/\\d+/\\d+|xe-\\d+/\\d+/\\d+|TenGigabitEthernet\\S+|HundredGigE\\S+|FourHundredGigE\\S+)$");

    private final List<LldpTable> tables = new ArrayList<>();
    /** host -> netdev -> its RDMA device, from rdma link show, ibdev2netdev or the sysfs listing. */
    private final Map<String, Map<String, RdmaDevice>> rdma = new HashMap<>();

    /** An RDMA device and port that a netdev carries, and where that was read. */
    record RdmaDevice(String device, int port, Evidence evidence) {
    }

    /**
     * Records that {@code netdev} on {@code host} carries RDMA device {@code device} port {@code port}. A netdev
     * given another device before keeps the first, with a warning naming both lines.
     */
    public void netdev(String host, String netdev, String device, int port, Evidence where) {
        Map<String, RdmaDevice> m = rdma.computeIfAbsent(host, k -> new HashMap<>());
        RdmaDevice old = m.get(netdev);
        if (old != null && !old.device().equals(device)) {
            conflicts.add(Diagnostic.warning(where.source(), where.line(), host + ": " + netdev + " is said to carry "
                    + device + " here but " + old.device() + " at " + old.evidence().source() + ":" + old.evidence().line()
                    + "; keeping " + old.device()));
            return;
        }
        m.putIfAbsent(netdev, new RdmaDevice(device, port, where));
    }

    private final List<Diagnostic> conflicts = new ArrayList<>();
    /** host -> netdev -> its QoS settings (mlnx_qos), the last read kept. */
    private final Map<String, Map<String, RoceQos>> qos = new LinkedHashMap<>();

    /** One counter sample of a NIC, by netdev or by RDMA device and port. */
    private record CounterReading(String host, String netdev, String device, int port, Map<String, Long> counters,
                                  java.time.Instant time, Evidence evidence) {
    }

    private final List<CounterReading> counters = new ArrayList<>();

    /** Records one sample of counters of {@code host}'s NIC {@code netdev} (or RDMA {@code device}, when netdev is null). */
    public void counters(String host, String netdev, String device, int port, Map<String, Long> values,
                         java.time.Instant time, Evidence where) {
        counters.add(new CounterReading(host, netdev, device, port, org.fabricscope.model.core.OrderedMaps.copyOf(values), time, where));
    }

    /** Records {@code netdev}'s QoS settings on {@code host}. */
    public void qos(String host, String netdev, RoceQos settings) {
        qos.computeIfAbsent(host, k -> new LinkedHashMap<>()).put(netdev, settings);
    }

    /** host -> netdev -> what iproute2 said of it (ip -d link, ip addr), the last read kept. */
    private final Map<String, Map<String, NetdevLink>> netdevs = new LinkedHashMap<>();
    /** switch -> its config_db.json's ports, the last file read kept. */
    private final Map<String, LldpPortSettings.SwitchConfig> switchConfigs = new LinkedHashMap<>();

    /** Records what iproute2 says of {@code host}'s netdev (MTU, state, addresses). */
    public void netdevLink(String host, NetdevLink link) {
        netdevs.computeIfAbsent(host, k -> new LinkedHashMap<>()).put(link.netdev(), link);
    }

    /** Records a switch's own configuration of its ports (SONiC config_db.json), read at {@code file}. */
    public void switchConfig(String name, Evidence file, Map<String, SwitchPortConfig> ports) {
        switchConfigs.put(name, new LldpPortSettings.SwitchConfig(file, org.fabricscope.model.core.OrderedMaps.copyOf(ports)));
    }

    /** Adds one node's table (from any file, in any order). */
    public void table(LldpTable t) {
        tables.add(t);
    }

    public List<LldpTable> tables() {
        return List.copyOf(tables);
    }

    @Override
    public void applyTo(FabricModelBuilder b) {
        conflicts.forEach(b::diagnostic);
        if (tables.isEmpty()) {
            if (!counters.isEmpty()) {
                Evidence e = counters.get(0).evidence();
                b.diagnostic(Diagnostic.info(e.source(), e.line(), "RoCE NIC counters were read, but no LLDP neighbour table "
                        + "places the NICs: load lldpcli show neighbors of the hosts or switches too"));
            }
            if (!qos.isEmpty()) {
                Evidence e = qos.values().iterator().next().values().iterator().next().evidence();
                b.diagnostic(Diagnostic.info(e.source(), e.line(), "mlnx_qos settings were read, but no LLDP neighbour table "
                        + "places the NICs: load lldpcli show neighbors of the hosts or switches too"));
            }
            if (!rdma.isEmpty()) {
                Evidence e = rdma.values().iterator().next().values().iterator().next().evidence();
                b.diagnostic(Diagnostic.info(e.source(), e.line(), "which netdev carries which RDMA device was read, but no "
                        + "LLDP neighbour table places the netdevs: load lldpcli show neighbors of the hosts or switches too"));
            }
            LldpPortSettings.unplaced(b, netdevs, switchConfigs);
            return;
        }
        Map<String, String> nameByChassis = new HashMap<>();
        for (LldpTable t : tables) {
            for (LldpNeighbour n : t.neighbours()) {
                if (!n.sysName().isEmpty() && !n.chassisId().isEmpty()) {
                    nameByChassis.putIfAbsent(n.chassisId(), n.sysName());
                }
            }
        }
        // which nodes are switches, and every port name each one has
        Map<String, Boolean> saysSwitch = new HashMap<>();
        Map<String, Set<String>> portNames = new LinkedHashMap<>();
        List<Link> links = new ArrayList<>();
        for (LldpTable t : tables) {
            portNames.computeIfAbsent(t.localNode(), k -> new TreeSet<>(NaturalOrder.INSTANCE));
            for (LldpNeighbour n : t.neighbours()) {
                String remote = n.sysName().isEmpty() ? nameByChassis.getOrDefault(n.chassisId(), n.remoteNode()) : n.sysName();
                String remotePort = n.remotePort();
                if (remote.isEmpty() || remotePort.isEmpty() || n.localPort().isEmpty()) {
                    b.diagnostic(Diagnostic.warning(n.evidence().source(), n.evidence().line(), t.localNode()
                            + ": a neighbour on " + (n.localPort().isEmpty() ? "an unnamed interface" : n.localPort())
                            + " sent no " + (remote.isEmpty() ? "system name or chassis id" : "port id")
                            + "; it cannot be placed on the map, skipped"));
                    continue;
                }
                if (n.saysSwitch()) {
                    saysSwitch.put(remote, true);
                } else if (n.capabilitiesKnown()) {
                    saysSwitch.putIfAbsent(remote, false);
                }
                portNames.get(t.localNode()).add(n.localPort());
                portNames.computeIfAbsent(remote, k -> new TreeSet<>(NaturalOrder.INSTANCE)).add(remotePort);
                links.add(new Link(t.localNode(), n.localPort(), remote, remotePort, n.evidence()));
            }
        }
        Set<String> switches = new LinkedHashSet<>();
        for (Map.Entry<String, Set<String>> e : portNames.entrySet()) {
            Boolean said = saysSwitch.get(e.getKey());
            if (Boolean.TRUE.equals(said) || switchPorts(e.getValue())) {
                switches.add(e.getKey());
            }
        }
        LldpPortSettings.plannedPorts(switchConfigs, switches, portNames);
        Ports ports = new Ports(b, switches, portNames, rdma);
        for (Link l : links) {
            Port x = ports.of(l.localNode, l.localPort, l.evidence);
            Port y = ports.of(l.remoteNode, l.remotePort, l.evidence);
            Cable c = b.link(x, y, null, null, l.evidence);
            EthernetLinks.reportedBy(c, x, l.evidence);
            for (Port p : new Port[] {x, y}) {
                b.setPortState(p, PortState.ACTIVE, PhysState.LINK_UP, null, null, l.evidence);
            }
        }
        for (Map.Entry<String, Map<String, RoceQos>> h : qos.entrySet()) {
            for (Map.Entry<String, RoceQos> q : h.getValue().entrySet()) {
                Port p = ports.nicPort(h.getKey(), q.getKey());
                if (p == null) {
                    Evidence e = q.getValue().evidence();
                    b.diagnostic(Diagnostic.info(e.source(), e.line(), h.getKey() + " " + q.getKey() + ": its QoS settings "
                            + "were read but no LLDP table places this NIC; they are not shown"));
                } else {
                    EthernetLinks.qos(p, q.getValue());
                }
            }
        }
        for (CounterReading c : counters) {
            FabricNode nic = c.netdev() != null ? b.findNode(EthernetLinks.keyOf(c.host() + " " + c.netdev()))
                    : ports.nicOfDevice(c.host(), c.device());
            if (nic == null) {
                b.diagnostic(Diagnostic.info(c.evidence().source(), c.evidence().line(), c.host() + " "
                        + (c.netdev() != null ? c.netdev() : c.device() + " (no rdma link show or ibdev2netdev says which netdev)")
                        + ": its counters were read but no LLDP table places this NIC; they are not shown"));
                continue;
            }
            // ethtool's port counters and the RDMA hw_counters share the NIC's one port
            b.counters(0, 1, nic.guid(), null, c.counters(), c.evidence(), false, c.time());
        }
        List<Port[]> cableEnds = new ArrayList<>();
        for (Link l : links) {
            cableEnds.add(new Port[] {ports.of(l.localNode, l.localPort, l.evidence), ports.of(l.remoteNode, l.remotePort, l.evidence)});
        }
        LldpPortSettings.apply(b, ports, portNames, netdevs, switchConfigs, cableEnds);
        boolean switchTable = false;
        for (LldpTable t : tables) {
            if (switches.contains(t.localNode())) {
                switchTable = true;
                EthernetLinks.tableRead(ports.switchNode(t.localNode(), t.evidence()), t.evidence());
            } else {
                for (FabricNode nic : ports.nicsOf(t.localNode())) {
                    EthernetLinks.tableRead(nic, t.evidence());
                }
            }
        }
        if (!switchTable) {
            Evidence e = tables.get(0).evidence();
            b.diagnostic(Diagnostic.info(e.source(), e.line(), "only hosts' LLDP neighbour tables were read: the hosts are "
                    + "drawn under the leaves they are cabled to, and the tiers above the leaves are unknown (load the "
                    + "switches' lldpcli show neighbors or SONiC show lldp table too)"));
        }
    }

    private static boolean switchPorts(Set<String> names) {
        for (String n : names) {
            if (SWITCH_PORT.matcher(n).matches()) {
                return true;
            }
        }
        return false;
    }

    private record Link(String localNode, String localPort, String remoteNode, String remotePort, Evidence evidence) {
    }

    /** Nodes and ports made on first mention: a switch per name, a channel adapter per host NIC. */
    static final class Ports {
        private final FabricModelBuilder b;
        private final Set<String> switches;
        private final Map<String, Set<String>> portNames;
        private final Map<String, List<FabricNode>> nicsByHost = new HashMap<>();
        private final Map<String, Map<String, RdmaDevice>> rdma;

        Ports(FabricModelBuilder b, Set<String> switches, Map<String, Set<String>> portNames,
              Map<String, Map<String, RdmaDevice>> rdma) {
            this.b = b;
            this.switches = switches;
            this.portNames = portNames;
            this.rdma = rdma;
        }

        FabricNode switchNode(String name, Evidence e) {
            FabricNode n = b.findNode(EthernetLinks.keyOf(name));
            if (n == null) {
                n = b.node(EthernetLinks.keyOf(name), NodeKind.SWITCH);
                b.setDescription(n, name);
                b.setNodeInfo(n, portNames.getOrDefault(name, Set.of()).size(), 0, 0, 0);
                b.setEvidence(n, e);
            }
            return n;
        }

        Port of(String node, String iface, Evidence e) {
            if (switches.contains(node)) {
                FabricNode sw = switchNode(node, e);
                int number = 1;
                for (String p : portNames.get(node)) {
                    if (p.equals(iface)) {
                        break;
                    }
                    number++;
                }
                Port p = b.port(sw, number);
                EthernetLinks.name(p, iface);
                return p;
            }
            String name = node + " " + iface;
            FabricNode nic = b.findNode(EthernetLinks.keyOf(name));
            if (nic == null) {
                nic = b.node(EthernetLinks.keyOf(name), NodeKind.CA);
                RdmaDevice dev = rdma.getOrDefault(node, Map.of()).get(iface);
                // named by its RDMA device when known (gpu-node-01 mlx5_0), as an HCA is: ranks join by it
                b.setDescription(nic, dev == null ? name : node + " " + dev.device());
                b.setNodeInfo(nic, 1, 0, 0, 0);
                b.setEvidence(nic, e);
                nicsByHost.computeIfAbsent(node, k -> new ArrayList<>()).add(nic);
            }
            Port p = b.port(nic, 1);
            EthernetLinks.name(p, iface);
            return p;
        }

        /** The port of {@code host}'s NIC {@code netdev} if a table placed it, else null. */
        Port nicPort(String host, String netdev) {
            FabricNode nic = b.findNode(EthernetLinks.keyOf(host + " " + netdev));
            return nic == null ? null : nic.port(1);
        }

        /** The NIC of {@code host} that carries RDMA {@code device}, or null. */
        FabricNode nicOfDevice(String host, String device) {
            for (Map.Entry<String, RdmaDevice> e : rdma.getOrDefault(host, Map.of()).entrySet()) {
                if (e.getValue().device().equals(device)) {
                    return b.findNode(EthernetLinks.keyOf(host + " " + e.getKey()));
                }
            }
            return null;
        }

        List<FabricNode> nicsOf(String host) {
            return nicsByHost.getOrDefault(host, List.of());
        }
    }
}
