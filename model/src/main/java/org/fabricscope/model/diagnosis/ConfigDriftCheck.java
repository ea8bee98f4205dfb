package org.fabricscope.model.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.FindingSpec;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.slowness.ConfigDrift;
import org.fabricscope.model.slowness.DriftEffects;

/**
 * {@code config-drift}: the nodes of one job do not run the same configuration. One finding names the odd nodes
 * and, per differing setting, the majority's value against theirs, the settings known to hang first; ERROR when
 * one is known to hang the job or fail its connections, WARNING when one is known to slow it, INFO otherwise.
 * The comparison is {@link ConfigDrift}'s.
 */
final class ConfigDriftCheck implements FabricCheck {
    static final FindingSpec DRIFT = new FindingSpec("config-drift", Layer.TRAINING, Severity.WARNING,
            "The nodes of one job differ in NCCL, CUDA or network settings (the majority against the odd nodes)",
            "NCCL's INFO lines (version, cudaDriverVersion, 'set by environment', plugins, Using network, GPU Direct "
                    + "RDMA) and the pods' environment; NCCL's environment variable documentation for each variable's effect");
    /** At most this many settings are spelled out in the title; the evidence lists all. */
    private static final int IN_TITLE = 4;

    @Override
    public List<FindingSpec> findings() {
        return List.of(DRIFT);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        List<ConfigDrift.Drift> drifts = ConfigDrift.of(context.model());
        if (drifts.isEmpty()) {
            return List.of();
        }
        DriftEffects.Effect worst = drifts.get(0).effect();
        Set<String> odd = new LinkedHashSet<>();
        List<String> parts = new ArrayList<>();
        List<Evidence> evidence = new ArrayList<>();
        List<String> remedies = new ArrayList<>();
        for (ConfigDrift.Drift d : drifts) {
            odd.addAll(d.odd());
            String part = describe(d);
            if (parts.size() < IN_TITLE) {
                parts.add(part);
            }
            evidence.add(Evidence.at("", 0, part + " (" + d.effect().words()
                    + (DriftEffects.why(d.key()).isEmpty() ? "" : ": " + DriftEffects.why(d.key())) + ")"));
            evidence.addAll(d.evidence());
        }
        StringBuilder title = new StringBuilder("Configuration drift between nodes: ");
        title.append(String.join("; ", parts));
        if (drifts.size() > IN_TITLE) {
            title.append("; and ").append(drifts.size() - IN_TITLE).append(" more");
        }
        title.append(" (").append(worst == DriftEffects.Effect.NOTE ? "none of these is known to harm by itself"
                : "the first is " + worst.words()).append(')');
        if (drifts.stream().anyMatch(d -> d.values().containsKey(ConfigDrift.NOT_SET))) {
            remedies.add("\"" + ConfigDrift.NOT_SET + "\": the node's NCCL printed INFO lines but did not report the variable; "
                    + "unset, unless its NCCL_DEBUG_SUBSYS left out ENV.");
        }
        remedies.add(0, "Make the nodes alike: the same container image and the same NCCL_* environment on every "
                + "pod (check the image's ENV, the pod spec's env and envFrom, and the launcher's exports), the "
                + "same NCCL and CUDA driver on every node; then rerun.");
        remedies.add("Look at each node's setting with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,ENV,NET: NCCL logs the "
                + "version, the variables set by the environment, the plugins and the network it chose.");
        List<Subject> subjects = new ArrayList<>();
        for (String n : odd) {
            subjects.add(new Subject.HostRef(n, n));
        }
        Severity severity = switch (worst) {
            case HANG -> Severity.ERROR;
            case SLOW -> Severity.WARNING;
            case NOTE -> Severity.INFO;
        };
        return List.of(new Finding(DRIFT.id(), severity, title.toString(), subjects, evidence, remedies));
    }

    static String describe(ConfigDrift.Drift d) {
        StringBuilder b = new StringBuilder(d.key()).append(' ');
        if (d.majority() != null) {
            b.append(d.majority()).append(" on ").append(nodes(d.values().get(d.majority()))).append(" against ");
            List<String> others = new ArrayList<>();
            for (Map.Entry<String, List<String>> e : d.values().entrySet()) {
                if (!e.getKey().equals(d.majority())) {
                    others.add(e.getKey() + " on " + nodes(e.getValue()));
                }
            }
            b.append(String.join(", ", others));
        } else {
            List<String> all = new ArrayList<>();
            d.values().forEach((v, n) -> all.add(v + " on " + nodes(n)));
            b.append(String.join(" against ", all));
        }
        return b.toString();
    }

    private static String nodes(List<String> nodes) {
        if (nodes.size() <= 3) {
            return String.join(", ", nodes);
        }
        return nodes.size() + " nodes (" + String.join(", ", nodes.subList(0, 2)) + ", ...)";
    }
}
