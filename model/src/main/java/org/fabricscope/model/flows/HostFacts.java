package org.fabricscope.model.flows;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.fabricscope.model.core.Plural;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.evidence.DeviceFile;
import org.fabricscope.model.evidence.EnvVar;
import org.fabricscope.model.evidence.ErdmaStat;
import org.fabricscope.model.evidence.GidEntry;
import org.fabricscope.model.evidence.HcaPortStatus;
import org.fabricscope.model.evidence.HostEvidence;
import org.fabricscope.model.evidence.OomKill;
import org.fabricscope.model.fabric.PortState;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.training.Rank;

/**
 * The facts host evidence answers (ibstat / ibv_devinfo port states, eadm stat, ls -l /dev/infiniband,
 * ulimit -l, the GID table): the manual steps that ask them answer themselves once those outputs are loaded.
 */
final class HostFacts {
    private HostFacts() {
    }

    /** The evidence of the job's hosts and pods when a job is loaded and some match; else all of it. */
    static List<HostEvidence> relevant(FlowContext c) {
        List<HostEvidence> all = new ArrayList<>(c.model().hostEvidence().values());
        if (c.hasJob()) {
            List<HostEvidence> job = all.stream().filter(h -> c.jobHosts().contains(h.host())
                    || c.podByName(h.host()) != null).toList();
            if (!job.isEmpty()) {
                return job;
            }
        }
        return all;
    }

    private static Answer placed(FlowContext c, Answer a, String host) {
        Answer out = a.with("host", host);
        K8sNode n = c.model().host(host) == null ? null : c.model().k8sNodeOf(c.model().host(host));
        return out.with("node", n != null ? n.name() : host);
    }

    /**
     * From the hosts' own port states; else from eadm stat (an eRDMA device that is missing is not active,
     * one that passes traffic is); or null when no host evidence tells (the fabric dump answers then).
     */
    static Answer hcaPortsActive(FlowContext c) {
        List<HostEvidence> hosts = relevant(c).stream().filter(h -> !h.hcaPorts().isEmpty()).toList();
        if (hosts.isEmpty() || hosts.stream().allMatch(h -> h.hcaPorts().stream().allMatch(p -> p.state() == PortState.UNKNOWN))) {
            return erdmaActive(c);
        }
        List<Evidence> good = new ArrayList<>();
        HostEvidence badHost = null;
        HcaPortStatus bad = null;
        int nBad = 0;
        int known = 0;
        for (HostEvidence h : hosts) {
            for (HcaPortStatus p : h.hcaPorts()) {
                if (p.state() == PortState.UNKNOWN) {
                    continue;
                }
                known++;
                if (p.state() == PortState.ACTIVE) {
                    if (p.evidence() != null) {
                        good.add(p.evidence());
                    }
                } else {
                    nBad++;
                    if (bad == null) {
                        bad = p;
                        badHost = h;
                    }
                }
            }
        }
        if (known == 0) {
            return null;
        }
        if (bad == null) {
            return new Answer(Verdict.YES, "the " + Plural.of(known, "HCA port") + " of " + Plural.of(hosts.size(), "host") + " report PORT_ACTIVE "
                    + "(ibstat / ibv_devinfo)", good, List.of(), Map.of());
        }
        List<Subject> subjects = new ArrayList<>();
        List<Evidence> ev = new ArrayList<>();
        for (HostEvidence h : hosts) {
            for (HcaPortStatus p : h.hcaPorts()) {
                if (p.state() != PortState.UNKNOWN && p.state() != PortState.ACTIVE) {
                    subjects.add(new Subject.NicRef(h.host(), p.device(), h.host() + " " + p.device() + " port " + p.port()));
                    if (p.evidence() != null) {
                        ev.add(p.evidence());
                    }
                }
            }
        }
        Answer a = new Answer(Verdict.NO, badHost.host() + " " + bad.device() + " port " + bad.port() + " is "
                + bad.state().name() + " (physical " + bad.physState().name() + "), not Active"
                + (nBad > 1 ? " (and " + (nBad - 1) + " more)" : ""), ev, subjects, Map.of("hca", bad.device(), "hca-port", String.valueOf(bad.port())));
        return placed(c, a, badHost.host());
    }

    /** eadm stat's view for hca-ports-active: no when a device is missing, yes when every device read passes traffic. */
    private static Answer erdmaActive(FlowContext c) {
        List<Evidence> ev = new ArrayList<>();
        int n = 0;
        for (HostEvidence h : relevant(c)) {
            for (ErdmaStat e : h.erdma()) {
                if (!e.present()) {
                    return placed(c, new Answer(Verdict.NO, h.host() + ": " + e.summary() + ": the device is missing, so no port "
                            + "of it can be active", List.of(e.evidence()), List.of(erdmaSubject(h, e)),
                            e.device().isEmpty() ? Map.of() : Map.of("hca", e.device())), h.host());
                }
                if (!e.passesTraffic()) {
                    return null; // present but idle: eadm does not print the port state, ibv_devinfo must tell
                }
                n++;
                if (e.evidence() != null) {
                    ev.add(e.evidence());
                }
            }
        }
        if (n == 0) {
            return null;
        }
        return new Answer(Verdict.YES, "the " + Plural.of(n, "eRDMA device") + " pass traffic (eadm stat -l), so their ports are active", ev,
                List.of(), Map.of());
    }

    private static Subject erdmaSubject(HostEvidence h, ErdmaStat e) {
        return e.device().isEmpty() ? new Subject.HostRef(h.host(), h.host())
                : new Subject.NicRef(h.host(), e.device(), h.host() + " " + e.device());
    }

    /**
     * Whether the job's nodes have their eRDMA device: eadm stat printed its statistics (or ibstat /
     * ibv_devinfo list an erdma_* port); no when eadm printed none for the device it was asked about.
     */
    static Answer erdmaDevicePresent(FlowContext c, FactCall call) {
        List<String> seen = new ArrayList<>();
        List<Evidence> ev = new ArrayList<>();
        for (HostEvidence h : relevant(c)) {
            for (ErdmaStat e : h.erdma()) {
                if (!e.present()) {
                    return placed(c, new Answer(Verdict.NO, h.host() + ": " + e.summary(), List.of(e.evidence()),
                            List.of(erdmaSubject(h, e)), e.device().isEmpty() ? Map.of() : Map.of("hca", e.device())), h.host());
                }
                seen.add(h.host() + ": " + e.summary());
                if (e.evidence() != null) {
                    ev.add(e.evidence());
                }
            }
            for (HcaPortStatus p : h.hcaPorts()) {
                if (p.device().startsWith("erdma") && h.erdma().stream().noneMatch(e -> e.device().equals(p.device()))) {
                    seen.add(h.host() + ": " + p.label() + " listed, " + p.state().name());
                    if (p.evidence() != null) {
                        ev.add(p.evidence());
                    }
                }
            }
        }
        if (seen.isEmpty()) {
            return Answer.unknown("no eadm stat (or ibv_devinfo) output of the job's nodes was loaded "
                    + "(on the node: eadm stat -d erdma_0 -l)");
        }
        return new Answer(Verdict.YES, String.join("; ", seen.size() > 4 ? seen.subList(0, 4) : seen)
                + (seen.size() > 4 ? " (and " + (seen.size() - 4) + " more)" : ""), ev, List.of(), Map.of());
    }

    /**
     * The kernel's OOM killer in the kernel logs (dmesg, journalctl -k) of the job's hosts: yes, naming the
     * process it killed (and saying so when its pid is a failed rank's); null when no such line was read.
     */
    static Answer kernelOomKill(FlowContext c) {
        List<Evidence> ev = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        String firstHost = null;
        java.util.Set<Long> failedPids = new java.util.HashSet<>();
        c.failures().forEach(f -> failedPids.add(f.pid()));
        String match = null;
        for (HostEvidence h : relevant(c)) {
            for (OomKill k : h.oomKills()) {
                if (firstHost == null) {
                    firstHost = h.host();
                }
                seen.add(h.host() + ": " + k.summary());
                if (k.evidence() != null) {
                    ev.add(k.evidence());
                }
                if (match == null && k.pid() >= 0 && failedPids.contains(k.pid())) {
                    match = "pid " + k.pid() + " is a failed rank's";
                }
            }
        }
        if (firstHost == null) {
            return null;
        }
        String detail = "the kernel's OOM killer killed " + String.join("; ", seen.size() > 3 ? seen.subList(0, 3) : seen)
                + (seen.size() > 3 ? " (and " + (seen.size() - 3) + " more)" : "")
                + (match == null ? "" : " (" + match + ")");
        return placed(c, new Answer(Verdict.YES, detail, ev, List.of(new Subject.HostRef(firstHost, firstHost)), Map.of()),
                firstHost);
    }

    static Answer uverbsAccessible(FlowContext c, FactCall call) {
        HostEvidence closedHost = null;
        DeviceFile closed = null;
        DeviceFile groupOnly = null;
        HostEvidence groupHost = null;
        List<Evidence> open = new ArrayList<>();
        int hosts = 0;
        for (HostEvidence h : relevant(c)) {
            if (h.uverbs().isEmpty()) {
                continue;
            }
            hosts++;
            for (DeviceFile f : h.uverbs()) {
                if (f.openToAll()) {
                    open.add(f.evidence());
                } else if (f.openToGroup() && !f.group().equals("root")) {
                    if (groupOnly == null) {
                        groupOnly = f;
                        groupHost = h;
                    }
                } else if (closed == null) {
                    closed = f;
                    closedHost = h;
                }
            }
        }
        if (closed != null) {
            return placed(c, new Answer(Verdict.NO, closedHost.host() + ": /dev/infiniband/" + closed.name() + " is "
                    + closed.mode() + " " + closed.owner() + " " + closed.group() + ": only " + closed.owner() + " can open it",
                    List.of(closed.evidence()), List.of(new Subject.HostRef(closedHost.host(), closedHost.host())), Map.of()),
                    closedHost.host());
        }
        if (groupOnly != null) {
            return Answer.unknown(groupHost.host() + ": /dev/infiniband/" + groupOnly.name() + " is " + groupOnly.mode() + " "
                    + groupOnly.owner() + " " + groupOnly.group() + ": open to group " + groupOnly.group()
                    + " only, and the job user's groups (id -nG) are not in the inputs");
        }
        if (hosts > 0) {
            return new Answer(Verdict.YES, "the uverbs devices of " + Plural.of(hosts, "host") + " are open to every user (mode rw for all)",
                    open.stream().filter(Objects::nonNull).limit(10).toList(), List.of(), Map.of());
        }
        return StandardFacts.denied(c, "rdma-permission", "RDMA device access was denied (errno 13)",
                "the device file permissions are not in the inputs (ls -l /dev/infiniband)");
    }

    static Answer memlockUnlimited(FlowContext c, FactCall call) {
        List<Evidence> ok = new ArrayList<>();
        int hosts = 0;
        for (HostEvidence h : relevant(c)) {
            if (h.memlock() == null) {
                continue;
            }
            hosts++;
            if (!h.memlock().unlimited()) {
                return placed(c, new Answer(Verdict.NO, h.host() + "'s locked-memory limit is " + h.memlock().text()
                        + ", not unlimited", List.of(h.memlock().evidence()),
                        List.of(new Subject.HostRef(h.host(), h.host())), Map.of()), h.host());
            }
            ok.add(h.memlock().evidence());
        }
        if (hosts > 0) {
            return new Answer(Verdict.YES, "the locked-memory limit is unlimited on " + Plural.of(hosts, "host or pod", "hosts or pods"), ok,
                    List.of(), Map.of());
        }
        return StandardFacts.denied(c, "memlock-limit", "ibv_reg_mr failed: the locked-memory limit is too low",
                "the locked-memory limit is not in the inputs (ulimit -l)");
    }

    /** The values a variable has across pods, manifests, NCCL logs and env dumps, with where each is set. */
    private static Map<String, Evidence> values(FlowContext c, String name) {
        Map<String, Evidence> out = new LinkedHashMap<>();
        for (FlowContext.Spec s : c.specs()) {
            String v = s.spec().env().get(name);
            if (v != null && !v.isBlank()) {
                Evidence e = s.spec().citation(name);
                out.putIfAbsent(v.strip(), e != null ? e : s.evidence());
            }
        }
        for (Rank r : c.log().ranks()) {
            String v = r.env().get(name);
            if (v != null && !v.isBlank()) {
                out.putIfAbsent(v.strip(), r.evidence());
            }
        }
        // a variable NCCL reads at connect time is logged after Init COMPLETE when connections are made lazily (2.22+)
        for (org.fabricscope.model.training.NcclProcess p : c.log().processes()) {
            String v = p.env().get(name);
            if (v != null && !v.isBlank() && !out.containsKey(v.strip())) {
                Evidence e = c.log().ranks().stream().filter(r -> r.process().equals(p.process())).map(Rank::evidence)
                        .findFirst().orElse(null);
                if (e != null) {
                    out.put(v.strip(), e);
                }
            }
        }
        for (HostEvidence h : relevant(c)) {
            EnvVar v = h.env().get(name);
            if (v != null && !v.value().isBlank()) {
                out.putIfAbsent(v.value().strip(), v.evidence());
            }
        }
        return out;
    }

    static Answer gidIndexMatches(FlowContext c, FactCall call) {
        Map<String, Evidence> hcas = values(c, "NCCL_IB_HCA");
        String hca = hcas.isEmpty() ? null : hcas.keySet().iterator().next();
        GidTables all = GidTables.of(c, null);
        if (all.isEmpty()) {
            return Answer.unknown("the GID table is not in the inputs (grep . /sys/class/infiniband/*/ports/*/gids/* "
                    + "/sys/class/infiniband/*/ports/*/gid_attrs/types/*, or show_gids)");
        }
        GidTables t = hca == null ? all : GidTables.of(c, hca);
        if (t.isEmpty()) {
            Set<String> devices = new LinkedHashSet<>();
            all.ports().forEach(p -> devices.add(p.device()));
            return new Answer(Verdict.NO, "NCCL_IB_HCA=" + hca + " takes no device of the GID tables read ("
                    + String.join(", ", devices) + ")", List.of(hcas.get(hca)).stream().filter(Objects::nonNull).toList(),
                    List.of(), Map.of());
        }
        Map<String, Evidence> set = values(c, "NCCL_IB_GID_INDEX");
        List<String> summary = t.summary();
        if (set.isEmpty()) {
            return Answer.unknown("NCCL_IB_GID_INDEX is not set in the inputs; the RoCE v2 IPv4-mapped GID is "
                    + (summary.isEmpty() ? "in no port's table" : String.join(", ", summary)));
        }
        Map.Entry<String, Evidence> first = set.entrySet().iterator().next();
        List<Evidence> ev = new ArrayList<>();
        for (GidTables.Port p : t.ports()) {
            Map.Entry<String, Evidence> v = GidTables.gidIndexOf(c, p.host(), first);
            int index = FlowContext.intOf(v.getKey(), Integer.MIN_VALUE);
            if (v.getValue() != null && !ev.contains(v.getValue())) {
                ev.add(v.getValue());
            }
            if (index == Integer.MIN_VALUE) {
                return placed(c, new Answer(Verdict.NO, "NCCL_IB_GID_INDEX=" + v.getKey() + " is not a number", ev, List.of(),
                        Map.of()), p.host());
            }
            if (index == -1) {
                // NCCL 2.21+: -1 picks the GID itself, of the RoCE version NCCL_IB_ROCE_VERSION_NUM asks for (default 2)
                Map<String, Evidence> version = values(c, "NCCL_IB_ROCE_VERSION_NUM");
                if (version.containsKey("1")) {
                    Evidence e = version.get("1");
                    if (e != null && !ev.contains(e)) {
                        ev.add(e);
                    }
                    return placed(c, new Answer(Verdict.NO, "NCCL_IB_GID_INDEX=-1 with NCCL_IB_ROCE_VERSION_NUM=1: NCCL picks a RoCE v1 "
                            + "GID on " + p.label() + (p.chosen() == null ? "" : " instead of the RoCE v2 entry of " + p.chosen().ipv4()
                            + " at index " + p.chosen().index()) + "; RoCE v1 is not routed between IP subnets",
                            ev.stream().filter(Objects::nonNull).toList(), List.of(), Map.of("hca", p.device())), p.host());
                }
                continue;
            }
            if (p.chosen() == null) {
                ev.addAll(p.entries().stream().map(GidEntry::evidence).filter(Objects::nonNull).limit(2).toList());
                return placed(c, new Answer(Verdict.NO, p.label() + " has no RoCE v2 GID holding an IPv4 address ("
                        + p.holds() + "): NCCL_IB_GID_INDEX=" + index + " cannot pick one", ev, List.of(),
                        Map.of("hca", p.device())), p.host());
            }
            boolean hit = p.chosen().index() == index || p.others().stream().anyMatch(g -> g.index() == index);
            if (!hit) {
                ev.add(p.chosen().evidence());
                GidEntry at = p.entries().stream().filter(g -> g.index() == index).findFirst().orElse(null);
                String what = at == null ? "no entry" : at.empty() ? "an unused slot"
                        : (at.ipv4() != null ? at.ipv4() : at.gid()) + (at.type().isEmpty() ? "" : " " + at.type())
                        + (roceV1(at) ? ", which is not routed between IP subnets: NCCL wants RoCE v2" : "");
                if (at != null && !at.empty() && at.evidence() != null) {
                    ev.add(at.evidence());
                }
                return placed(c, new Answer(Verdict.NO, "on " + p.label() + " the RoCE v2 GID of " + p.chosen().ipv4()
                        + " is index " + p.chosen().index() + ", but NCCL_IB_GID_INDEX=" + index + " there (" + what + ")",
                        ev.stream().filter(Objects::nonNull).toList(), List.of(), Map.of("hca", p.device())), p.host());
            }
        }
        ev.addAll(t.evidence());
        boolean auto = "-1".equals(first.getKey());
        Answer a = new Answer(Verdict.YES, "NCCL_IB_GID_INDEX=" + first.getKey() + (auto ? " lets NCCL (2.21 or later) pick "
                + "the RoCE v2 IPv4-mapped GID of every port read (" : " is the RoCE v2 IPv4-mapped GID on every port read (")
                + String.join(", ", summary) + ")", ev.stream().filter(Objects::nonNull).limit(Answer.MAX_EVIDENCE)
                .toList(), List.of(), Map.of());
        return withGidValues(a, all);
    }

    /** A RoCE v1 entry: sysfs {@code IB/RoCE v1}, show_gids {@code v1}. */
    static boolean roceV1(GidEntry g) {
        String t = g.type().toLowerCase(java.util.Locale.ROOT);
        return t.equals("v1") || t.endsWith("roce v1");
    }

    /** The values the conclusions use: {@code gid-index}, {@code ib-hca}, {@code gid-indexes}, and {@code hca}. */
    private static Answer withGidValues(Answer a, GidTables t) {
        int shared = t.sharedIndex();
        String hca = t.ncclIbHca();
        List<GidTables.Port> usable = t.usable();
        return a.with("gid-index", shared >= 0 ? String.valueOf(shared) : null)
                .with("ib-hca", hca)
                .with("gid-indexes", "  " + String.join("\n  ", t.perHost()))
                .with("hca", usable.isEmpty() ? null : usable.get(0).device());
    }

    /**
     * The GID tables read list RoCE entries (a RoCE v2 type, or an IPv4-mapped GID): the GID index matters. No when
     * every table holds only InfiniBand (IB/RoCE v1 link-local) entries.
     */
    static Answer roceGidListed(FlowContext c, FactCall call) {
        GidTables t = GidTables.of(c, null);
        if (t.isEmpty()) {
            return Answer.unknown("no GID table was loaded (grep . /sys/class/infiniband/*/ports/*/gids/* "
                    + "/sys/class/infiniband/*/ports/*/gid_attrs/types/*, or show_gids)");
        }
        List<GidTables.Port> roce = t.ports().stream().filter(p -> p.entries().stream()
                .anyMatch(g -> !g.empty() && (g.roceV2() || g.ipv4() != null))).toList();
        if (roce.isEmpty()) {
            return new Answer(Verdict.NO, "the GID tables of " + Plural.of(t.ports().size(), "device port") + " hold no RoCE entry ("
                    + t.ports().get(0).label() + ": " + t.ports().get(0).holds() + "): InfiniBand ports, addressed by LID",
                    t.ports().get(0).entries().stream().map(GidEntry::evidence).filter(Objects::nonNull).limit(2).toList(),
                    List.of(), Map.of());
        }
        GidTables.Port p = roce.get(0);
        return new Answer(Verdict.YES, Plural.of(roce.size(), "RDMA device port") + (roce.size() == 1 ? " lists" : " list") + " RoCE GIDs, e.g. " + p.label() + " ("
                + p.holds() + ")", p.entries().stream().filter(g -> g.roceV2()).map(GidEntry::evidence)
                .filter(Objects::nonNull).limit(3).toList(), List.of(), Map.of());
    }

    /**
     * The RoCE v2 index of the IPv4-mapped GID of each device port read: yes when at least one port has one (naming
     * each, and the ports without), no when the tables hold none (no IPv4 address on the ports' netdevs).
     */
    static Answer roceGidIndexFound(FlowContext c, FactCall call) {
        GidTables t = GidTables.of(c, null);
        if (t.isEmpty()) {
            return Answer.unknown("no GID table was loaded (grep . /sys/class/infiniband/*/ports/*/gids/* "
                    + "/sys/class/infiniband/*/ports/*/gid_attrs/types/*, or show_gids)");
        }
        List<GidTables.Port> usable = t.usable();
        List<GidTables.Port> none = t.unusable();
        if (usable.isEmpty()) {
            GidTables.Port p = none.get(0);
            return placed(c, new Answer(Verdict.NO, "no RoCE v2 GID holds an IPv4 address in the GID tables read: "
                    + String.join("; ", none.stream().limit(4).map(x -> x.label() + ": " + x.holds()).toList())
                    + (none.size() > 4 ? " (and " + (none.size() - 4) + " more)" : ""),
                    p.entries().stream().map(GidEntry::evidence).filter(Objects::nonNull).limit(3).toList(), List.of(),
                    Map.of("hca", p.device())), p.host());
        }
        String detail = "RoCE v2 GID with an IPv4 address: " + String.join("; ", t.summary())
                + (none.isEmpty() ? "" : "; none on " + String.join(", ", none.stream().map(x -> x.label() + " ("
                + x.holds() + ")").toList()));
        GidTables.Port p = usable.get(0);
        return withGidValues(placed(c, new Answer(Verdict.YES, detail, t.evidence(), List.of(), Map.of()), p.host()), t);
    }

    /** Every device port with a RoCE v2 IPv4 GID has it at the same index, and one NCCL_IB_HCA takes exactly them. */
    static Answer gidIndexUniform(FlowContext c, FactCall call) {
        GidTables t = GidTables.of(c, null);
        if (t.usable().isEmpty()) {
            return Answer.unknown(t.isEmpty() ? "no GID table was loaded" : "no device port has a RoCE v2 GID with an IPv4 address");
        }
        int shared = t.sharedIndex();
        String hca = t.ncclIbHca();
        if (shared >= 0 && hca != null) {
            return withGidValues(new Answer(Verdict.YES, "every device port read has its RoCE v2 IPv4 GID at index " + shared
                    + " (" + Plural.of(t.usable().size(), "port") + " on "
                    + Plural.of(t.usable().stream().map(GidTables.Port::host).distinct().count(), "host") + "): NCCL_IB_GID_INDEX=" + shared + " NCCL_IB_HCA=" + hca, t.evidence(), List.of(), Map.of()), t);
        }
        String why = shared < 0 ? "the RoCE v2 IPv4 GID is at different indexes: " + String.join("; ", t.summary())
                : "every device port has it at index " + shared + ", but no one NCCL_IB_HCA takes exactly those devices on "
                + "every host: " + String.join("; ", t.summary());
        return withGidValues(new Answer(Verdict.NO, why, t.evidence(), List.of(), Map.of()), t);
    }
}
