package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.Subject;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.FindingSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.core.Severity;

/**
 * {@code link-errors}: port counters over their thresholds (see {@link ErrorThresholds}), or, for a
 * port read two or more times with times, counters growing faster per hour than those thresholds
 * ({@link CounterRates}). One finding per port, naming the cable's far end so the user knows which
 * cable to reseat.
 */
public final class LinkErrorsCheck implements FabricCheck {
    private final ErrorThresholds thresholds;

    public LinkErrorsCheck(ErrorThresholds thresholds) {
        this.thresholds = thresholds;
    }

    static final FindingSpec SPEC = new FindingSpec("link-errors", Layer.FABRIC, Severity.ERROR,
            "Port error counters above the infiniband-diags error thresholds",
            "infiniband-diags error_thresholds defaults (10 / 100 / 1000), overridable with --thresholds or an error_thresholds file; the RDMA fabric manual's troubleshooting matrix");

    @Override
    public List<FindingSpec> findings() {
        return List.of(SPEC);
    }

    /** The worst severity among this port's counters, or null when all are within thresholds. */
    public static Severity worst(Port p, ErrorThresholds t) {
        Severity worst = null;
        for (Map.Entry<String, Long> e : p.counters().entrySet()) {
            Severity s = CounterRates.judge(p, e.getKey(), e.getValue(), t);
            if (s != null && (worst == null || s.compareTo(worst) < 0)) {
                worst = s;
            }
        }
        return worst;
    }

    @Override
    public List<Finding> run(CheckContext context) {
        FabricModel model = context.model();
        List<Finding> out = new ArrayList<>();
        for (FabricNode n : model.nodes()) {
            for (Port p : n.ports()) {
                Severity worst = worst(p, thresholds);
                if (worst == null) {
                    continue;
                }
                StringBuilder over = new StringBuilder();
                Evidence ce = null;
                boolean physical = false;
                for (Map.Entry<String, Long> e : p.counters().entrySet()) {
                    if (CounterRates.judge(p, e.getKey(), e.getValue(), thresholds) != null) {
                        if (over.length() > 0) {
                            over.append(", ");
                        }
                        over.append(CounterRates.describe(p, e.getKey(), e.getValue(), thresholds));
                        physical |= ErrorThresholds.PHYSICAL.contains(e.getKey());
                        if (ce == null) {
                            ce = p.counterEvidence(e.getKey());
                        }
                    }
                }
                List<Subject> subjects = new ArrayList<>();
                subjects.add(Subjects.port(p));
                Port peer = p.peer();
                if (peer != null) {
                    subjects.add(Subjects.port(peer));
                }
                List<Evidence> evidence = new ArrayList<>();
                evidence.add(ce == null ? Evidence.at("", 0, over.toString()) : ce.withText(over.toString()));
                if (p.cable() != null && p.cable().evidence() != null) {
                    evidence.add(p.cable().evidence());
                }
                List<String> remedies = physical
                        ? List.of("Reseat or replace the cable" + (peer == null ? "" : " to " + Subjects.portLabel(peer))
                                        + "; check the transceivers at both ends and clean the fibre connectors.",
                                "Clear the counters (perfquery -R) and read them again to see whether they still grow.",
                                "If errors keep rising after a reseat, move the cable to another port to tell cable from port.")
                        : List.of("Counters of congestion: look for hot spots and oversubscribed uplinks on this switch.",
                                "Clear the counters (perfquery -R) and read them again under load.");
                out.add(new Finding(SPEC.id(), worst,
                        (physical ? "Link errors on " : "Congestion counters on ") + p.label(),
                        subjects, evidence, remedies));
            }
        }
        return out;
    }
}
