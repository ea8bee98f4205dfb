package org.fabricscope.model.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.FindingSpec;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.incident.reasoning.Incident;
import org.fabricscope.model.incident.reasoning.IncidentEvent;
import org.fabricscope.model.incident.reasoning.IncidentReasoner;
import org.fabricscope.model.incident.reasoning.Who;
import org.fabricscope.model.slowness.ConfigDrift;
import org.fabricscope.model.slowness.DriftEffects;

/**
 * {@code incident-root-cause}: the first failure of the incident, as {@link IncidentReasoner} finds it
 * over every log, kernel line and Kubernetes object read, with the failures that followed from it as
 * evidence after its own line ("rank 0: remote process exited, 15:47:42, after rank 1's CUDA out of
 * memory at 15:47:41"). Its subjects are the root cause's party: rank, pod, node, GPU. Raised with the
 * root cause's own severity; nothing when the inputs hold no failure.
 */
final class IncidentCheck implements FabricCheck {
    static final FindingSpec ROOT = new FindingSpec("incident-root-cause", Layer.TRAINING, Severity.ERROR,
            "The first failure of the incident (the earliest cause over logs, kernel lines and Kubernetes objects; clock skew"
                    + " and blame between peers weighed), with the failures that followed from it",
            "FabricScope's failure-signature catalogue (fabricscope signatures: NCCL, PyTorch, kernel and driver, Kubernetes"
                    + " message templates with their upstream files) and its incident reasoning (docs/signatures.md)");
    private static final int MAX_FOLLOWERS = 12;
    /** Root causes a difference in the nodes' settings can lie behind: the ranks disagreed, and one side waited or failed. */
    static final java.util.Set<org.fabricscope.model.incident.CauseClass> SUSPECT_DRIFT = java.util.EnumSet.of(
            org.fabricscope.model.incident.CauseClass.COLLECTIVE_HANG, org.fabricscope.model.incident.CauseClass.CONFIG,
            org.fabricscope.model.incident.CauseClass.INTERNAL, org.fabricscope.model.incident.CauseClass.NETWORK_LINK);

    @Override
    public List<FindingSpec> findings() {
        return List.of(ROOT);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        FabricModel model = context.model();
        if (model.incidentLog().matches().isEmpty() && model.events().isEmpty() && model.pods().isEmpty()) {
            return List.of();
        }
        Incident incident = IncidentReasoner.of(model);
        IncidentEvent root = incident.rootCause();
        if (root == null) {
            return List.of();
        }
        List<IncidentEvent> followers = incident.consequencesOf(root);
        List<Evidence> evidence = new ArrayList<>();
        evidence.add(root.evidence());
        for (IncidentEvent e : followers) {
            if (evidence.size() > MAX_FOLLOWERS) {
                break;
            }
            evidence.add(e.evidence().withText(e.who().label() + ": " + e.title()
                    + (e.stamp().known() ? ", " + e.stamp().clock() : "") + " - after " + root.who().label() + "'s "
                    + root.title() + (root.stamp().known() ? " at " + root.stamp().clock() : "")));
        }
        StringBuilder title = new StringBuilder("Root cause: ").append(root.who().label()).append(": ").append(root.title());
        if (root.stamp().known()) {
            title.append(" at ").append(root.stamp().clock());
        }
        title.append(" [").append(root.causeClass().id()).append(", ").append(root.id()).append(']');
        if (!followers.isEmpty()) {
            title.append("; ").append(followers.size()).append(followers.size() == 1 ? " later failure follows" : " later failures follow")
                    .append(" from it");
        }
        List<String> remedies = new ArrayList<>(root.remedies());
        incident.notes().forEach(n -> remedies.add("Note: " + n + "."));
        List<ConfigDrift.Drift> hanging = SUSPECT_DRIFT.contains(root.causeClass()) ? ConfigDrift.of(model).stream()
                .filter(d -> d.effect() == DriftEffects.Effect.HANG).toList() : List.of();
        if (!hanging.isEmpty()) {
            title.append("; the nodes' settings differ in ").append(String.join(", ", hanging.stream().map(ConfigDrift.Drift::key)
                    .toList())).append(", known to hang a job or fail its connections: suspect that first (config-drift)");
            remedies.add(0, "Make the nodes' settings alike (" + ConfigDriftCheck.describe(hanging.get(0)) + ") and rerun: "
                    + "ranks that disagree on " + hanging.get(0).key() + " " + DriftEffects.why(hanging.get(0).key()) + ".");
        }
        return List.of(new Finding(ROOT.id(), root.severity() == Severity.INFO ? Severity.WARNING : root.severity(),
                title.toString(), subjects(context.ranks(), root.who()), evidence, remedies));
    }

    /** The party's rank, pod, node and GPU, as typed subjects; the cited line when none is known. */
    private static List<Subject> subjects(org.fabricscope.model.ranks.RankMap ranks, Who w) {
        Set<Subject> out = new LinkedHashSet<>();
        if (w.rank() >= 0) {
            org.fabricscope.model.ranks.RankSite site = ranks.worldSite(w.rank());
            String comm = site == null ? "" : site.rank().commId();
            out.add(new Subject.RankRef(comm, w.rank(), w.host(), "rank " + w.rank()));
        }
        if (!w.pod().isEmpty()) {
            out.add(new Subject.PodRef(w.namespace(), w.pod(), "pod " + (w.namespace().isEmpty() ? "" : w.namespace() + "/")
                    + w.pod()));
        }
        if (!w.node().isEmpty()) {
            out.add(Subjects.k8sNode(w.node()));
        } else if (!w.host().isEmpty() && w.pod().isEmpty()) {
            out.add(new Subject.HostRef(w.host(), "host " + w.host()));
        }
        String host = !w.host().isEmpty() ? w.host() : w.node();
        if (!w.gpu().isEmpty() && !host.isEmpty()) {
            boolean bus = w.gpu().contains(":");
            int index = bus ? -1 : parse(w.gpu());
            out.add(new Subject.GpuRef(host, bus ? w.gpu() : "", index, host + " GPU " + w.gpu()));
        }
        if (out.isEmpty()) {
            out.add(new Subject.HostRef("unknown", "an unplaced process"));
        }
        return new ArrayList<>(out);
    }

    private static int parse(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
