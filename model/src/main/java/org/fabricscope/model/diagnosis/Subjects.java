package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.Guids;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.k8s.TrainingJob;

/**
 * How findings name fabric and Kubernetes things: the typed subject with its stable keys and the
 * label every check uses for it, so all checks name a port (or pod, or node) the same way.
 */
public final class Subjects {
    private Subjects() {
    }

    /** {@code leaf-07 port 23}, or {@code dgx-01 mlx5_0 port 1 (0x...)} for a CA port. */
    public static String portLabel(Port p) {
        if (p.name() != null) { // an Ethernet port: leaf-01 Ethernet8, gpu-node-01 ens1f0np0
            return p.label();
        }
        return p.node().displayName() + " port " + p.number()
                + (p.node().isSwitch() ? "" : " (" + Guids.format(p.node().guid()) + ")");
    }

    public static Subject.PortRef port(Port p) {
        return new Subject.PortRef(p.node().guid(), p.number(), portLabel(p));
    }

    public static Subject.CableRef cable(Cable c) {
        return new Subject.CableRef(c.a().node().guid(), c.a().number(), c.b().node().guid(), c.b().number(),
                portLabel(c.a()) + " <-> " + portLabel(c.b()));
    }

    public static Subject node(FabricNode n) {
        return n.isSwitch() ? new Subject.SwitchRef(n.guid(), n.displayName())
                : new Subject.HcaRef(n.guid(), n.displayName() + " (" + Guids.format(n.guid()) + ")");
    }

    public static Subject.PodRef pod(K8sPod p) {
        return new Subject.PodRef(p.namespace(), p.name(), "pod " + p.key());
    }

    public static Subject.K8sNodeRef node(K8sNode n) {
        return new Subject.K8sNodeRef(n.name(), "node " + n.name());
    }

    public static Subject.K8sNodeRef k8sNode(String name) {
        return new Subject.K8sNodeRef(name, "node " + name);
    }

    public static Subject.JobRef job(TrainingJob j) {
        return new Subject.JobRef(j.namespace(), j.name(), null, "job " + j.key());
    }

    public static Subject.JobRef replica(TrainingJob j, String replica) {
        return new Subject.JobRef(j.namespace(), j.name(), replica, "job " + j.key() + " " + replica);
    }
}
