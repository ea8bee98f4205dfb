package org.fabricscope.model.pairwise;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.evidence.GidEntry;
import org.fabricscope.model.evidence.HcaPortStatus;
import org.fabricscope.model.evidence.HostEvidence;
import org.fabricscope.model.evidence.NetInterface;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.forensics.NcclTestDevice;
import org.fabricscope.model.forensics.NcclTestRun;
import org.fabricscope.model.forensics.PerftestEndpoint;
import org.fabricscope.model.forensics.PerftestRun;

/**
 * Which two hosts a perftest run measured, from the most reliable evidence the model has
 * ({@link PairEnds.How}, in that order): the LIDs of its address lines as host HCAs of the loaded fabric,
 * else as ports the hosts' own {@code ibstat} reported; the GIDs as port GUIDs of the fabric's HCAs
 * (InfiniBand), else as IPv4 addresses of the hosts' {@code ip addr} or entries of their GID tables
 * (RoCE); else a file name that names two hosts ({@link FileNamePair}). What none of these tells stays
 * unknown, with the reason. A run whose two ends are one host (a loopback run) is no pair.
 */
final class PairResolver {
    /** A placement: the ends, or why there are none. */
    record Result(PairEnds ends, String unknown) {
    }

    private record HostLine(String host, Evidence evidence) {
    }

    private final FabricModel model;
    private final Map<Integer, HostLine> hostLids = new HashMap<>();
    private final Map<String, HostLine> hostAddresses = new HashMap<>();
    private final FileNamePair names;

    PairResolver(FabricModel model) {
        this.model = model;
        Set<Integer> twice = new java.util.HashSet<>();
        Set<String> twiceAddress = new java.util.HashSet<>();
        for (HostEvidence h : model.hostEvidence().values()) {
            for (HcaPortStatus p : h.hcaPorts()) {
                if (p.lid() > 0 && hostLids.putIfAbsent(p.lid(), new HostLine(h.host(), p.evidence())) != null
                        && !hostLids.get(p.lid()).host().equals(h.host())) {
                    twice.add(p.lid()); // two subnets' LIDs: neither tells
                }
            }
            for (NetInterface i : h.interfaces()) {
                for (String a : i.addresses()) {
                    putAddress(a.replaceAll("/.*", ""), new HostLine(h.host(), i.evidence()), twiceAddress);
                }
            }
            for (GidEntry g : h.gids()) {
                if (!g.empty()) {
                    putAddress(g.gid(), new HostLine(h.host(), g.evidence()), twiceAddress);
                }
            }
        }
        twice.forEach(hostLids::remove);
        twiceAddress.forEach(hostAddresses::remove);
        names = new FileNamePair(knownHosts(model));
    }

    private void putAddress(String address, HostLine line, Set<String> twice) {
        HostLine before = hostAddresses.putIfAbsent(address, line);
        if (before != null && !before.host().equals(line.host())) {
            twice.add(address);
        }
    }

    /** Host names the inputs know: the fabric's hosts, hosts with evidence, nccl-tests hosts, Kubernetes nodes. */
    static Set<String> knownHosts(FabricModel model) {
        Set<String> out = new LinkedHashSet<>(model.fabric().hosts().keySet());
        out.addAll(model.hostEvidence().keySet());
        for (NcclTestRun r : model.forensics().ncclTests()) {
            for (NcclTestDevice d : r.devices()) {
                if (!d.host().isEmpty()) {
                    out.add(d.host());
                }
            }
        }
        out.addAll(model.k8sNodes().keySet());
        return out;
    }

    Result resolve(PerftestRun run) {
        PerftestEndpoint l = run.local();
        PerftestEndpoint r = run.remote();
        List<String> tried = new ArrayList<>();
        if (l != null && r != null) {
            if (l.lid() > 0 && r.lid() > 0) {
                Result byLid = pair(run, fabricLid(l), fabricLid(r), PairEnds.How.FABRIC_LID);
                if (byLid == null) {
                    byLid = pair(run, hostLids.get(l.lid()), hostLids.get(r.lid()), PairEnds.How.HOST_LID);
                }
                if (byLid != null) {
                    return byLid;
                }
                tried.add(String.format(Locale.ROOT, "LIDs 0x%x and 0x%x are not both host HCAs in a loaded fabric or ibstat",
                        l.lid(), r.lid()));
            }
            if (!l.gid().isEmpty() && !r.gid().isEmpty()) {
                Result byGid = run.linkType().equalsIgnoreCase("Ethernet") ? null
                        : pair(run, fabricGuid(l), fabricGuid(r), PairEnds.How.FABRIC_GID);
                if (byGid == null) {
                    byGid = pair(run, address(l), address(r), PairEnds.How.HOST_GID);
                }
                if (byGid != null) {
                    return byGid;
                }
                tried.add("the GIDs are not in a loaded fabric, ip addr or GID table");
            }
        }
        String[] named = names.of(run.source());
        if (named != null) {
            Evidence e = Evidence.at(run.source(), 0, "the file name names " + named[0] + " and " + named[1]);
            return new Result(new PairEnds(named[0], named[1], PairEnds.How.FILE_NAME, List.of(e)), null);
        }
        tried.add("the file name names no two hosts");
        if (l == null || r == null) {
            tried.add(0, "no address lines");
        }
        return new Result(null, String.join("; ", tried));
    }

    private HostLine fabricLid(PerftestEndpoint e) {
        return hostAdapter(model.fabric().nodeByLid(e.lid()));
    }

    private HostLine fabricGuid(PerftestEndpoint e) {
        long id = e.interfaceId();
        return id == 0 ? null : hostAdapter(model.fabric().nodeByPortGuid(id));
    }

    private static HostLine hostAdapter(FabricNode n) {
        return n == null || n.host() == null ? null : new HostLine(n.host().name(), n.evidence());
    }

    private HostLine address(PerftestEndpoint e) {
        String ip = e.ipv4();
        HostLine h = ip == null ? null : hostAddresses.get(ip);
        return h != null ? h : hostAddresses.get(e.gid());
    }

    /** The pair of two resolved ends (with their address lines and the lines that placed them), or null when either is not. */
    private static Result pair(PerftestRun run, HostLine local, HostLine remote, PairEnds.How how) {
        if (local == null || remote == null) {
            return null;
        }
        if (local.host().equals(remote.host())) {
            return new Result(null, "both ends are on " + local.host() + " (a loopback run), by " + how.label());
        }
        List<Evidence> ev = new ArrayList<>();
        for (Evidence e : java.util.Arrays.asList(run.local().evidence(), run.remote().evidence(), local.evidence(),
                remote.evidence())) {
            if (e != null && !ev.contains(e)) {
                ev.add(e);
            }
        }
        return new Result(new PairEnds(local.host(), remote.host(), how, ev), null);
    }
}
