package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.FindingSpec;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.RoceQos;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code roce-pfc-off}: a RoCE NIC whose QoS settings ({@code mlnx_qos -i}) leave PFC off on the priority RoCE
 * traffic uses: the one NCCL's {@code NCCL_IB_TC} (or {@code NCCL_IB_SL} under trust pcp) lands on through the NIC's
 * trust state and DSCP table ({@link RocePriority}); where NCCL's settings are not in the inputs, priority
 * {@value RoceQos#DEFAULT_ROCE_PRIORITY} (NVIDIA's lossless RoCE configuration: DSCP 26, which {@code NCCL_IB_TC=106}
 * sets), said to be assumed. Without PFC the
 * class is lossy: a full switch buffer drops packets, and RoCE recovers them by go-back-N retransmission (the
 * out-of-sequence counters rise, bandwidth collapses).
 */
public final class RocePfcOffCheck implements FabricCheck {
    static final FindingSpec SPEC = new FindingSpec("roce-pfc-off", Layer.FABRIC, Severity.WARNING,
            "RoCE NICs with PFC off on the priority RoCE traffic uses (from NCCL_IB_TC / NCCL_IB_SL and the NIC's trust and DSCP table; 3 when not in the inputs): the class is lossy, drops become retransmissions",
            "mlnx_qos -i (Mellanox OFED); the RDMA fabric manual (enable PFC on host and switch for RoCEv2); the distributed-training module (war story: no PFC on the ToR switches)");

    @Override
    public List<FindingSpec> findings() {
        return List.of(SPEC);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        List<Finding> out = new ArrayList<>();
        for (FabricNode n : context.model().fabric().nodes().values()) {
            for (Port p : n.ports()) {
                RoceQos q = p.qos();
                if (q == null) {
                    continue;
                }
                RocePriority rp = RocePriority.of(context.model(), context.ranks(), n.host() == null ? null : n.host().name(), q);
                int prio = rp.priority();
                if (q.pfcEnabled(prio)) {
                    continue;
                }
                List<Integer> on = q.pfcPriorities();
                String where = on.isEmpty() ? "PFC is enabled on no priority"
                        : "PFC is enabled on priorit" + (on.size() == 1 ? "y " : "ies ")
                        + on.stream().map(String::valueOf).collect(Collectors.joining(", ")) + " but not on " + prio;
                String title = p.label() + ": " + where + " (mlnx_qos" + (q.trust().isEmpty() ? "" : ", trust " + q.trust())
                        + "); RoCE traffic on priority " + prio + " is not lossless (" + rp.source() + ")";
                List<String> remedies = new ArrayList<>();
                String dev = p.name() == null ? "<netdev>" : p.name();
                String host = n.host() == null ? n.displayName() : n.host().name();
                String mask = pfcMask(prio);
                remedies.add("On " + host + ": mlnx_qos -i " + dev + " --pfc " + mask + " enables PFC on priority " + prio + " only; "
                        + "mlnx_qos -i " + dev + " --trust dscp classifies RoCE by its DSCP (NCCL_IB_TC >> 2); mlnx_qos -i "
                        + dev + " should then show enabled " + mask.replace(',', ' ') + ".");
                if (!rp.known()) {
                    remedies.add("Which priority RoCE uses here could not be told (" + rp.source() + "): load the ranks' "
                            + "NCCL_DEBUG=INFO logs (NCCL_IB_TC set by environment to ...) or the job's environment; NVIDIA's "
                            + "lossless setup is NCCL_IB_TC=106 (DSCP 26, priority 3), and unset NCCL sends TC 0 (priority 0).");
                } else if (rp.priority() != RoceQos.DEFAULT_ROCE_PRIORITY) {
                    remedies.add("Or move NCCL onto the priority PFC protects: NCCL_IB_TC=106 gives DSCP 26, priority 3 by the "
                            + "default DSCP table. A job that sets no NCCL_IB_TC (the RunAI RoCE guide exports only NCCL_IB_GID_INDEX "
                            + "and NCCL_IB_HCA) sends TC 0: DSCP 0, priority 0.");
                }
                remedies.add("Enable PFC on the same priority on the switch port this NIC is cabled to: PFC works only when both "
                        + "ends of the link pause on that priority (RDMA fabric manual: enable PFC on both the host and the switch).");
                remedies.add("A job slowed by half with retransmissions and no error was this in the distributed-training module's "
                        + "war story (no PFC on the ToR switches); ethtool -S " + dev + " | grep prio3 shows whether pause frames flow.");
                List<org.fabricscope.model.core.Evidence> ev = new ArrayList<>(rp.evidence());
                if (!ev.contains(q.evidence())) {
                    ev.add(0, q.evidence());
                }
                out.add(new Finding(SPEC.id(), Severity.WARNING, title, List.<Subject>of(Subjects.port(p)), ev, remedies));
            }
        }
        return out;
    }

    /** {@code 0,0,0,1,0,0,0,0} for priority 3. */
    static String pfcMask(int prio) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            b.append(i == 0 ? "" : ",").append(i == prio ? '1' : '0');
        }
        return b.toString();
    }
}
