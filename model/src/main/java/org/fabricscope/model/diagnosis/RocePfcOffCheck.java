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
 * traffic uses, priority {@value RoceQos#DEFAULT_ROCE_PRIORITY} (NVIDIA's lossless RoCE configuration: DSCP 26,
 * which {@code NCCL_IB_TC=106} sets, mapped to priority 3 by the default DSCP-to-priority table). Without PFC the
 * class is lossy: a full switch buffer drops packets, and RoCE recovers them by go-back-N retransmission (the
 * out-of-sequence counters rise, bandwidth collapses).
 */
public final class RocePfcOffCheck implements FabricCheck {
    static final FindingSpec SPEC = new FindingSpec("roce-pfc-off", Layer.FABRIC, Severity.WARNING,
            "RoCE NICs with PFC off on the RoCE priority (3): the class is lossy, drops become retransmissions",
            "mlnx_qos -i (Mellanox OFED); the RDMA fabric manual (enable PFC on host and switch for RoCEv2); the distributed-training module (war story: no PFC on the ToR switches)");

    @Override
    public List<FindingSpec> findings() {
        return List.of(SPEC);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        List<Finding> out = new ArrayList<>();
        int prio = RoceQos.DEFAULT_ROCE_PRIORITY;
        for (FabricNode n : context.model().fabric().nodes().values()) {
            for (Port p : n.ports()) {
                RoceQos q = p.qos();
                if (q == null || q.pfcEnabled(prio)) {
                    continue;
                }
                List<Integer> on = q.pfcPriorities();
                String where = on.isEmpty() ? "PFC is enabled on no priority"
                        : "PFC is enabled on priorit" + (on.size() == 1 ? "y " : "ies ")
                        + on.stream().map(String::valueOf).collect(Collectors.joining(", ")) + " but not on " + prio;
                String title = p.label() + ": " + where + " (mlnx_qos" + (q.trust().isEmpty() ? "" : ", trust " + q.trust())
                        + "); RoCE traffic on priority " + prio + " is not lossless";
                List<String> remedies = new ArrayList<>();
                String dev = p.name() == null ? "<netdev>" : p.name();
                String host = n.host() == null ? n.displayName() : n.host().name();
                remedies.add("On " + host + ": mlnx_qos -i " + dev + " --pfc 0,0,0,1,0,0,0,0 enables PFC on priority 3 only; "
                        + "mlnx_qos -i " + dev + " --trust dscp classifies RoCE by its DSCP (26, NCCL_IB_TC=106); mlnx_qos -i "
                        + dev + " should then show enabled 0 0 0 1 0 0 0 0.");
                remedies.add("Enable PFC on the same priority on the switch port this NIC is cabled to: PFC works only when both "
                        + "ends of the link pause on that priority (RDMA fabric manual: enable PFC on both the host and the switch).");
                remedies.add("A job slowed by half with retransmissions and no error was this in the distributed-training module's "
                        + "war story (no PFC on the ToR switches); ethtool -S " + dev + " | grep prio3 shows whether pause frames flow.");
                out.add(new Finding(SPEC.id(), Severity.WARNING, title, List.<Subject>of(Subjects.port(p)),
                        List.of(q.evidence()), remedies));
            }
        }
        return out;
    }
}
