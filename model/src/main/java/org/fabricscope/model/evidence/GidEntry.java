package org.fabricscope.model.evidence;

import java.util.Locale;

import org.fabricscope.model.core.Evidence;

/**
 * One entry of a port's GID table (the sysfs {@code gids/N} and {@code gid_attrs/types/N} files, or
 * Mellanox's {@code show_gids}): index, the GID as 8 groups of 4 hex digits, its type ({@code RoCE v2},
 * {@code RoCE v1}, {@code IB}, or empty when not given) and the netdev it belongs to (empty when not given).
 */
public record GidEntry(String device, int port, int index, String gid, String type, String netdev, Evidence evidence) {
    public GidEntry {
        device = device == null ? "" : device;
        gid = gid == null ? "" : gid.toLowerCase(Locale.ROOT);
        type = type == null ? "" : type;
        netdev = netdev == null ? "" : netdev;
    }

    /** An all-zero GID: an unused slot of the table. */
    public boolean empty() {
        return gid.replace(":", "").chars().allMatch(c -> c == '0');
    }

    /** The IPv4 address of an IPv4-mapped GID ({@code 0000:...:ffff:0a00:0105} is 10.0.1.5), or null. */
    public String ipv4() {
        String[] g = gid.split(":");
        if (g.length != 8 || !g[5].equals("ffff")) {
            return null;
        }
        for (int i = 0; i < 5; i++) {
            if (!g[i].equals("0000")) {
                return null;
            }
        }
        try {
            int hi = Integer.parseInt(g[6], 16);
            int lo = Integer.parseInt(g[7], 16);
            return (hi >> 8) + "." + (hi & 0xff) + "." + (lo >> 8) + "." + (lo & 0xff);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** RoCE v2 (the type NCCL wants for routable RoCE). */
    public boolean roceV2() {
        return type.equalsIgnoreCase("RoCE v2") || type.equalsIgnoreCase("v2");
    }
}
