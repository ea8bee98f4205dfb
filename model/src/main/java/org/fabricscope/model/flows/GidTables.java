package org.fabricscope.model.flows;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.evidence.EnvVar;
import org.fabricscope.model.evidence.GidEntry;
import org.fabricscope.model.evidence.HostEvidence;
import org.fabricscope.model.evidence.NetInterface;
import org.fabricscope.model.training.Rank;

/**
 * The GID tables of the hosts read (the sysfs listing of the RunAI RoCE guide's one-liner, {@code show_gids},
 * {@code ibv_devinfo -v}), worked out the way the RunAI RoCE guide does it by hand: for each RDMA device port, the index of
 * the RoCE v2 entry whose GID is IPv4-mapped ({@code ::ffff:a.b.c.d}), and from those the exact
 * {@code NCCL_IB_GID_INDEX} and {@code NCCL_IB_HCA} a job needs: one pair when every node and device agree,
 * else one per node. Where a port holds several such entries (several IPv4 addresses), the one whose address
 * the host's interfaces ({@code ip addr}) or the NCCL log's bootstrap interface show is taken, else the lowest.
 */
final class GidTables {
    /** A device port of one host with its entries, and its RoCE v2 IPv4 entry when it has one. */
    record Port(String host, String device, int port, List<GidEntry> entries, GidEntry chosen, List<GidEntry> others) {
        String label() {
            return host + " " + device + " port " + port;
        }

        /** {@code mlx5_bond_0} or {@code mlx5_0:1}, as NCCL_IB_HCA names it. */
        String token(boolean withPort) {
            return withPort ? device + ":" + port : device;
        }

        /** What the port holds instead of a RoCE v2 IPv4 entry: {@code IB/RoCE v1 link-local and IPv6 entries}. */
        String holds() {
            Set<String> kinds = new LinkedHashSet<>();
            for (GidEntry g : entries) {
                if (g.empty()) {
                    continue;
                }
                String what = g.ipv4() != null ? "IPv4 " + g.ipv4() : g.gid().startsWith("fe80:") ? "link-local" : "IPv6";
                kinds.add(what + (g.type().isEmpty() ? "" : " " + g.type()));
            }
            return kinds.isEmpty() ? "no GID in use" : String.join(", ", kinds) + " entries";
        }
    }

    private final List<Port> ports = new ArrayList<>();
    private final Map<String, List<Port>> byHost = new LinkedHashMap<>();
    /** Every device name the tables list, per host. */
    private final Map<String, Set<String>> devices = new LinkedHashMap<>();

    private GidTables() {
    }

    /** The tables of the job's hosts (all hosts read, when no job matches); {@code hca}: an NCCL_IB_HCA to keep to, or null. */
    static GidTables of(FlowContext c, String hca) {
        GidTables t = new GidTables();
        Set<String> ips = localAddresses(c);
        for (HostEvidence h : HostFacts.relevant(c)) {
            Map<String, List<GidEntry>> byPort = new LinkedHashMap<>();
            for (GidEntry g : h.gids()) {
                t.devices.computeIfAbsent(h.host(), k -> new LinkedHashSet<>()).add(g.device());
                if (hca == null || matches(hca, g.device(), g.port())) {
                    byPort.computeIfAbsent(g.device() + "\u0000" + g.port(), k -> new ArrayList<>()).add(g);
                }
            }
            Set<String> hostIps = new LinkedHashSet<>(ips);
            for (NetInterface i : h.interfaces()) {
                i.addresses().forEach(a -> hostIps.add(a.replaceFirst("/.*$", "")));
            }
            for (List<GidEntry> entries : byPort.values()) {
                entries.sort(Comparator.comparingInt(GidEntry::index));
                List<GidEntry> v2 = entries.stream().filter(g -> g.roceV2() && g.ipv4() != null).toList();
                GidEntry chosen = v2.stream().filter(g -> hostIps.contains(g.ipv4())).findFirst()
                        .orElse(v2.isEmpty() ? null : v2.get(0));
                List<GidEntry> others = v2.stream().filter(g -> g != chosen).toList();
                Port p = new Port(h.host(), entries.get(0).device(), entries.get(0).port(), entries, chosen, others);
                t.ports.add(p);
                t.byHost.computeIfAbsent(h.host(), k -> new ArrayList<>()).add(p);
            }
        }
        return t;
    }

    /** The IPv4 addresses the NCCL logs show as the ranks' bootstrap interface ({@code eth0:10.0.1.5<0>}). */
    private static Set<String> localAddresses(FlowContext c) {
        Set<String> out = new LinkedHashSet<>();
        for (Rank r : c.log().ranks()) {
            if (r.oob() != null) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile(":(\\d{1,3}(?:\\.\\d{1,3}){3})").matcher(r.oob());
                if (m.find()) {
                    out.add(m.group(1));
                }
            }
        }
        return out;
    }

    /**
     * Whether NCCL_IB_HCA takes this device port: a comma-separated list of {@code device[:port]} that match as
     * prefixes ({@code =} first: exact names), or an exclusion list ({@code ^} first).
     */
    static boolean matches(String hca, String device, int port) {
        String v = hca.strip();
        boolean exclude = v.startsWith("^");
        if (exclude) {
            v = v.substring(1);
        }
        boolean exact = v.startsWith("=");
        if (exact) {
            v = v.substring(1);
        }
        boolean hit = false;
        for (String item : v.split(",")) {
            String t = item.strip();
            if (t.isEmpty()) {
                continue;
            }
            int colon = t.indexOf(':');
            String name = colon < 0 ? t : t.substring(0, colon);
            int p = colon < 0 ? -1 : FlowContext.intOf(t.substring(colon + 1), -2);
            if ((exact ? device.equals(name) : device.startsWith(name)) && (p == -1 || p == port)) {
                hit = true;
                break;
            }
        }
        return exclude != hit;
    }

    boolean isEmpty() {
        return ports.isEmpty();
    }

    List<Port> ports() {
        return ports;
    }

    /** The ports with a RoCE v2 IPv4 entry. */
    List<Port> usable() {
        return ports.stream().filter(p -> p.chosen() != null).toList();
    }

    /** The ports without one. */
    List<Port> unusable() {
        return ports.stream().filter(p -> p.chosen() == null).toList();
    }

    /** The index every usable port shares, or -1 when they differ (or none is usable). */
    int sharedIndex() {
        Set<Integer> idx = new LinkedHashSet<>();
        usable().forEach(p -> idx.add(p.chosen().index()));
        return idx.size() == 1 ? idx.iterator().next() : -1;
    }

    /** The evidence of the chosen entries. */
    List<Evidence> evidence() {
        return usable().stream().map(p -> p.chosen().evidence()).filter(java.util.Objects::nonNull).toList();
    }

    /** {@code roce-a01 mlx5_bond_0 port 1: index 3 (10.0.1.5)}, one per usable port. */
    List<String> summary() {
        List<String> out = new ArrayList<>();
        for (Port p : usable()) {
            out.add(p.label() + ": index " + p.chosen().index() + " (" + p.chosen().ipv4() + ")"
                    + (p.others().isEmpty() ? "" : "; also " + String.join(", ", p.others().stream()
                    .map(g -> g.index() + " (" + g.ipv4() + ")").toList())));
        }
        return out;
    }

    /**
     * The NCCL_IB_HCA that takes, on every host, exactly the device ports with a RoCE v2 IPv4 entry: their names
     * (with {@code :port} where a device has other ports, {@code =} first where a name is a prefix of another
     * device's), or a common prefix of them that takes no other device ({@code mlx5_bond_}); null when none does.
     */
    String ncclIbHca() {
        List<Port> usable = usable();
        if (usable.isEmpty()) {
            return null;
        }
        // per device (over all hosts): whether every port of it the tables list is usable
        Set<String> partial = new LinkedHashSet<>();
        for (Port p : unusable()) {
            if (usable.stream().anyMatch(u -> u.device().equals(p.device()))) {
                partial.add(p.device());
            }
        }
        Set<String> tokens = new java.util.TreeSet<>();
        usable.forEach(p -> tokens.add(p.token(partial.contains(p.device()))));
        Set<String> names = new java.util.TreeSet<>();
        usable.forEach(p -> names.add(p.device()));
        // a name list: valid when it takes no unusable port on any host
        boolean prefixClash = false;
        for (Map.Entry<String, Set<String>> h : devices.entrySet()) {
            for (String d : h.getValue()) {
                if (!names.contains(d) && names.stream().anyMatch(d::startsWith)) {
                    prefixClash = true;
                }
            }
        }
        String list = (prefixClash ? "=" : "") + String.join(",", tokens);
        if (takesOnlyUsable(list)) {
            // several hosts whose devices are named apart (mlx5_bond_0, mlx5_bond_1): their common prefix is shorter
            String prefix = commonPrefix(names);
            if (names.size() > 1 && byHost.size() > 1 && byHost.values().stream().allMatch(ps -> ps.stream()
                    .filter(x -> x.chosen() != null).map(Port::device).distinct().count() == 1)
                    && prefix.length() >= 3 && takesOnlyUsable(prefix)) {
                return prefix;
            }
            return list;
        }
        return null;
    }

    private boolean takesOnlyUsable(String hca) {
        for (Port p : ports) {
            if (matches(hca, p.device(), p.port()) != (p.chosen() != null)) {
                return false;
            }
        }
        // a device of the tables without entries of its own counts as unusable too
        for (Map.Entry<String, Set<String>> h : devices.entrySet()) {
            for (String d : h.getValue()) {
                boolean listed = byHost.getOrDefault(h.getKey(), List.of()).stream().anyMatch(p -> p.device().equals(d));
                if (!listed && matches(hca, d, 1)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static String commonPrefix(Set<String> names) {
        String p = names.iterator().next();
        for (String n : names) {
            int i = 0;
            while (i < p.length() && i < n.length() && p.charAt(i) == n.charAt(i)) {
                i++;
            }
            p = p.substring(0, i);
        }
        return p;
    }

    /**
     * One line per host: {@code roce-a01: export NCCL_IB_GID_INDEX=7 NCCL_IB_HCA=mlx5_bond_0 (mlx5_bond_0 port 1:
     * 172.18.128.3)}; a host whose devices disagree says so and names each.
     */
    List<String> perHost() {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, List<Port>> h : byHost.entrySet()) {
            List<Port> usable = h.getValue().stream().filter(p -> p.chosen() != null).toList();
            if (usable.isEmpty()) {
                out.add(h.getKey() + ": no RoCE v2 GID with an IPv4 address (" + String.join("; ", h.getValue().stream()
                        .map(p -> p.device() + " port " + p.port() + ": " + p.holds()).toList()) + ")");
                continue;
            }
            Map<Integer, List<Port>> byIndex = new TreeMap<>();
            usable.forEach(p -> byIndex.computeIfAbsent(p.chosen().index(), k -> new ArrayList<>()).add(p));
            String where = String.join(", ", usable.stream().map(p -> p.device() + " port " + p.port() + ": "
                    + p.chosen().ipv4() + " at " + p.chosen().index()).toList());
            if (byIndex.size() == 1) {
                GidTables one = new GidTables();
                one.devices.put(h.getKey(), devices.getOrDefault(h.getKey(), Set.of()));
                one.byHost.put(h.getKey(), h.getValue());
                one.ports.addAll(h.getValue());
                String hca = one.ncclIbHca();
                out.add(h.getKey() + ": export NCCL_IB_GID_INDEX=" + byIndex.keySet().iterator().next()
                        + (hca == null ? "" : " NCCL_IB_HCA=" + hca) + " (" + where + ")");
            } else {
                out.add(h.getKey() + ": its devices disagree (" + where + "): no one NCCL_IB_GID_INDEX fits them all; "
                        + "leave it unset (NCCL 2.21+), or keep NCCL_IB_HCA to the devices of one index");
            }
        }
        return out;
    }

    /** The value NCCL_IB_GID_INDEX has for this host: its own env dump, its pod's spec, its ranks' log, else {@code fallback}. */
    static Map.Entry<String, Evidence> gidIndexOf(FlowContext c, String host, Map.Entry<String, Evidence> fallback) {
        HostEvidence h = c.model().hostEvidence().get(host);
        EnvVar v = h == null ? null : h.env().get("NCCL_IB_GID_INDEX");
        if (v != null && !v.value().isBlank()) {
            return Map.entry(v.value().strip(), v.evidence() == null ? Evidence.at("", 0, "") : v.evidence());
        }
        for (FlowContext.Spec s : c.specs()) {
            String x = s.spec().env().get("NCCL_IB_GID_INDEX");
            if (s.pod() != null && s.pod().name().equals(host) && x != null && !x.isBlank()) {
                Evidence e = s.spec().citation("NCCL_IB_GID_INDEX");
                return Map.entry(x.strip(), e != null ? e : s.evidence());
            }
        }
        for (Rank r : c.log().ranks()) {
            String x = r.env().get("NCCL_IB_GID_INDEX");
            if (r.host().equals(host) && x != null && !x.isBlank()) {
                return Map.entry(x.strip(), r.evidence());
            }
        }
        return fallback;
    }
}
