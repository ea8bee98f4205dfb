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
import org.fabricscope.model.fabric.PhysState;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.PortState;
import org.fabricscope.model.core.Severity;

/**
 * {@code link-down}: a port that is Down now (iblinkinfo: Down/Polling or Down/Disabled) although
 * its LinkDownedCounter shows the link was up before: an unplugged, broken or disabled cable.
 * Ports that were never linked (LinkDownedCounter 0 or unread) are spare ports, not findings.
 */
public final class LinkDownCheck implements FabricCheck {
    static final FindingSpec SPEC = new FindingSpec("link-down", Layer.FABRIC, Severity.WARNING,
            "Ports that are down now but whose LinkDownedCounter shows a link went down: unplugged or failed cables",
            "iblinkinfo port state + PMA LinkDownedCounter (perfquery)");

    @Override
    public List<FindingSpec> findings() {
        return List.of(SPEC);
    }

    /** Whether this port lost a link that it had: down now, with LinkDownedCounter above zero. */
    public static boolean lostLink(Port p) {
        return p.state() == PortState.DOWN && p.physState() != PhysState.LINK_UP && p.counter("LinkDownedCounter") != 0; // unsigned: any count but 0
    }

    @Override
    public List<Finding> run(CheckContext context) {
        FabricModel model = context.model();
        List<Finding> out = new ArrayList<>();
        for (FabricNode n : model.nodes()) {
            for (Port p : n.ports()) {
                if (!lostLink(p)) {
                    continue;
                }
                List<Evidence> evidence = new ArrayList<>();
                if (p.stateEvidence() != null) {
                    evidence.add(p.stateEvidence());
                }
                Evidence ce = p.counterEvidence("LinkDownedCounter");
                evidence.add(new Evidence(ce == null ? "" : ce.source(), ce == null ? 0 : ce.line(),
                        "LinkDownedCounter=" + Long.toUnsignedString(p.counter("LinkDownedCounter"))));
                out.add(new Finding(SPEC.id(), Severity.WARNING,
                        p.label() + " is down (" + p.physState().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
                                + ") after its link went down " + Long.toUnsignedString(p.counter("LinkDownedCounter")) + " time(s)",
                        List.of(Subjects.port(p)), evidence,
                        List.of("Check that the cable in this port is seated at both ends; an unplugged cable shows as Down/Polling.",
                                "If it is seated, swap the cable; if the port stays Polling with a known-good cable, the port or transceiver has failed.",
                                "Down/Disabled means the port was switched off: ibportstate <lid> <port> enable.")));
            }
        }
        return out;
    }
}
