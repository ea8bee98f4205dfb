package org.fabricscope.importers.lldp;

import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.NaturalOrder;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.EthernetLinks;
import org.fabricscope.model.fabric.NetdevLink;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.SwitchPortConfig;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the ends of the LLDP-placed links say of their own settings, put on their ports once the fabric is built:
 * hosts' netdevs from iproute2 ({@link IpLinkReader}: MTU, state, addresses) and switches' ports from SONiC's
 * {@code config_db.json} ({@link SonicConfigDbReader}: MTU, PFC, the planned neighbour). A switch port the plan
 * gives a neighbour is on the map even when no LLDP table lists it, so that {@code lldp-neighbour-missing} can name
 * it. Where PFC is known at one end of a link only, an info diagnostic says the other end could not be checked.
 */
final class LldpPortSettings {
    /** A switch's config_db.json: where it was read and its ports' settings by port name. */
    record SwitchConfig(Evidence file, Map<String, SwitchPortConfig> ports) {
    }

    /** Links named in the one-end PFC diagnostic; the rest are counted. */
    static final int EXAMPLES = 3;

    private LldpPortSettings() {
    }

    /** Says what was read but cannot be placed because no LLDP table was loaded. */
    static void unplaced(FabricModelBuilder b, Map<String, Map<String, NetdevLink>> netdevs, Map<String, SwitchConfig> configs) {
        for (Map<String, NetdevLink> m : netdevs.values()) {
            Evidence e = m.values().iterator().next().evidence();
            b.diagnostic(Diagnostic.info(e.source(), e.line(), "hosts' netdevs (ip link / ip addr) were read, but no LLDP "
                    + "neighbour table places the NICs: load lldpcli show neighbors of the hosts or switches too"));
            break;
        }
        for (SwitchConfig c : configs.values()) {
            b.diagnostic(Diagnostic.info(c.file().source(), c.file().line(), "a switch's config_db.json was read, but no LLDP "
                    + "neighbour table places its ports: load lldpcli show neighbors or SONiC show lldp table too"));
            break;
        }
    }

    /** Makes every switch with a config_db.json a switch, and adds the ports its plan gives a neighbour. */
    static void plannedPorts(Map<String, SwitchConfig> configs, Set<String> switches, Map<String, Set<String>> portNames) {
        for (Map.Entry<String, SwitchConfig> c : configs.entrySet()) {
            switches.add(c.getKey());
            Set<String> names = portNames.computeIfAbsent(c.getKey(), k -> new TreeSet<>(NaturalOrder.INSTANCE));
            for (Map.Entry<String, SwitchPortConfig> p : c.getValue().ports().entrySet()) {
                if (p.getValue().neighbourPlanned() && placed(names, p.getKey(), p.getValue()) == null) {
                    names.add(p.getKey());
                }
            }
        }
    }

    /** The name LLDP knows a configured port by: its own, else its alias (SONiC's lldpd may send the alias); or null. */
    private static String placed(Set<String> names, String port, SwitchPortConfig c) {
        if (names.contains(port)) {
            return port;
        }
        return !c.alias().isEmpty() && names.contains(c.alias()) ? c.alias() : null;
    }

    static void apply(FabricModelBuilder b, LldpFabric.Ports ports, Map<String, Set<String>> portNames,
                      Map<String, Map<String, NetdevLink>> netdevs, Map<String, SwitchConfig> configs, List<Port[]> cableEnds) {
        for (Map.Entry<String, Map<String, NetdevLink>> h : netdevs.entrySet()) {
            for (NetdevLink l : h.getValue().values()) {
                Port p = ports.nicPort(h.getKey(), l.netdev());
                if (p != null) { // a host's other netdevs (lo, eth0) are no RoCE NICs: not placed, no word
                    EthernetLinks.netdevLink(p, l);
                }
            }
        }
        for (Map.Entry<String, SwitchConfig> c : configs.entrySet()) {
            Set<String> names = portNames.getOrDefault(c.getKey(), Set.of());
            for (Map.Entry<String, SwitchPortConfig> p : c.getValue().ports().entrySet()) {
                String name = placed(names, p.getKey(), p.getValue());
                if (name != null) {
                    EthernetLinks.switchConfig(ports.of(c.getKey(), name, c.getValue().file()), p.getValue());
                }
            }
        }
        onePfcEnd(b, cableEnds);
    }

    /** One info diagnostic for the links whose PFC is known at one end only. */
    private static void onePfcEnd(FabricModelBuilder b, List<Port[]> cableEnds) {
        Set<Cable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<String> examples = new ArrayList<>();
        Evidence first = null;
        int count = 0;
        for (Port[] ends : cableEnds) {
            Cable c = ends[0].cable();
            if (c == null || !seen.add(c)) {
                continue;
            }
            Evidence x = pfcEvidence(c.a());
            Evidence y = pfcEvidence(c.b());
            if ((x == null) == (y == null)) {
                continue;
            }
            Port known = x != null ? c.a() : c.b();
            Port other = c.other(known);
            if (first == null) {
                first = x != null ? x : y;
            }
            if (++count <= EXAMPLES) {
                examples.add(other.label() + " (" + (other.node().isSwitch() ? "its config_db.json" : "its mlnx_qos -i") + ")");
            }
        }
        if (count > 0) {
            b.diagnostic(Diagnostic.info(first.source(), first.line(), "PFC is known at one end only of " + count + " link"
                    + (count == 1 ? "" : "s") + ": the other end's settings were not loaded for " + String.join(", ", examples)
                    + (count > EXAMPLES ? " and " + (count - EXAMPLES) + " more" : "") + "; whether PFC is on at both ends "
                    + "on the RoCE priority could not be checked there (roce-pfc-one-end)"));
        }
    }

    /** Where a port's PFC settings were read (a host's mlnx_qos, a switch's PORT_QOS_MAP), or null when unknown. */
    static Evidence pfcEvidence(Port p) {
        if (p.qos() != null) {
            return p.qos().evidence();
        }
        SwitchPortConfig c = p.switchConfig();
        return c != null && c.pfcKnown() ? c.qosEvidence() : null;
    }
}
