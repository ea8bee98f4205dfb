package org.fabricscope.app.nav;

import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.core.Subject;
import org.fabricscope.model.incident.reasoning.Who;

/**
 * The typed subjects an incident event is about, from its {@link Who}: the rank (by global rank and the
 * host its log names), the pod, the Kubernetes node and the host, as far as each is known, most
 * specific first. {@link SubjectResolver} places them as it places a finding's subjects. No toolkit.
 */
public final class IncidentSubjects {
    private IncidentSubjects() {
    }

    /** Rank, pod, node, host: those the event names; empty for nobody. */
    public static List<Subject> of(Who w) {
        List<Subject> out = new ArrayList<>();
        if (w == null) {
            return out;
        }
        if (w.rank() >= 0) {
            out.add(new Subject.RankRef("", w.rank(), w.host(), "rank " + w.rank()));
        }
        if (!w.pod().isEmpty()) {
            out.add(new Subject.PodRef(w.namespace(), w.pod(), w.namespace().isEmpty() ? w.pod() : w.namespace() + "/" + w.pod()));
        }
        if (!w.node().isEmpty()) {
            out.add(new Subject.K8sNodeRef(w.node(), w.node()));
        }
        if (!w.host().isEmpty() && !w.host().equals(w.pod()) && !w.host().equals(w.node())) {
            out.add(new Subject.HostRef(w.host(), w.host()));
        }
        return out;
    }

    /**
     * Where the event's party is shown: its most specific subject the data has a place for (a rank: its
     * HCA, rank row and pod; else the pod, the node, the host), so that the map marks the rank's own
     * HCA rather than every HCA of its host; {@link Navigation#NONE} when none is placed.
     */
    public static Navigation resolve(SubjectResolver resolver, Who w) {
        for (Subject s : of(w)) {
            Navigation n = resolver.resolve(s);
            if (n.unresolved().isEmpty() && !n.isEmpty()) {
                return n;
            }
        }
        return Navigation.NONE;
    }
}
