package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.Subject;

import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.k8s.PodSpecSummary;
import org.fabricscope.model.k8s.TrainingJob;

/**
 * The pod specs a Kubernetes check looks at: each training pod read, and the replica templates of
 * job manifests whose pods were not read (so a manifest alone can be checked before submitting).
 */
final class K8sSubjects {
    private K8sSubjects() {
    }

    record Spec(Subject subject, String label, PodSpecSummary spec, Evidence evidence) {
    }

    /** The cited lines of these settings (where the reader found them), then the object itself. */
    static List<Evidence> cite(Spec s, String... keys) {
        List<Evidence> out = new ArrayList<>();
        for (String k : keys) {
            Evidence e = s.spec().citation(k);
            if (e != null) {
                out.add(e);
            }
        }
        if (s.evidence() != null) {
            out.add(s.evidence());
        }
        return out;
    }

    static List<Spec> trainingSpecs(FabricModel model) {
        List<Spec> out = new ArrayList<>();
        for (K8sPod p : model.pods()) {
            if (p.training() && !p.terminated()) {
                out.add(new Spec(Subjects.pod(p), "Pod " + p.key(), p.spec(), p.evidence()));
            }
        }
        for (TrainingJob j : model.jobs()) {
            if (!j.podNames().isEmpty()) {
                continue;
            }
            for (TrainingJob.Replica r : j.replicas()) {
                if (r.type().equalsIgnoreCase("Launcher")
                        && !r.template().effectiveRequests().containsKey(org.fabricscope.model.k8s.Resources.GPU)) {
                    continue; // mpirun only: no NCCL traffic of its own
                }
                out.add(new Spec(Subjects.replica(j, r.type()), j.kind() + " " + j.key() + " replica " + r.type(),
                        r.template(), r.evidence() != null ? r.evidence() : j.evidence()));
            }
        }
        return out;
    }
}
