package org.fabricscope.model.flows;

import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Plural;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.incident.reasoning.Incident;
import org.fabricscope.model.incident.reasoning.IncidentEvent;
import org.fabricscope.model.incident.reasoning.IncidentReasoner;
import org.fabricscope.model.incident.reasoning.Who;

/**
 * The facts of the incident reasoning: whether the first failure was found, and of which cause class.
 * The answer carries the root cause's party as the flow's {@code rank}, {@code pod}, {@code node} and
 * {@code gpu}, so the conclusion's text and commands name them.
 */
final class IncidentFacts {
    private IncidentFacts() {
    }

    static Answer rootCause(FlowContext c, FactCall call) {
        Incident incident = IncidentReasoner.of(c.model());
        IncidentEvent root = incident.rootCause();
        if (root == null) {
            return incident.events().isEmpty()
                    ? Answer.unknown("no log line, kernel message or Kubernetes object matched a failure signature")
                    : Answer.no("no failure among the " + Plural.of(incident.events().size(), "event") + " of the inputs");
        }
        String cls = call.string("class");
        String not = call.string("not");
        String id = root.causeClass().id();
        boolean yes = (cls == null || java.util.List.of(cls.split(",")).contains(id))
                && (not == null || !java.util.List.of(not.split(",")).contains(id));
        Who w = root.who();
        String detail = "the first failure: " + w.label() + ": " + root.title()
                + (root.stamp().known() ? " at " + root.stamp().clock() : "") + " [" + root.causeClass().id() + "]";
        Answer a = new Answer(yes ? Verdict.YES : Verdict.NO, detail, List.of(root.evidence()), subjects(w), Map.of());
        a = a.with("pod", w.pod()).with("namespace", w.namespace()).with("node", w.node())
                .with("rank", w.rank() >= 0 ? String.valueOf(w.rank()) : "").with("gpu", w.gpu());
        return a;
    }

    private static List<Subject> subjects(Who w) {
        if (w.rank() >= 0) {
            return List.of(new Subject.RankRef("", w.rank(), w.host(), "rank " + w.rank()));
        }
        if (!w.pod().isEmpty()) {
            return List.of(new Subject.PodRef(w.namespace(), w.pod(), "pod " + w.pod()));
        }
        if (!w.node().isEmpty()) {
            return List.of(new Subject.K8sNodeRef(w.node(), "node " + w.node()));
        }
        return List.of();
    }
}
