package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.Subject;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.FindingSpec;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.k8s.Quantity;
import org.fabricscope.model.k8s.ShmVolume;

/**
 * {@code shm-too-small}: a training pod (or job template) with no memory-backed volume at
 * {@code /dev/shm}, or one whose sizeLimit is below 1Gi. The container runtime's default
 * {@code /dev/shm} is 64 MB; NCCL and the PyTorch DataLoader need gigabytes (Distributed Training Infrastructure (Kubernetes course module 1.3): "Forgetting
 * to set emptyDir.medium: Memory with an adequate sizeLimit is one of the most common reasons
 * distributed training silently runs 2-5x slower than expected"). A {@code df -h /dev/shm} output
 * read as host evidence showing less than 1Gi counts too.
 */
public final class ShmTooSmallCheck implements FabricCheck {
    static final Quantity MINIMUM = Quantity.parse("1Gi");

    static final FindingSpec SPEC = new FindingSpec("shm-too-small", Layer.KUBERNETES, Severity.WARNING,
            "Training pods without a memory-backed /dev/shm emptyDir, or with a sizeLimit below 1Gi",
            "the RunAI RoCE guide, the distributed-training module (/dev/shm as a memory-backed emptyDir)");

    @Override
    public List<FindingSpec> findings() {
        return List.of(SPEC);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        FabricModel model = context.model();
        List<Finding> out = new ArrayList<>();
        for (K8sSubjects.Spec s : K8sSubjects.trainingSpecs(model)) {
            ShmVolume v = s.spec().devShm();
            String problem;
            if (v == null) {
                problem = "mounts nothing at /dev/shm, so it gets the container runtime's 64 MB default";
            } else if (!v.memoryBacked()) {
                problem = "mounts volume " + v.name() + " (" + v.type() + (v.medium() == null || v.medium().isEmpty() ? ""
                        : ", medium " + v.medium()) + ") at /dev/shm, which is not an emptyDir with medium: Memory";
            } else if (v.sizeLimit() != null && v.sizeLimit().compareTo(MINIMUM) < 0) {
                problem = "limits its memory-backed /dev/shm (" + v.name() + ") to sizeLimit " + v.sizeLimit().text()
                        + ", below 1Gi";
            } else {
                continue;
            }
            out.add(new Finding(SPEC.id(), Severity.WARNING, s.label() + " " + problem, List.of(s.subject()),
                    K8sSubjects.cite(s, "/dev/shm", "sizeLimit"),
                    List.of("Add a volume \"dshm\" with emptyDir: {medium: Memory, sizeLimit: 64Gi} and mount it at /dev/shm "
                                    + "in the training container; multi-GPU jobs commonly need 16-64Gi.",
                            "Keep the pod's memory limit above the sizeLimit: memory-backed emptyDir counts against it.",
                            "Inside the pod, df -h /dev/shm shows the size actually mounted.")));
        }
        // what df -h /dev/shm said inside a pod or on a host
        for (org.fabricscope.model.evidence.HostEvidence h : model.hostEvidence().values()) {
            org.fabricscope.model.evidence.ShmMount shm = h.shm();
            if (shm == null || shm.bytes() < 0 || shm.bytes() >= MINIMUM_BYTES) {
                continue;
            }
            out.add(new Finding(SPEC.id(), Severity.WARNING, h.host() + "'s /dev/shm is " + shm.size()
                    + " (df -h /dev/shm), below 1Gi", List.of(new Subject.HostRef(h.host(), h.host())),
                    List.of(shm.evidence()),
                    List.of("In Kubernetes, mount an emptyDir with medium: Memory and a sizeLimit of 16-64Gi at /dev/shm "
                                    + "(the runtime's default is 64 MB); with Docker, run with --shm-size=16g or --ipc=host.",
                            "Check again inside the pod: df -h /dev/shm shows the size actually mounted.")));
        }
        return out;
    }

    private static final long MINIMUM_BYTES = 1L << 30;
}
