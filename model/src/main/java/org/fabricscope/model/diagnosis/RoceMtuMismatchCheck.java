package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.FindingSpec;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.evidence.HcaPortStatus;
import org.fabricscope.model.evidence.HostEvidence;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.Port;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code roce-mtu-mismatch}: the MTU of an LLDP-placed link's two ends, each as that end reports it (a host's
 * netdev from {@code ip link} / {@code ip addr}, a switch port from SONiC's {@code config_db.json}), does not fit:
 * two switches (or two hosts) with different MTUs; a host whose MTU is larger than its switch port's (the switch
 * drops the larger frames); or a host whose MTU allows a smaller RoCE path MTU than its switch port carries (a 1500
 * netdev caps RoCE at 1024 bytes, Linux's {@code iboe_get_mtu}). A host NIC whose other end's MTU is not known is
 * compared with the fabric's other RoCE NICs instead: one that caps RoCE below what most of them get (at least
 * {@value #MIN_PEERS} NICs known) slows every queue pair it is part of. And a NIC whose RDMA port's {@code active_mtu}
 * ({@code ibv_devinfo}, joined by the RDMA device {@code rdma link show} names) needs larger frames than its netdev's MTU.
 */
public final class RoceMtuMismatchCheck implements FabricCheck {
    static final FindingSpec SPEC = new FindingSpec("roce-mtu-mismatch", Layer.FABRIC, Severity.WARNING,
            "Ethernet links whose two ends have MTUs that do not fit (dropped jumbo frames, or RoCE capped below the fabric's path MTU)",
            "ip -d link / ip addr (iproute2); SONiC config_db.json PORT mtu; Linux iboe_get_mtu (include/rdma/ib_addr.h); the RDMA fabric manual (consistent MTU end to end)");
    static final int MIN_PEERS = 3;

    @Override
    public List<FindingSpec> findings() {
        return List.of(SPEC);
    }

    /** An end's MTU and where it was read. */
    private record End(Port port, int mtu, Evidence evidence, String source) {
        static End of(Port p) {
            if (p.netdevLink() != null && p.netdevLink().mtu() >= 0) {
                return new End(p, p.netdevLink().mtu(), p.netdevLink().evidence(), "ip link");
            }
            if (p.switchConfig() != null && p.switchConfig().mtu() >= 0 && p.switchConfig().portEvidence() != null) {
                return new End(p, p.switchConfig().mtu(), p.switchConfig().portEvidence(), "config_db.json");
            }
            return null;
        }

        boolean host() {
            return !port.node().isSwitch();
        }

        String says() {
            return port.label() + " MTU " + mtu + " (" + source + ")";
        }
    }

    @Override
    public List<Finding> run(CheckContext context) {
        List<Finding> out = new ArrayList<>();
        List<End> alone = new ArrayList<>();
        Map<Integer, Integer> capCount = new TreeMap<>();
        for (Cable c : context.model().fabric().cables()) {
            if (!c.fromLldp()) {
                continue;
            }
            End a = End.of(c.a());
            End b = End.of(c.b());
            for (End e : new End[] {a, b}) {
                if (e != null && e.host()) {
                    capCount.merge(EthernetEnds.roceMtu(e.mtu), 1, Integer::sum);
                }
            }
            if (a == null || b == null) {
                End known = a != null ? a : b;
                if (known != null && known.host()) {
                    alone.add(known);
                }
                continue;
            }
            Finding f = compare(c, a, b);
            if (f != null) {
                out.add(f);
            }
        }
        int total = capCount.values().stream().mapToInt(Integer::intValue).sum();
        int common = 0;
        for (Map.Entry<Integer, Integer> e : capCount.entrySet()) {
            if (e.getValue() * 2 > total) {
                common = e.getKey();
            }
        }
        if (total >= MIN_PEERS && common > 0) {
            for (End e : alone) {
                int cap = EthernetEnds.roceMtu(e.mtu);
                if (cap < common) {
                    out.add(belowFabric(e, cap, common, capCount.get(common), total));
                }
            }
        }
        for (Cable c : context.model().fabric().cables()) {
            for (Port p : new Port[] {c.a(), c.b()}) {
                Finding f = c.fromLldp() ? activeMtu(context, p) : null;
                if (f != null) {
                    out.add(f);
                }
            }
        }
        return out;
    }

    /**
     * A RoCE NIC whose RDMA port's active MTU ({@code ibv_devinfo}) needs larger frames than its netdev's MTU carries
     * (the two read at different times, or the netdev changed since the queue pairs were set up).
     */
    private static Finding activeMtu(CheckContext context, Port p) {
        if (p.node().isSwitch() || p.netdevLink() == null || p.netdevLink().mtu() < 0 || p.name() == null) {
            return null;
        }
        String host = EthernetEnds.node(p);
        String name = p.node().displayName();
        String device = name.startsWith(host + " ") ? name.substring(host.length() + 1) : "";
        HostEvidence h = context.model().hostEvidence(host);
        if (device.isEmpty() || device.equals(p.name()) || h == null) {
            return null;
        }
        HcaPortStatus s = h.hcaPort(device, 1).orElse(null);
        int cap = EthernetEnds.roceMtu(p.netdevLink().mtu());
        if (s == null || s.activeMtu() <= cap || s.evidence() == null) {
            return null;
        }
        String title = host + " " + device + ": active_mtu " + s.activeMtu() + " (ibv_devinfo) needs a netdev MTU of at least "
                + (s.activeMtu() + EthernetEnds.ROCE_HEADERS) + ", but " + p.name() + " has MTU " + p.netdevLink().mtu()
                + " (ip link), which holds RoCE packets of " + cap + " at most: larger packets are dropped";
        List<String> remedies = List.of(
                "On " + host + ": ip link set " + p.name() + " mtu 9000 (or at least " + (s.activeMtu() + EthernetEnds.ROCE_HEADERS)
                        + "), then check that ibv_devinfo -d " + device + " and ip link show " + p.name() + " agree; restart the job "
                        + "so that its queue pairs are set up with the path MTU the netdev carries.",
                "If the two were captured at different times, capture them together: the driver derives active_mtu from the netdev MTU.");
        return new Finding(SPEC.id(), Severity.WARNING, title, List.<Subject>of(Subjects.port(p)),
                List.of(p.netdevLink().evidence(), s.evidence()), remedies);
    }

    private static Finding compare(Cable c, End a, End b) {
        String title;
        List<String> remedies = new ArrayList<>();
        if (a.host() != b.host()) {
            End h = a.host() ? a : b;
            End s = a.host() ? b : a;
            int hc = EthernetEnds.roceMtu(h.mtu);
            int sc = EthernetEnds.roceMtu(s.mtu);
            if (h.mtu > s.mtu) {
                title = h.says() + " is larger than " + s.says() + ": frames larger than " + s.mtu + " bytes from "
                        + EthernetEnds.node(h.port) + " are dropped by " + EthernetEnds.node(s.port);
            } else if (hc < sc) {
                title = h.says() + " caps RoCE at " + hc + "-byte packets while " + s.says() + " carries " + sc
                        + ": every queue pair with this NIC runs at " + hc;
            } else {
                return null;
            }
            remedies.add("On " + EthernetEnds.node(h.port) + ": ip link set " + h.port.name() + " mtu " + s.mtu
                    + " (or the MTU the fabric is designed for, 9000 on most RoCE hosts; persist it in netplan or the NIC's "
                    + "ifcfg); ibv_devinfo then shows active_mtu 4096 for its RDMA device.");
        } else {
            if (a.mtu == b.mtu) {
                return null;
            }
            title = a.says() + " and " + b.says() + " differ: frames between " + Math.min(a.mtu, b.mtu) + " and "
                    + Math.max(a.mtu, b.mtu) + " bytes are dropped in one direction";
            End low = a.mtu < b.mtu ? a : b;
            End high = low == a ? b : a;
            remedies.add("Give both ends the same MTU: on " + EthernetEnds.node(low.port) + " "
                    + (low.host() ? "ip link set " + low.port.name() + " mtu " + high.mtu
                    : "config interface mtu " + low.port.name() + " " + high.mtu + " (SONiC), then config save"));
        }
        remedies.add("A RoCE fabric needs one MTU end to end (RDMA fabric manual); SONiC switch ports are usually 9100 and "
                + "hosts 9000, which leaves room for the headers. Check with ip -d link on hosts and show interfaces status on switches.");
        return new Finding(SPEC.id(), Severity.WARNING, title, List.<Subject>of(Subjects.cable(c)),
                List.of(a.evidence, b.evidence), remedies);
    }

    private static Finding belowFabric(End e, int cap, int common, int peers, int total) {
        String title = e.says() + " caps RoCE at " + cap + "-byte packets while " + peers + " of the " + total
                + " RoCE NICs whose MTU is known get " + common + ": queue pairs with this NIC run at " + cap
                + " (its switch port's MTU was not loaded)";
        List<String> remedies = List.of(
                "On " + EthernetEnds.node(e.port) + ": ip link set " + e.port.name() + " mtu 9000 (the MTU of the other hosts' "
                        + "RoCE NICs), persisted in the host's network configuration; ibv_devinfo then shows active_mtu 4096.",
                "Load the switch's config_db.json (or show runningconfiguration all) to compare with the switch port's MTU too.");
        return new Finding(SPEC.id(), Severity.WARNING, title, List.<Subject>of(Subjects.port(e.port)),
                List.of(e.evidence), remedies);
    }
}
