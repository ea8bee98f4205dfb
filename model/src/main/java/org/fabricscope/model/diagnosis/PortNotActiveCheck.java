package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.Subject;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.FindingSpec;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.PortState;
import org.fabricscope.model.core.Severity;

/**
 * {@code port-not-active}: ports whose physical link is up but whose logical state stays Init or
 * Armed. No subnet manager has configured them, so no traffic flows. Many such ports at once
 * means no subnet manager runs at all; a few mean the SM cannot reach or configure them. A host's own
 * view of its HCA ports (ibstat, ibv_devinfo, ibstatus) counts too: a port it reports in Init that the
 * fabric dump does not already show stuck is one finding, about the NIC.
 */
public final class PortNotActiveCheck implements FabricCheck {
    static final FindingSpec SPEC = new FindingSpec("port-not-active", Layer.FABRIC, Severity.ERROR,
            "Ports stuck in Init or Armed: no subnet manager has activated them",
            "IBA port state machine; opensm");

    @Override
    public List<FindingSpec> findings() {
        return List.of(SPEC);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        FabricModel model = context.model();
        List<Port> stuck = new ArrayList<>();
        int known = 0;
        for (FabricNode n : model.nodes()) {
            for (Port p : n.ports()) {
                if (p.state() != PortState.UNKNOWN && p.state() != PortState.DOWN) {
                    known++;
                }
                if (p.state() == PortState.INIT || p.state() == PortState.ARMED) {
                    stuck.add(p);
                }
            }
        }
        List<Finding> hostSide = HostEvidenceFindings.portsNotActive(model, List.of(
                "Start a subnet manager: opensm on a host (systemctl start opensm) or the switch's embedded SM / UFM; "
                        + "sminfo shows whether one answers.",
                "If an SM runs, check its log (/var/log/opensm.log) for this port: a P_Key or M_Key mismatch keeps it in Init."));
        if (stuck.isEmpty()) {
            return hostSide;
        }
        boolean noSm = stuck.size() * 2 > known;
        List<String> remedies = noSm
                ? List.of("Start a subnet manager: opensm on a host (systemctl start opensm) or the switch's embedded SM / UFM.",
                        "Check that exactly one master SM is elected: sminfo, and saquery -s.")
                : List.of("Check the SM log (/var/log/opensm.log) for errors on these ports.",
                        "Check for a partition (P_Key) or M_Key mismatch on these ports; bounce the port with ibportstate.");
        List<Finding> out = new ArrayList<>(hostSide);
        if (noSm) {
            List<Subject> subjects = new ArrayList<>();
            List<Evidence> evidence = new ArrayList<>();
            for (Port p : stuck) {
                subjects.add(Subjects.port(p));
                if (evidence.size() < 20 && p.stateEvidence() != null) {
                    evidence.add(p.stateEvidence());
                }
            }
            out.add(new Finding(SPEC.id(), Severity.ERROR,
                    stuck.size() + " of " + known + " linked ports are in Init/Armed: no subnet manager is running",
                    subjects, evidence, remedies));
        } else {
            for (Port p : stuck) {
                out.add(new Finding(SPEC.id(), Severity.ERROR, p.label() + " is " + p.state().name().toLowerCase(java.util.Locale.ROOT)
                        + ", not active", List.of(Subjects.port(p)),
                        p.stateEvidence() == null ? List.of() : List.of(p.stateEvidence()), remedies));
            }
        }
        return out;
    }
}
