package org.fabricscope.model.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.ranks.RankMap;
import org.fabricscope.model.ranks.RankSite;
import org.fabricscope.model.training.Rank;

/**
 * Places the ranks that forensics inputs name on the rest of the model. A flight recorder dump names
 * a global rank: the log's rank of that number in the largest communicator. NCCL RAS names a
 * communicator hash and rank (the {@code commId} of the log's Init line), and the process by node
 * address, pid and GPU: the log rank with that pid and CUDA device, where the {@code host:pid} prefix of
 * its NCCL lines says which pod it is (when several pods have such a process, the one whose OOB
 * address is the node address; none when still ambiguous). The rank's {@link RankSite} then gives
 * pod, node, host, GPU, HCA and leaf port.
 */
final class ForensicJoin {
    private final FabricModel model;
    private final RankMap ranks;

    private final ErrorThresholds thresholds;

    ForensicJoin(CheckContext context) {
        this.model = context.model();
        this.ranks = context.ranks();
        this.thresholds = context.thresholds();
    }

    /**
     * The error counters over threshold on the rank's host link (its HCA port and the leaf port), e.g.
     * {@code leaf-su2-r5 port 7 LinkErrorRecoveryCounter=42}, with their input lines added to
     * {@code evidence}; empty when none or when the link is not known.
     */
    String linkErrors(RankSite site, List<org.fabricscope.model.core.Evidence> evidence) {
        if (site == null || site.leafPort() == null || site.hcaPort() == null) {
            return "";
        }
        List<String> over = new ArrayList<>();
        for (org.fabricscope.model.fabric.Port p : new org.fabricscope.model.fabric.Port[] {site.hcaPort(), site.leafPort()}) {
            for (var c : p.counters().entrySet()) {
                if (thresholds.judge(c.getKey(), c.getValue()) != null) {
                    over.add(p.label() + " " + c.getKey() + "=" + c.getValue());
                    var ev = p.counterEvidence(c.getKey());
                    evidence.add(org.fabricscope.model.core.Evidence.at(ev == null ? "" : ev.source(), ev == null ? 0 : ev.line(),
                            p.label() + ": " + c.getKey() + "=" + c.getValue()));
                }
            }
        }
        return String.join(", ", over);
    }

    /** The log rank that is this global (PyTorch) rank, or null. */
    Rank worldRank(int rank) {
        RankSite site = ranks.worldSite(rank); // RankMap: the one owner of "where did rank N run"
        return site == null ? null : site.rank();
    }

    /** The log rank RAS names: by communicator hash and rank, else by its process (node address, pid, GPU). */
    Rank rasRank(String hash, int rank, String host, int pid, int cudaDev) {
        long want = hashValue(hash);
        if (want != 0 && rank >= 0) {
            for (Rank r : model.trainingLog().ranks()) {
                if (r.rank() == rank && hashValue(r.commId()) == want) {
                    return r;
                }
            }
        }
        return process(host, pid, cudaDev);
    }

    /** The log rank of a process RAS names (the one of the largest communicator), or null when none or ambiguous. */
    Rank process(String host, int pid, int cudaDev) {
        if (pid < 0) {
            return null;
        }
        List<Rank> candidates = new ArrayList<>();
        for (Rank r : model.trainingLog().ranks()) {
            if (r.pid() == pid && (cudaDev < 0 || r.cudaDev() == cudaDev)) {
                candidates.add(r);
            }
        }
        Set<String> hosts = new LinkedHashSet<>();
        candidates.forEach(r -> hosts.add(r.host()));
        if (hosts.size() > 1) {
            candidates.removeIf(r -> !host.equals(oobAddress(r.oob())));
            hosts.clear();
            candidates.forEach(r -> hosts.add(r.host()));
        }
        if (hosts.size() != 1) {
            return null;
        }
        Rank best = null;
        for (Rank r : candidates) {
            if (best == null || r.nranks() > best.nranks()) {
                best = r;
            }
        }
        return best;
    }

    /** {@code eth0:10.0.5.76<0>} is {@code 10.0.5.76}. */
    static String oobAddress(String oob) {
        if (oob == null) {
            return "";
        }
        int colon = oob.indexOf(':');
        int lt = oob.indexOf('<');
        return colon >= 0 && lt > colon ? oob.substring(colon + 1, lt) : oob;
    }

    /** A communicator hash as a number, so {@code 0x0a1b} and {@code 0a1b} compare equal; 0 when not hex. */
    static long hashValue(String hash) {
        if (hash == null) {
            return 0;
        }
        String h = hash.strip();
        if (h.startsWith("0x") || h.startsWith("0X")) {
            h = h.substring(2);
        }
        if (h.isEmpty() || h.length() > 16) {
            return 0;
        }
        try {
            return Long.parseUnsignedLong(h, 16);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    RankSite site(Rank r) {
        return r == null ? null : ranks.site(r.commId(), r.rank());
    }

    /**
     * {@code  (pod on host, GPU1, mlx5_1 -> leaf-03 port 7)} as far as the join found it, {@code  (host vm)} when
     * only the NCCL log's prefix is known, empty when the rank is not in any loaded log.
     */
    static String place(Rank r, RankSite s) {
        if (s != null && (s.pod() != null || s.gpu() != null || s.hca() != null || s.host() != null)) {
            return " " + s.place();
        }
        return r == null ? "" : " (host " + r.host() + ")";
    }

    /** Where the rank ran, as typed subjects: pod (else host), GPU, HCA, leaf port; as far as the join goes. */
    static List<Subject> placeSubjects(RankSite s) {
        List<Subject> out = new ArrayList<>();
        if (s == null) {
            return out;
        }
        if (s.pod() != null) {
            out.add(new Subject.PodRef("", s.pod(), "pod " + s.pod()));
        } else if (s.host() != null) {
            out.add(new Subject.HostRef(s.host(), s.host()));
        }
        if (s.gpu() != null) {
            out.add(HostSubjects.gpu(s.gpu()));
        }
        if (s.hca() != null) {
            out.add(Subjects.node(s.hca()));
        }
        if (s.leafPort() != null) {
            out.add(Subjects.port(s.leafPort()));
        }
        return out;
    }
}
