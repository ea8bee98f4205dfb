package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.FindingSpec;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.Port;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code lldp-one-sided}: an Ethernet cable that one end's LLDP neighbour table lists while the other end's
 * table, also loaded, does not. The end that lists it receives, so the other end transmits; its own frames do
 * not arrive: it sends none (lldpd stopped or receive-only), the other end does not receive on that port
 * (LLDP disabled there), or the cable lands somewhere other than the listing end believes. A cable
 * whose other end's table was not loaded is no finding: nothing says what that end sees.
 */
public final class LldpOneSidedCheck implements FabricCheck {
    static final FindingSpec SPEC = new FindingSpec("lldp-one-sided", Layer.FABRIC, Severity.WARNING,
            "Ethernet cables seen in one end's LLDP table but missing from the other end's (also loaded): LLDP off, receive-only or not received on that end",
            "LLDP neighbour tables (lldpcli show neighbors, SONiC show lldp table); the RDMA fabric manual (topology audits against LLDP)");

    @Override
    public List<FindingSpec> findings() {
        return List.of(SPEC);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        List<Finding> out = new ArrayList<>();
        for (Cable c : context.model().fabric().cables()) {
            if (!c.fromLldp()) {
                continue;
            }
            Port seeing = c.reportedBy(c.a()) != null ? c.a() : c.b();
            Port silent = c.other(seeing);
            if (c.reportedBy(silent) != null || silent.node().neighbourTable() == null) {
                continue;
            }
            Evidence saw = c.reportedBy(seeing);
            Evidence table = silent.node().neighbourTable();
            String title = c.a().label() + " <-> " + c.b().label() + ": only " + node(seeing)
                    + "'s LLDP table lists this cable; " + node(silent) + "'s table (" + table.source()
                    + ") has no neighbour on " + silent.name() + ": " + node(seeing) + "'s LLDP frames do not arrive there";
            List<String> remedies = List.of(
                    "On " + node(seeing) + ": lldpcli show interfaces ports " + seeing.name() + " should say Administrative "
                            + "status: RX and TX; a receive-only lldpd (lldpd -r, or lldpcli configure lldp status rx-only) "
                            + "lists its neighbours but sends nothing: lldpcli configure ports " + seeing.name()
                            + " lldp status rx-and-tx.",
                    "On " + node(silent) + ": LLDP must receive on " + silent.name() + " (lldpcli show interfaces ports "
                            + silent.name() + "; on SONiC show lldp table and config feature state lldp enabled); if it "
                            + "does and still lists nothing there, the cable may not land where " + node(seeing)
                            + " believes: trace it.",
                    "Audit the topology against LLDP on every node, switches and hosts (RDMA fabric manual): a cable "
                            + "seen from one end only cannot be checked.");
            out.add(new Finding(SPEC.id(), Severity.WARNING, title, List.<Subject>of(Subjects.cable(c)),
                    List.of(saw, table), remedies));
        }
        return out;
    }

    private static String node(Port p) {
        return p.node().isSwitch() || p.node().host() == null ? p.node().displayName() : p.node().host().name();
    }
}
