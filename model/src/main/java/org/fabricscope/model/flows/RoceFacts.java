package org.fabricscope.model.flows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.diagnosis.RocePriority;
import org.fabricscope.model.diagnosis.Subjects;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.RoceQos;

/**
 * The facts of RoCE NICs that LLDP placed on the fabric (issue 25): PFC on the priority RoCE traffic uses
 * ({@link RocePriority}: from NCCL_IB_TC / NCCL_IB_SL and the NIC's trust state and DSCP table), whether the NICs'
 * counters were sampled twice (so loss, pause and ECN findings can be judged), and whether the fabric has RoCE NICs.
 */
final class RoceFacts {
    private RoceFacts() {
    }

    /** The host NIC ports that LLDP placed (Ethernet ports: named by their netdev), of the job's hosts when a job was loaded. */
    static List<Port> nics(FlowContext c) {
        Set<String> hosts = c.jobHosts();
        List<Port> out = new ArrayList<>();
        for (FabricNode n : c.model().fabric().nodes().values()) {
            if (n.isSwitch()) {
                continue;
            }
            String host = n.host() == null ? null : n.host().name();
            if (!hosts.isEmpty() && host != null && !hosts.contains(host)) {
                continue;
            }
            for (Port p : n.ports()) {
                if (p.name() != null) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    /**
     * PFC is on the priority RoCE traffic uses on every NIC whose mlnx_qos was read: no naming the first NIC without it
     * and where its priority came from; unknown when no mlnx_qos was read.
     */
    static Answer pfcEnabled(FlowContext c, FactCall call) {
        List<Port> read = nics(c).stream().filter(p -> p.qos() != null).toList();
        if (read.isEmpty()) {
            return Answer.unknown("no NIC's PFC settings were read (mlnx_qos -i <interface> on the hosts; the switches' PFC "
                    + "configuration has no reader)");
        }
        List<String> on = new ArrayList<>();
        List<Evidence> ev = new ArrayList<>();
        for (Port p : read) {
            RoceQos q = p.qos();
            RocePriority rp = RocePriority.of(c.model(), c.analysis().ranks(), host(p), q);
            if (!q.pfcEnabled(rp.priority())) {
                List<Evidence> e = new ArrayList<>(List.of(q.evidence()));
                rp.evidence().stream().filter(x -> !e.contains(x)).forEach(e::add);
                return new Answer(Verdict.NO, p.label() + ": PFC is off on priority " + rp.priority() + " (" + rp.source()
                        + "); on " + (q.pfcPriorities().isEmpty() ? "no priority" : "priorities " + q.pfcPriorities()),
                        e, List.<Subject>of(Subjects.port(p)), Map.of("roce-priority", String.valueOf(rp.priority())));
            }
            on.add(p.label() + " priority " + rp.priority() + (rp.known() ? "" : " (assumed)"));
            ev.add(q.evidence());
        }
        RocePriority first = RocePriority.of(c.model(), c.analysis().ranks(), host(read.get(0)), read.get(0).qos());
        return new Answer(Verdict.YES, "PFC is on the RoCE priority of " + read.size() + (read.size() == 1 ? " NIC" : " NICs")
                + " read (" + String.join(", ", on.subList(0, Math.min(4, on.size()))) + (on.size() > 4 ? ", ..." : "")
                + "; " + first.source() + "); the switches' side is not read", ev, List.of(),
                Map.of("roce-priority", String.valueOf(first.priority())));
    }

    /** At least one RoCE NIC has two timed counter samples (ethtool -S, hw_counters), so rises can be judged. */
    static Answer countersSampled(FlowContext c, FactCall call) {
        List<Port> nics = nics(c);
        if (nics.isEmpty()) {
            return Answer.unknown("no RoCE NIC was placed by LLDP (lldpcli show neighbors of the hosts or switches)");
        }
        List<Port> twice = nics.stream().filter(p -> p.counterSamples().size() >= 2).toList();
        if (twice.isEmpty()) {
            boolean once = nics.stream().anyMatch(p -> p.counterSamples().size() == 1);
            return Answer.no(once ? "the RoCE NICs' counters were sampled once: one sample says only what happened since boot"
                    : "no RoCE NIC's counters were read (ethtool -S, hw_counters)");
        }
        return new Answer(Verdict.YES, twice.size() + " of " + nics.size() + " RoCE NIC ports have two timed samples, e.g. "
                + twice.get(0).label(), List.of(), List.<Subject>of(Subjects.port(twice.get(0))), Map.of());
    }

    /** The fabric's host NICs were placed by LLDP: Ethernet, so RoCE (for roce-in-use when no log or GID table says). */
    static Answer lldpNics(FlowContext c) {
        List<Port> nics = nics(c);
        if (nics.isEmpty()) {
            return null;
        }
        Port p = nics.get(0);
        Evidence e = p.node().evidence();
        return new Answer(Verdict.YES, nics.size() + " host NIC port" + (nics.size() == 1 ? " was" : "s were")
                + " placed by LLDP (Ethernet: RoCE), e.g. " + p.label(), e == null ? List.of() : List.of(e),
                List.<Subject>of(Subjects.port(p)), Map.of());
    }

    /**
     * The fabric is RoCE: yes when LLDP placed host NICs or the ranks run RoCE devices; no when the ranks run InfiniBand
     * devices, or the fabric read has channel adapters from an InfiniBand discovery and no Ethernet NIC; else unknown.
     */
    static Answer roceFabric(FlowContext c, FactCall call) {
        Answer lldp = lldpNics(c);
        if (lldp != null) {
            return lldp;
        }
        Answer ranks = TrainingFacts.roceInUse(c, call);
        if (ranks.verdict() != Verdict.UNKNOWN) {
            return ranks;
        }
        for (FabricNode n : c.model().fabric().nodes().values()) {
            if (!n.isSwitch() && !n.ports().isEmpty() && n.ports().stream().allMatch(p -> p.name() == null)) {
                Evidence e = n.evidence();
                return new Answer(Verdict.NO, "the fabric read is InfiniBand (its host adapters come from a subnet discovery, e.g. "
                        + n.displayName() + "), and no LLDP table placed an Ethernet NIC", e == null ? List.of() : List.of(e),
                        List.of(), Map.of());
            }
        }
        return Answer.unknown("no fabric, NCCL log or GID table shows whether the NICs are RoCE or InfiniBand");
    }

    private static String host(Port p) {
        return p.node() == null || p.node().host() == null ? null : p.node().host().name();
    }
}
