package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.Subject;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.FindingSpec;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.fabric.PhysState;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.PortState;
import org.fabricscope.model.core.Severity;

/**
 * {@code link-down}: a port that is Down now (iblinkinfo: Down/Polling or Down/Disabled) although
 * its LinkDownedCounter shows the link was up before: an unplugged, broken or disabled cable. One
 * finding per cable: the two ends of one unplugged cable, paired by their wiring ({@link LostLinks}),
 * are one finding with both ends as subjects; an end whose peer cannot be told is a finding alone.
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
        List<Finding> out = new ArrayList<>();
        for (LostLinks.LostCable c : LostLinks.of(context.model())) {
            List<Evidence> evidence = new ArrayList<>();
            List<Subject> subjects = new ArrayList<>();
            for (Port p : c.ends()) {
                if (p.stateEvidence() != null) {
                    evidence.add(p.stateEvidence());
                }
                Evidence ce = p.counterEvidence("LinkDownedCounter");
                evidence.add(Evidence.at(ce == null ? "" : ce.source(), ce == null ? 0 : ce.line(),
                        "LinkDownedCounter=" + Long.toUnsignedString(p.counter("LinkDownedCounter"))));
                subjects.add(Subjects.port(p));
            }
            List<String> remedies = new ArrayList<>();
            String title;
            if (c.b() == null) {
                title = c.a().label() + " is down (" + phys(c.a()) + ") after its link went down " + LostLinks.times(c.a());
                remedies.add("Check that the cable in this port is seated at both ends; an unplugged cable shows as Down/Polling.");
            } else {
                String phys = phys(c.a()).equals(phys(c.b())) ? phys(c.a()) : phys(c.a()) + " / " + phys(c.b());
                title = "Cable " + c.a().label() + " <-> " + c.b().label() + " is down (" + phys + ") after its link went down "
                        + LostLinks.times(c.a());
                remedies.add("Check that the cable between " + c.a().label() + " and " + c.b().label()
                        + " is seated at both ends; an unplugged cable shows as Down/Polling at both.");
                remedies.add("The two ends are paired from the wiring (" + c.basis() + "): no tool lists a cable that is down, "
                        + "so check the cable's labels too.");
            }
            remedies.add("If it is seated, swap the cable; if the port stays Polling with a known-good cable, the port or transceiver has failed.");
            remedies.add("Down/Disabled means the port was switched off: ibportstate <lid> <port> enable.");
            out.add(new Finding(SPEC.id(), Severity.WARNING, title, subjects, evidence, remedies));
        }
        return out;
    }

    private static String phys(Port p) {
        return p.physState().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
    }
}
