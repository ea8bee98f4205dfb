package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.FindingSpec;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.RoceQos;
import org.fabricscope.model.fabric.SwitchPortConfig;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code roce-pfc-one-end}: an LLDP-placed link whose two ends disagree on PFC for the RoCE priority (the host
 * end's, {@link RocePriority}; between two switches {@value RoceQos#DEFAULT_ROCE_PRIORITY}), each as that end reports it (a host NIC's {@code mlnx_qos -i}, a SONiC
 * switch port's {@code PORT_QOS_MAP pfc_enable}). PFC is hop by hop: the end with PFC sends pause frames the other
 * end does not honour, and the other end never pauses it, so the class is lossy on this hop whichever end lacks it.
 * Both ends must be known; a link known at one end only is no finding, and the import says so in an info
 * diagnostic (the other end could not be checked).
 */
public final class RocePfcOneEndCheck implements FabricCheck {
    static final FindingSpec SPEC = new FindingSpec("roce-pfc-one-end", Layer.FABRIC, Severity.WARNING,
            "Ethernet links with PFC on the RoCE priority enabled at one end only: pauses not honoured, the hop is lossy",
            "mlnx_qos -i (Mellanox OFED); SONiC config_db.json PORT_QOS_MAP pfc_enable; the RDMA fabric manual (enable PFC on both the host and the switch)");

    @Override
    public List<FindingSpec> findings() {
        return List.of(SPEC);
    }

    /** An end's PFC on the RoCE priority and where it was read; null when unknown. */
    private record End(Port port, boolean on, Evidence evidence, String says) {
        static End of(Port p, int prio) {
            RoceQos q = p.qos();
            if (q != null) {
                return new End(p, q.pfcEnabled(prio), q.evidence(), "mlnx_qos: PFC on " + list(q.pfcPriorities()));
            }
            SwitchPortConfig c = p.switchConfig();
            if (c != null && c.pfcKnown() && c.qosEvidence() != null) {
                List<Integer> on = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    if (c.pfcEnabled(i)) {
                        on.add(i);
                    }
                }
                return new End(p, c.pfcEnabled(prio), c.qosEvidence(), "config_db.json PORT_QOS_MAP: PFC on " + list(on));
            }
            return null;
        }

        private static String list(List<Integer> ps) {
            return ps.isEmpty() ? "no priority" : "priorit" + (ps.size() == 1 ? "y " : "ies ")
                    + String.join(",", ps.stream().map(String::valueOf).toList());
        }
    }

    @Override
    public List<Finding> run(CheckContext context) {
        List<Finding> out = new ArrayList<>();
        for (Cable c : context.model().fabric().cables()) {
            if (!c.fromLldp()) {
                continue;
            }
            RocePriority rp = priority(context, c);
            int prio = rp.priority();
            End a = End.of(c.a(), prio);
            End b = End.of(c.b(), prio);
            if (a == null || b == null || a.on == b.on) {
                continue;
            }
            End on = a.on ? a : b;
            End off = on == a ? b : a;
            String title = "PFC on priority " + prio + " is enabled at " + on.port.label() + " (" + on.says + ") but not at "
                    + off.port.label() + " (" + off.says + "): pauses from " + EthernetEnds.node(on.port)
                    + " are not honoured and " + EthernetEnds.node(off.port) + " never pauses, so RoCE on this hop is lossy ("
                    + rp.source() + ")";
            List<String> remedies = new ArrayList<>();
            if (off.port.node().isSwitch()) {
                remedies.add("On " + EthernetEnds.node(off.port) + " (SONiC): add " + prio + " to PORT_QOS_MAP|" + off.port.name()
                        + " pfc_enable (e.g. \"3,4\", with the lossless buffer profile for that priority group; config qos reload "
                        + "regenerates both), then config save; show pfc priority lists it.");
            } else {
                String dev = off.port.name() == null ? "<netdev>" : off.port.name();
                String mask = RocePfcOffCheck.pfcMask(prio);
                remedies.add("On " + EthernetEnds.node(off.port) + ": mlnx_qos -i " + dev + " --pfc " + mask + " --trust dscp; "
                        + "mlnx_qos -i " + dev + " should then show enabled " + mask.replace(',', ' ') + ".");
            }
            remedies.add("PFC works only when both ends of every hop pause on the same priority (RDMA fabric manual: enable PFC on "
                    + "both the host and the switch); ethtool -S on the host (rx/tx_prio" + prio + "_pause) and show pfc counters on the switch "
                    + "show whether pauses flow both ways.");
            out.add(new Finding(SPEC.id(), Severity.WARNING, title, List.<Subject>of(Subjects.cable(c)),
                    List.of(a.evidence, b.evidence), remedies));
        }
        return out;
    }

    /**
     * The RoCE priority of a link: that of its host end where it has one ({@link RocePriority}: NCCL's traffic
     * class through the NIC's trust state and DSCP table), else (two switches) priority 3, said to be assumed.
     */
    private static RocePriority priority(CheckContext context, Cable c) {
        for (Port p : new Port[] {c.a(), c.b()}) {
            if (!p.node().isSwitch() && p.qos() != null) {
                return RocePriority.of(context.model(), context.ranks(), p.node().host() == null ? null : p.node().host().name(),
                        p.qos());
            }
        }
        for (Port p : new Port[] {c.a(), c.b()}) {
            if (!p.node().isSwitch()) {
                return RocePriority.of(context.model(), context.ranks(), p.node().host() == null ? null : p.node().host().name(), null);
            }
        }
        return new RocePriority(RoceQos.DEFAULT_ROCE_PRIORITY, false, "priority " + RoceQos.DEFAULT_ROCE_PRIORITY
                + " assumed between two switches as in NVIDIA's lossless setup, NCCL_IB_TC=106", List.of());
    }
}
