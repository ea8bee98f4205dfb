package org.fabricscope.model.compare;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.evidence.GidEntry;
import org.fabricscope.model.evidence.HcaFact;
import org.fabricscope.model.evidence.HcaPortStatus;
import org.fabricscope.model.evidence.HostEvidence;
import org.fabricscope.model.evidence.NetInterface;
import org.fabricscope.model.evidence.PciLink;
import org.fabricscope.model.training.NcclProcess;

/**
 * The hosts' differences, from what commands run on them said ({@code ibstat}/{@code ibv_devinfo}, GID tables,
 * {@code ip addr}, {@code lspci -vv}) and what NCCL reported about them: the RDMA devices (firmware, CA type, part
 * and board id) and their ports (state, rate, link layer, LID, active MTU), the GID table entries, the network
 * interfaces (state, addresses, MTU), the PCIe links (speed and width), and the CUDA driver version NCCL printed. A host only one capture has is added or removed.
 */
final class HostDiff {
    private HostDiff() {
    }

    static void compare(FabricModel before, FabricModel after, List<Change> out) {
        Map<String, Map<String, String>> b = facts(before);
        Map<String, Map<String, String>> a = facts(after);
        for (String host : Values.union(b.keySet(), a.keySet())) {
            Map<String, String> x = b.get(host);
            Map<String, String> y = a.get(host);
            if (x == null || y == null) {
                out.add(new Change(Change.HOSTS, x == null ? Change.ADDED : Change.REMOVED, host, "host", null, null));
                continue;
            }
            Values.compare(Change.HOSTS, host, "", x, y, out);
        }
    }

    /** Each host's facts as field -> value text, the fields being what a change names. */
    static Map<String, Map<String, String>> facts(FabricModel m) {
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        for (HostEvidence h : m.hostEvidence().values()) {
            Map<String, String> f = out.computeIfAbsent(h.host(), k -> new LinkedHashMap<>());
            for (HcaPortStatus p : h.hcaPorts()) {
                String at = p.device() + " port " + p.port();
                f.put(at + " state", String.valueOf(p.state()));
                put(f, at + " rate", p.rate());
                put(f, at + " link layer", p.linkLayer());
                if (p.lid() > 0) {
                    f.put(at + " lid", Integer.toString(p.lid()));
                }
            }
            for (GidEntry g : h.gids()) {
                if (!g.gid().isEmpty() && !g.gid().replace("0", "").replace(":", "").isEmpty()) {
                    f.put(g.device() + " port " + g.port() + " gid " + g.index(), g.gid()
                            + (g.type().isEmpty() ? "" : " " + g.type()) + (g.netdev().isEmpty() ? "" : " " + g.netdev()));
                }
            }
            for (HcaFact x : h.hcaFacts()) {
                put(f, x.field(), x.value());
            }
            for (NetInterface i : h.interfaces()) {
                put(f, "interface " + i.name() + " state", i.state());
                if (i.mtu() > 0) {
                    f.put("interface " + i.name() + " mtu", Integer.toString(i.mtu()));
                }
                f.put("interface " + i.name() + " addresses", String.join(" ", i.addresses()));
            }
            for (PciLink l : h.pciLinks()) {
                f.put("pci " + l.busId() + " link", String.format(java.util.Locale.ROOT, "%sGT/s x%d (capable %sGT/s x%d)",
                        num(l.staGts()), l.staWidth(), num(l.capGts()), l.capWidth()));
            }
        }
        for (NcclProcess p : m.trainingLog().processes()) {
            String driver = p.facts().get(NcclProcess.CUDA_DRIVER);
            if (driver != null) {
                out.computeIfAbsent(p.host(), k -> new LinkedHashMap<>()).put("cuda driver", driver);
            }
        }
        return out;
    }

    private static void put(Map<String, String> f, String k, String v) {
        if (v != null && !v.isEmpty()) {
            f.put(k, v);
        }
    }

    private static String num(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

}
