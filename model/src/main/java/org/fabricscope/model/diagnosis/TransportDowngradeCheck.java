package org.fabricscope.model.diagnosis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.fabricscope.model.bandwidth.NvlinkPresence;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.FindingSpec;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.training.ChannelLink;
import org.fabricscope.model.training.CommRank;
import org.fabricscope.model.training.Rank;
import org.fabricscope.model.training.Transport;

/**
 * {@code transport-downgraded}: ranks of one host that NCCL joined through host shared memory or the network
 * (its channel lines: {@code via SHM/direct/direct}, {@code via NET/Socket/0}) where their GPUs could talk
 * directly: NVLink shows in the host's topology or GPU model, or a variable NCCL reported as set by the
 * environment switched the direct path off (NCCL_P2P_DISABLE, NCCL_P2P_LEVEL, NCCL_SHM_DISABLE: NCCL's
 * environment variable documentation). Without either, SHM between GPUs of one host is what NCCL picks when
 * peer access is not possible (PCIe across CPU sockets, some VMs), and nothing is raised.
 */
final class TransportDowngradeCheck implements FabricCheck {
    static final FindingSpec DOWNGRADED = new FindingSpec("transport-downgraded", Layer.TRAINING, Severity.WARNING,
            "Ranks on one host talk through shared memory or the network although their GPUs could talk directly "
                    + "(NVLink there, or a variable switched peer access off)",
            "NCCL's channel lines (NCCL_DEBUG=INFO, subsystems INIT,P2P,SHM,NET) and its 'set by environment' lines; "
                    + "NCCL's environment variable documentation (NCCL_P2P_DISABLE, NCCL_P2P_LEVEL, NCCL_SHM_DISABLE)");
    /** The variables that switch the direct path off, in the order they are named. */
    static final List<String> CAUSES = List.of("NCCL_P2P_DISABLE", "NCCL_P2P_LEVEL", "NCCL_SHM_DISABLE",
            "NCCL_P2P_DIRECT_DISABLE", "NCCL_CUMEM_ENABLE");

    @Override
    public List<FindingSpec> findings() {
        return List.of(DOWNGRADED);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        List<ChannelLink> channels = context.model().trainingLog().channels();
        if (channels.isEmpty()) {
            return List.of();
        }
        Map<CommRank, Rank> byKey = new HashMap<>();
        for (Rank r : context.model().trainingLog().ranks()) {
            byKey.putIfAbsent(new CommRank(r.commId(), r.rank()), r);
        }
        // host -> transport -> what was seen
        Map<String, Map<Transport, Seen>> seen = new LinkedHashMap<>();
        for (ChannelLink c : channels) {
            if (c.transport() == null || c.transport() == Transport.P2P || c.fromRank() == c.toRank()) {
                continue;
            }
            Rank a = byKey.get(new CommRank(c.commId(), c.fromRank()));
            Rank b = byKey.get(new CommRank(c.commId(), c.toRank()));
            if (a == null || b == null || !a.host().equals(b.host()) || a.pid() == b.pid() && a.cudaDev() == b.cudaDev()) {
                continue;
            }
            Seen s = seen.computeIfAbsent(a.host(), h -> new LinkedHashMap<>()).computeIfAbsent(c.transport(), t -> new Seen());
            s.ranks.add(c.fromRank());
            s.ranks.add(c.toRank());
            s.channels.add(c.channel());
            s.comms.add(c.commId());
            if (s.first == null) {
                s.first = c;
            }
            s.merge(a.env());
            s.merge(b.env());
        }
        List<Finding> out = new ArrayList<>();
        for (Map.Entry<String, Map<Transport, Seen>> h : seen.entrySet()) {
            String host = h.getKey();
            Optional<NvlinkPresence.Seen> nvlink = NvlinkPresence.of(context.model(), host);
            for (Map.Entry<Transport, Seen> t : h.getValue().entrySet()) {
                Seen s = t.getValue();
                List<String> causes = new ArrayList<>();
                for (String k : CAUSES) {
                    if (s.env.containsKey(k) && switchesOff(k, s.env.get(k), t.getKey())) {
                        causes.add(k + "=" + s.env.get(k));
                    }
                }
                if (causes.isEmpty() && nvlink.isEmpty()) {
                    continue;
                }
                out.add(finding(host, t.getKey(), s, causes, nvlink));
            }
        }
        return out;
    }

    /** Whether {@code name=value} switches off the path the GPUs should have taken, given what NCCL took. */
    static boolean switchesOff(String name, String value, Transport took) {
        String v = value.trim().toUpperCase(Locale.ROOT);
        return switch (name) {
            case "NCCL_P2P_DISABLE", "NCCL_P2P_DIRECT_DISABLE" -> !v.equals("0");
            case "NCCL_SHM_DISABLE" -> !v.equals("0") && took.isNetwork();
            // LOC: never P2P; a number or a level below NV* forbids NVLink-connected peers too when they sit further apart
            case "NCCL_P2P_LEVEL" -> v.equals("LOC") || v.equals("0");
            case "NCCL_CUMEM_ENABLE" -> false; // named as context only when a cause is found elsewhere
            default -> false;
        };
    }

    private static Finding finding(String host, Transport transport, Seen s, List<String> causes,
                                   Optional<NvlinkPresence.Seen> nvlink) {
        StringBuilder title = new StringBuilder(String.format(Locale.ROOT,
                "Ranks %s on host %s talk via %s (%d channel%s) ", join(s.ranks), host, s.first.via(),
                s.channels.size(), s.channels.size() == 1 ? "" : "s"));
        if (nvlink.isPresent()) {
            title.append("although NVLink is there (").append(nvlink.get().words()).append(')');
        } else {
            title.append("instead of directly (P2P)");
        }
        if (!causes.isEmpty()) {
            title.append(": ").append(String.join(", ", causes)).append(" set by the environment");
        } else {
            title.append(": no variable NCCL reported explains it");
        }
        List<Evidence> ev = new ArrayList<>();
        ev.add(s.first.evidence());
        nvlink.ifPresent(n -> {
            if (n.evidence() != null) {
                ev.add(n.evidence());
            }
        });
        List<Subject> subjects = new ArrayList<>();
        subjects.add(new Subject.HostRef(host, host));
        for (int r : s.ranks) {
            subjects.add(new Subject.RankRef(s.comms.iterator().next(), r, host, "rank " + r));
        }
        List<String> remedies = new ArrayList<>();
        if (!causes.isEmpty()) {
            remedies.add("Unset " + String.join(", ", causes.stream().map(c -> c.substring(0, c.indexOf('='))).toList())
                    + " (look in the container image's ENV, the pod spec and the launcher's environment) and rerun: "
                    + "between GPUs with NVLink NCCL's log should say 'via P2P'.");
        } else {
            remedies.add("Find why peer access is off: nvidia-smi topo -p2p r (OK between the GPUs?), the container or "
                    + "VM's view of the GPUs (both GPUs visible to each process? CUDA_VISIBLE_DEVICES per process hides the "
                    + "peer from NCCL < 2.12), IOMMU/ACS settings, and NCCL_P2P_LEVEL in the environment.");
        }
        remedies.add("A job on one host over SHM moves data through host memory at a fraction of NVLink's rate "
                + "(6% of it on the 2x H200 capture, over sockets 1%).");
        return new Finding(DOWNGRADED.id(), Severity.WARNING, title.toString(), subjects, ev, remedies);
    }

    private static String join(Set<Integer> ranks) {
        List<String> s = ranks.stream().map(String::valueOf).toList();
        return s.size() <= 2 ? String.join(" and ", s) : String.join(", ", s.subList(0, s.size() - 1)) + " and " + s.get(s.size() - 1);
    }

    private static final class Seen {
        final Set<Integer> ranks = new TreeSet<>();
        final Set<Integer> channels = new TreeSet<>();
        final Set<String> comms = new LinkedHashSet<>();
        final Map<String, String> env = new LinkedHashMap<>();
        ChannelLink first;
        /** The settings put last: putting the same map again changes nothing, not even the order. */
        private Map<String, String> last;

        /**
         * Puts a rank's settings over those seen. The ranks of one process, and of processes set alike, share one
         * map ({@code SharedMaps}), so on a large job nearly every channel line's two puts are of the map put last,
         * and are skipped: tens of entries a line over 150,000 lines.
         */
        void merge(Map<String, String> settings) {
            if (settings != last) {
                env.putAll(settings);
                last = settings;
            }
        }
    }
}
