package org.fabricscope.model.ranks;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.evidence.GidEntry;
import org.fabricscope.model.evidence.HostEvidence;
import org.fabricscope.model.evidence.NetInterface;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.fabric.Port;

/**
 * Joins an NCCL device ({@code mlx5_0:1/RoCE}) to the host NIC that LLDP placed when no {@code rdma link show} /
 * {@code ibdev2netdev} said which netdev carries it: through the host's GID table, whose entries name their netdev
 * ({@code show_gids}' last column, sysfs {@code gid_attrs/ndevs}), else through the IPv4 address of a RoCE GID of
 * the device port and the interface ({@code ip addr}) that holds that address. The NIC is the adapter whose port
 * has that netdev's name.
 */
final class RoceNics {
    private RoceNics() {
    }

    /** The LLDP-placed NIC port of {@code host} that carries NCCL's {@code mlx5_0:1/RoCE}, or null. */
    static Port byGidTable(FabricModel model, String host, String ncclDevice) {
        Host h = model.host(host);
        HostEvidence ev = model.hostEvidence(host);
        if (h == null || ev == null || ev.gids().isEmpty()) {
            return null;
        }
        int colon = ncclDevice.indexOf(':');
        String dev = colon < 0 ? ncclDevice.replaceFirst("/.*$", "") : ncclDevice.substring(0, colon);
        int port = 1;
        if (colon >= 0) {
            String n = ncclDevice.substring(colon + 1).replaceFirst("/.*$", "");
            try {
                port = Integer.parseInt(n);
            } catch (NumberFormatException e) {
                port = 1;
            }
        }
        String netdev = null;
        for (GidEntry g : ev.gids()) {
            if (g.device().equals(dev) && g.port() == port && !g.netdev().isEmpty()) {
                netdev = g.netdev();
                break;
            }
        }
        if (netdev == null) {
            for (GidEntry g : ev.gids()) {
                if (g.device().equals(dev) && g.port() == port && g.ipv4() != null) {
                    netdev = interfaceWith(ev, g.ipv4());
                    if (netdev != null) {
                        break;
                    }
                }
            }
        }
        if (netdev == null) {
            return null;
        }
        for (FabricNode a : h.adapters()) {
            for (Port p : a.ports()) {
                if (netdev.equals(p.name())) {
                    return p;
                }
            }
        }
        return null;
    }

    private static String interfaceWith(HostEvidence ev, String ipv4) {
        for (NetInterface i : ev.interfaces()) {
            for (String a : i.addresses()) {
                if (a.replaceFirst("/.*$", "").equals(ipv4)) {
                    return i.name();
                }
            }
        }
        return null;
    }
}
