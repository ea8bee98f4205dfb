package org.fabricscope.model.fabric;

import org.fabricscope.model.core.Evidence;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * What Ethernet fabrics (RoCE) add to the fabric graph, for the readers of LLDP neighbour tables: node
 * keys made from names (an Ethernet switch or NIC has no node GUID), port interface names, which end's
 * neighbour table listed a cable, and which nodes' own tables were read. The nodes, ports and cables
 * themselves are made with {@link FabricBuilder}'s usual calls, so the map, the tiers and the exports
 * treat them as they treat InfiniBand's.
 */
public final class EthernetLinks {
    private EthernetLinks() {
    }

    /**
     * A stable 64-bit key for an Ethernet node, from its name (a switch's system name, {@code host netdev}
     * for a NIC): the first 8 bytes of SHA-256 of {@code "lldp:" + name}, never 0 or all ones, so node ids
     * ({@code S-...}, {@code H-...}) stay the same from capture to capture.
     */
    public static long keyOf(String name) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(("lldp:" + name).getBytes(StandardCharsets.UTF_8));
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = (v << 8) | (d[i] & 0xFF);
            }
            return v == 0 || v == -1L ? 1 : v;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /** Names an Ethernet port by its interface ({@code Ethernet8}); the first name given stays. */
    public static void name(Port p, String interfaceName) {
        if (p.name == null && interfaceName != null && !interfaceName.isEmpty()) {
            p.name = interfaceName;
        }
    }

    /** Records that {@code end}'s own neighbour table listed {@code cable}, at {@code where}. */
    public static void reportedBy(Cable cable, Port end, Evidence where) {
        if (end == cable.a() && cable.reportedByA == null) {
            cable.reportedByA = where;
        } else if (end == cable.b() && cable.reportedByB == null) {
            cable.reportedByB = where;
        }
    }

    /** Records that {@code node}'s own neighbour table was read, at {@code where}. */
    public static void tableRead(FabricNode node, Evidence where) {
        if (node.neighbourTable == null) {
            node.neighbourTable = where;
        }
    }

    /** Sets a RoCE NIC port's QoS settings; a later reading replaces an earlier one. */
    public static void qos(Port p, RoceQos qos) {
        p.qos = qos;
    }

    /** Sets a host NIC port's netdev (MTU, state, addresses); a later reading replaces an earlier one. */
    public static void netdevLink(Port p, NetdevLink link) {
        p.netdevLink = link;
    }

    /** Sets a switch port's configuration (SONiC config_db.json); a later reading replaces an earlier one. */
    public static void switchConfig(Port p, SwitchPortConfig config) {
        p.switchConfig = config;
    }
}
