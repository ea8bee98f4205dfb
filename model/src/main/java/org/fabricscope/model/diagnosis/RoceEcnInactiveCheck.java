package org.fabricscope.model.diagnosis;

import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.FindingSpec;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;

/**
 * {@code roce-ecn-inactive}: congestion visible on a RoCE NIC while DCQCN does not act on it, from the RDMA
 * {@code hw_counters} between two timed samples (Linux mlx5 {@code counters.rst} and the RDMA counters' sysfs
 * descriptions):
 * <ul>
 * <li>ECN-marked RoCE packets arrived ({@code np_ecn_marked_roce_packets} rose) and no congestion notification
 * was sent back ({@code np_cnp_sent} read and flat): the notification point is off for the RoCE priority;</li>
 * <li>CNPs arrived and were ignored ({@code rp_cnp_ignored} rose): the reaction point is off;</li>
 * <li>PFC pauses on the RoCE priority rose while no packet was marked, no CNP sent and none handled (all three
 * read and flat): congestion is held by PFC alone, ECN marking is off at the switches or DCQCN on the NICs.</li>
 * </ul>
 * A counter not read in two samples is unknown, never taken for zero.
 */
public final class RoceEcnInactiveCheck implements FabricCheck {
    static final FindingSpec SPEC = new FindingSpec("roce-ecn-inactive", Layer.FABRIC, Severity.WARNING,
            "RoCE NICs where congestion shows but ECN/DCQCN does not act: ECN-marked packets without CNPs sent, CNPs ignored, or PFC pauses with no ECN marks nor CNPs at all",
            "RDMA hw_counters np_ecn_marked_roce_packets, np_cnp_sent, rp_cnp_handled, rp_cnp_ignored and mlx5 rx/tx_prioN_pause (Linux mlx5 counters.rst); the RunAI RoCE guide and the RDMA fabric manual (lossless RoCE: PFC with ECN)");
    static final String MARKED = "np_ecn_marked_roce_packets";
    static final String CNP_SENT = "np_cnp_sent";
    static final String CNP_HANDLED = "rp_cnp_handled";
    static final String CNP_IGNORED = "rp_cnp_ignored";

    @Override
    public List<FindingSpec> findings() {
        return List.of(SPEC);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        List<Finding> out = new ArrayList<>();
        for (RoceCounterRises r : RoceCounterRises.of(context)) {
            RocePriority rp = RoceCounterRises.priority(context, r.port());
            int prio = rp.priority();
            long marked = r.increase(MARKED);
            long sent = r.increase(CNP_SENT);
            long handled = r.increase(CNP_HANDLED);
            long ignored = r.increase(CNP_IGNORED);
            String rxPause = "rx_prio" + prio + "_pause";
            String txPause = "tx_prio" + prio + "_pause";
            long pauses = Math.max(r.increase(rxPause), 0) + Math.max(r.increase(txPause), 0);
            List<String> why = new ArrayList<>();
            String dev = r.port().name();
            if (marked > 0 && sent == 0) {
                why.add(MARKED + " +" + marked + " but " + CNP_SENT + " did not rise: the notification point sends no CNP");
                r.cite(MARKED);
                r.cite(CNP_SENT);
            }
            if (ignored > 0) {
                why.add(CNP_IGNORED + " +" + ignored + ": CNPs arrive and the reaction point ignores them");
                r.cite(CNP_IGNORED);
            }
            if (pauses > 0 && marked == 0 && sent == 0 && handled == 0) {
                why.add("priority " + prio + " pauses +" + pauses + " while " + MARKED + ", " + CNP_SENT + " and " + CNP_HANDLED
                        + " stayed flat: congestion is held by PFC alone");
                r.cite(rxPause);
                r.cite(txPause);
                r.cite(MARKED);
            }
            if (why.isEmpty()) {
                continue;
            }
            out.add(new Finding(SPEC.id(), Severity.WARNING, r.port().label() + ": ECN/DCQCN not acting in " + r.overText() + ": "
                    + String.join("; ", why) + " (" + rp.source() + ")", List.<Subject>of(Subjects.port(r.port())), r.evidence(), List.of(
                            "Lossless RoCE needs ECN with PFC: switches mark the RoCE queue (ECN/WRED on priority " + prio
                                    + ") and the NICs run DCQCN, so senders slow down before PFC has to pause them.",
                            "On mlx5 the notification and reaction points are enabled per priority: cat /sys/class/net/" + dev
                                    + "/ecn/roce_np/enable/" + prio + " and /sys/class/net/" + dev + "/ecn/roce_rp/enable/" + prio
                                    + " (1 = on), or mlnx_qos and the NIC's DCQCN settings.",
                            "Then sample the counters again under load: np_ecn_marked_roce_packets and np_cnp_sent should rise together "
                                    + "on receivers, rp_cnp_handled on senders, and pauses should become rare."
                    )));
        }
        return out;
    }
}
