package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.FindingSpec;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.fabric.CounterRate;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Port;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code roce-lossy}: packet loss on a RoCE NIC's lossless class, seen as counters that rose between two timed
 * samples: the RDMA {@code hw_counters} {@code out_of_sequence} and {@code packet_seq_err} (the responder saw a gap:
 * a packet was dropped and go-back-N retransmits from it) and {@code local_ack_timeout_err} (no ACK came back), and
 * mlx5's {@code rx_prioN_discards} (dropped on the RoCE priority N, as {@link RocePriority} works it out from NCCL's
 * traffic class and the NIC's QoS; 3 when not in the inputs) and {@code rx_discards_phy} (the NIC had no buffer). A counter read once says only what happened since boot, so one sample gives no finding.
 */
public final class RoceLossyCheck implements FabricCheck {
    static final FindingSpec SPEC = new FindingSpec("roce-lossy", Layer.FABRIC, Severity.WARNING,
            "RoCE NICs whose loss counters rose between two samples (out_of_sequence, packet_seq_err, local_ack_timeout_err, rx_prioN_discards on the RoCE priority N, rx_discards_phy): the lossless class drops packets",
            "RDMA hw_counters and mlx5 ethtool counters (Linux mlx5 counters.rst); the RDMA fabric manual (out-of-order packets on RoCEv2: PFC on host and switch)");
    /** The loss counters of a NIC whose RoCE traffic uses priority {@code prio}. */
    static List<String> loss(int prio) {
        return List.of("out_of_sequence", "packet_seq_err", "local_ack_timeout_err", "rx_prio" + prio + "_discards", "rx_discards_phy");
    }

    @Override
    public List<FindingSpec> findings() {
        return List.of(SPEC);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        List<Finding> out = new ArrayList<>();
        for (FabricNode n : context.model().fabric().nodes().values()) {
            if (n.isSwitch()) {
                continue;
            }
            for (Port p : n.ports()) {
                if (p.name() == null || p.counterSamples().size() < 2) {
                    continue;
                }
                List<String> rose = new ArrayList<>();
                List<Evidence> evidence = new ArrayList<>();
                Duration over = null;
                RocePriority rp = RoceCounterRises.priority(context, p);
                int prio = rp.priority();
                for (String c : loss(prio)) {
                    CounterRate r = p.counterRate(c);
                    if (r == null || r.increase() == 0) {
                        continue;
                    }
                    rose.add(c + " +" + Long.toUnsignedString(r.increase()));
                    over = r.over();
                    Evidence e = p.counterEvidence(c);
                    if (e != null && !evidence.contains(e)) {
                        evidence.add(e);
                    }
                }
                if (rose.isEmpty()) {
                    continue;
                }
                String title = p.label() + ": " + String.join(", ", rose) + " in " + minutes(over)
                        + ": packets are lost on the RoCE class (" + rp.source() + ")";
                String dev = p.name();
                List<String> remedies = List.of(
                        "RoCE needs a lossless class: PFC on priority " + prio + " on this NIC (mlnx_qos -i "
                                + dev + " shows enabled " + RocePfcOffCheck.pfcMask(prio).replace(',', ' ') + ") and on its switch port (RDMA fabric manual: enable PFC on "
                                + "both the host and the switch for out-of-order packets on RoCEv2).",
                        "out_of_sequence and packet_seq_err count gaps the responder saw: each means a go-back-N retransmission; "
                                + "rx_prio" + prio + "_discards and rx_discards_phy count drops on this NIC (no buffer), local_ack_timeout_err "
                                + "ACKs that never came back.",
                        "If PFC is on at both ends, look at the switch's drop and pause counters for this port and at the cable "
                                + "(ethtool -S " + dev + " | grep -E 'pause|discard|err'); rising ECN marks without CNPs point at DCQCN.");
                out.add(new Finding(SPEC.id(), Severity.WARNING, title, List.<Subject>of(Subjects.port(p)), evidence, remedies));
            }
        }
        return out;
    }

    private static String minutes(Duration d) {
        long s = d == null ? 0 : d.getSeconds();
        return s < 120 ? s + " s" : (s / 60) + " min";
    }
}
