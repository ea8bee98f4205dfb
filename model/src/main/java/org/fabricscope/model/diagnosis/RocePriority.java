package org.fabricscope.model.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.evidence.EnvVar;
import org.fabricscope.model.evidence.HostEvidence;
import org.fabricscope.model.fabric.RoceQos;
import org.fabricscope.model.ranks.RankMap;
import org.fabricscope.model.ranks.RankSite;
import org.fabricscope.model.training.NcclProcess;

/**
 * The priority a host's RoCE traffic actually uses, worked out from NCCL's settings and the NIC's QoS, and where that
 * came from. NCCL sets the IP traffic class of its queue pairs from {@code NCCL_IB_TC} and the service level from
 * {@code NCCL_IB_SL}; unset, both are 0 ({@code NCCL_IB_TC_DEFAULT}, {@code NCCL_IB_SL_DEFAULT} in NCCL's
 * {@code src/transport/net_ib/connect.cc}, v2.30.7-1), and NCCL logs a variable it read from the environment as
 * {@code NCCL_IB_TC set by environment to 106.} ({@code src/misc/param.cc}). The NIC then classifies by its trust
 * state ({@code mlnx_qos -i}): under {@code dscp} the DSCP is the traffic class's top six bits ({@code TC >> 2}) and
 * the {@code dscp2prio} table gives the priority (by default DSCP / 8); under {@code pcp} the priority is the 802.1p
 * priority of the (VLAN-tagged) frame, which RoCE takes from the service level.
 * <p>
 * NCCL's settings are looked up in the host's own environment dump, then in the NCCL logs of the ranks on that host,
 * then in the ranks' logs of the whole job (when they agree); a log that shows NCCL ran and set no
 * {@code NCCL_IB_TC} means NCCL's default. When none of that was loaded the priority cannot be told:
 * {@link #known()} is false and the checks judge priority {@value RoceQos#DEFAULT_ROCE_PRIORITY} (NVIDIA's lossless
 * setup: {@code NCCL_IB_TC=106}, DSCP 26), saying it is assumed.
 *
 * @param priority the priority judged (0-7)
 * @param known    whether it was worked out from NCCL's settings, rather than assumed
 * @param source   how it was worked out, for a finding's title ({@code NCCL_IB_TC=106: DSCP 26, priority 3 by the dscp2prio table})
 * @param evidence the lines that set it (the environment, a rank's log, the QoS settings)
 */
public record RocePriority(int priority, boolean known, String source, List<Evidence> evidence) {
    /** NCCL's traffic class and service level when the environment sets none (net_ib connect.cc, v2.30.7-1). */
    public static final int NCCL_DEFAULT_TC = 0;
    public static final int NCCL_DEFAULT_SL = 0;

    public RocePriority {
        evidence = List.copyOf(evidence);
    }

    /** The priority of {@code host}'s NIC whose QoS settings are {@code qos} (null when mlnx_qos was not read). */
    public static RocePriority of(FabricModel model, RankMap ranks, String host, RoceQos qos) {
        Setting tc = setting(model, ranks, host, "NCCL_IB_TC", NCCL_DEFAULT_TC);
        String trust = qos == null ? "" : qos.trust();
        List<Evidence> ev = new ArrayList<>(tc.evidence);
        if (trust.equals("pcp")) {
            Setting sl = setting(model, ranks, host, "NCCL_IB_SL", NCCL_DEFAULT_SL);
            ev = new ArrayList<>(sl.evidence);
            ev.add(qos.evidence());
            if (sl.value < 0) {
                return assumed(sl.text + " (trust pcp)", ev);
            }
            if (sl.value > 7) {
                return assumed(sl.text + " is past 7: no Ethernet priority", ev);
            }
            return new RocePriority(sl.value, true, sl.text + ": priority " + sl.value + " (trust pcp: the service level is the "
                    + "frames' VLAN priority)", ev);
        }
        if (tc.value < 0) {
            if (qos != null) {
                ev.add(qos.evidence());
            }
            return assumed(tc.text, ev);
        }
        if (tc.value > 255) {
            return assumed(tc.text + " is past 255: not a traffic class", ev);
        }
        int dscp = tc.value >> 2;
        String how;
        int prio;
        if (trust.equals("dscp")) {
            prio = qos.priorityOfDscp(dscp);
            how = qos.dscpToPriority().isEmpty() ? "by the default DSCP table (no dscp2prio mapping read)" : "by the dscp2prio table";
            ev.add(qos.evidence());
        } else {
            prio = RoceQos.defaultPriorityOfDscp(dscp);
            how = "by the default DSCP table (" + (qos == null ? "no mlnx_qos -i read" : "trust state not printed")
                    + ": taken as trust dscp)";
            if (qos != null) {
                ev.add(qos.evidence());
            }
        }
        return new RocePriority(prio, true, tc.text + ": DSCP " + dscp + ", priority " + prio + " " + how, ev);
    }

    private static RocePriority assumed(String why, List<Evidence> ev) {
        int p = RoceQos.DEFAULT_ROCE_PRIORITY;
        return new RocePriority(p, false, "priority " + p + " assumed as in NVIDIA's lossless setup, NCCL_IB_TC=106: " + why, ev);
    }

    /** A value of NCCL_IB_TC or NCCL_IB_SL and where from; value -1 when not known. */
    private record Setting(int value, String text, List<Evidence> evidence) {
    }

    private static Setting setting(FabricModel model, RankMap ranks, String host, String name, int fallback) {
        HostEvidence h = host == null ? null : model.hostEvidence(host);
        EnvVar v = h == null ? null : h.env().get(name);
        if (v != null && !v.value().isBlank()) {
            return parsed(v.value(), name + "=" + v.value().strip() + " (" + host + "'s environment)",
                    v.evidence() == null ? List.of() : List.of(v.evidence()));
        }
        // the NCCL processes of this host, then of the job
        List<NcclProcess> procs = model.trainingLog().processes();
        Set<String> hostProcs = new LinkedHashSet<>();
        Evidence hostRank = null;
        if (host != null) {
            for (RankSite s : ranks.sitesOn(host)) {
                hostProcs.add(s.rank().process());
                hostRank = hostRank == null ? s.rank().evidence() : hostRank;
            }
        }
        for (NcclProcess p : procs) {
            String x = p.env().get(name);
            if (x != null && (hostProcs.contains(p.process()) || sameHost(p.host(), host))) {
                return parsed(x, name + "=" + x + " (NCCL log of " + p.process() + ")", hostRank == null ? List.of() : List.of(hostRank));
            }
        }
        Set<String> values = new LinkedHashSet<>();
        NcclProcess first = null;
        for (NcclProcess p : procs) {
            String x = p.env().get(name);
            if (x != null) {
                values.add(x);
                first = first == null ? p : first;
            }
        }
        Evidence anyRank = model.trainingLog().ranks().isEmpty() ? null : model.trainingLog().ranks().get(0).evidence();
        if (values.size() == 1) {
            String x = values.iterator().next();
            return parsed(x, name + "=" + x + " (the job's NCCL logs, " + first.process() + ")", anyRank == null ? List.of() : List.of(anyRank));
        }
        if (values.size() > 1) {
            return new Setting(-1, name + " differs between the job's ranks (" + String.join(", ", values) + ")", List.of());
        }
        boolean hostEnvRead = h != null && h.env().keySet().stream().anyMatch(k -> k.startsWith("NCCL_"));
        if (!procs.isEmpty() || hostEnvRead) {
            Evidence e = hostEnvRead ? h.env().values().iterator().next().evidence() : anyRank;
            return new Setting(fallback, name + " unset in " + (hostEnvRead ? host + "'s environment" : "the ranks' NCCL logs")
                    + ", NCCL's default " + fallback, e == null ? List.of() : List.of(e));
        }
        return new Setting(-1, name + " not in the inputs", List.of());
    }

    private static boolean sameHost(String logHost, String host) {
        if (logHost == null || host == null) {
            return false;
        }
        return logHost.equals(host) || logHost.startsWith(host + ".");
    }

    private static Setting parsed(String value, String text, List<Evidence> ev) {
        try {
            String v = value.strip();
            int n = v.startsWith("0x") || v.startsWith("0X") ? Integer.parseInt(v.substring(2), 16) : Integer.parseInt(v);
            return new Setting(n < 0 ? -1 : n, text, ev);
        } catch (NumberFormatException e) {
            return new Setting(-1, text + " is not a number", ev);
        }
    }
}
