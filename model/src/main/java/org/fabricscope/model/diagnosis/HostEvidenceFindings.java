package org.fabricscope.model.diagnosis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.fabricscope.model.core.Plural;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.evidence.DeviceFile;
import org.fabricscope.model.evidence.HcaPortStatus;
import org.fabricscope.model.evidence.HostEvidence;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.PhysState;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.PortState;

/**
 * The findings that host evidence (ibstat, ibv_devinfo, ibstatus, ulimit, ls -l /dev/infiniband) gives
 * for ids other checks own: {@code port-not-active} ({@link PortNotActiveCheck}), {@code memlock-limit} and
 * {@code rdma-permission} ({@link TrainingLogCheck}). Each owner calls its method here, so every id keeps one
 * declaring check.
 */
final class HostEvidenceFindings {
    private HostEvidenceFindings() {
    }

    /** {@code dgx-01 mlx5_3 port 1}. */
    static String portLabel(HostEvidence h, HcaPortStatus p) {
        return h.host() + " " + p.device() + " port " + p.port();
    }

    static Subject.NicRef nic(HostEvidence h, HcaPortStatus p) {
        return new Subject.NicRef(h.host(), p.device(), portLabel(h, p));
    }

    /** The fabric port a host's HCA port is (by port GUID, else node GUID and port number), or null. */
    static Port fabricPort(FabricModel model, HcaPortStatus p) {
        FabricNode n = p.portGuid() != 0 ? model.nodeByPortGuid(p.portGuid()) : null;
        if (n == null && p.nodeGuid() != 0) {
            n = model.node(p.nodeGuid());
        }
        if (n == null) {
            return null;
        }
        for (Port x : n.ports()) {
            if (x.number() == p.port() || p.portGuid() != 0 && x.portGuid() == p.portGuid()) {
                return x;
            }
        }
        return null;
    }

    static String stateName(PortState s) {
        return switch (s) {
            case INIT -> "Init";
            case ARMED -> "Armed";
            case ACTIVE -> "Active";
            case DOWN -> "Down";
            default -> "unknown";
        };
    }

    static String physName(PhysState s) {
        return switch (s) {
            case LINK_UP -> "LinkUp";
            case POLLING -> "Polling";
            case DISABLED -> "Disabled";
            case SLEEP -> "Sleep";
            case TRAINING -> "Training";
            case ERROR_RECOVERY -> "LinkErrorRecovery";
            case PHY_TEST -> "PhyTest";
            default -> "unknown";
        };
    }

    /**
     * {@code port-not-active}: host HCA ports in Init or Armed, one finding each, unless the fabric dump
     * already reports that port stuck (the fabric check names it then).
     */
    static List<Finding> portsNotActive(FabricModel model, List<String> remedies) {
        List<Finding> out = new ArrayList<>();
        for (HostEvidence h : model.hostEvidence().values()) {
            for (HcaPortStatus p : h.hcaPorts()) {
                if (p.state() != PortState.INIT && p.state() != PortState.ARMED) {
                    continue;
                }
                Port fp = fabricPort(model, p);
                if (fp != null && (fp.state() == PortState.INIT || fp.state() == PortState.ARMED)) {
                    continue;
                }
                out.add(new Finding(PortNotActiveCheck.SPEC.id(), Severity.ERROR,
                        portLabel(h, p) + " is " + stateName(p.state()) + " (physical link " + physName(p.physState())
                                + "), not Active: no subnet manager has activated it"
                                + (p.smLid() == 0 ? " (SM lid 0: it has never heard from one)" : ""),
                        List.of(nic(h, p)), p.evidence() == null ? List.of() : List.of(p.evidence()), remedies));
            }
        }
        return out;
    }

    /** {@code memlock-limit}: a host or pod whose locked-memory limit is not unlimited. */
    static List<Finding> memlock(FabricModel model) {
        List<Finding> out = new ArrayList<>();
        for (HostEvidence h : model.hostEvidence().values()) {
            if (h.memlock() == null || h.memlock().unlimited()) {
                continue;
            }
            out.add(new Finding("memlock-limit", Severity.ERROR,
                    h.host() + "'s locked-memory limit is " + h.memlock().text() + ", not unlimited: RDMA memory registration "
                            + "(ibv_reg_mr) of NCCL's buffers will fail",
                    List.of(new Subject.HostRef(h.host(), h.host())), List.of(h.memlock().evidence()),
                    List.of("Raise the locked-memory limit to unlimited: in /etc/security/limits.conf (* soft memlock unlimited, "
                                    + "* hard memlock unlimited), and for containers in the runtime's default ulimits "
                                    + "(dockerd --default-ulimit memlock=-1:-1, containerd LimitMEMLOCK=infinity) or with IPC_LOCK.",
                            "Check it again where the job runs: ulimit -l should print unlimited.")));
        }
        return out;
    }

    /**
     * {@code rdma-permission}: {@code /dev/infiniband/uverbs*} files that neither everyone nor a group other
     * than root may read and write: only root can open the RDMA device.
     */
    static List<Finding> permissions(FabricModel model) {
        List<Finding> out = new ArrayList<>();
        for (HostEvidence h : model.hostEvidence().values()) {
            List<DeviceFile> closed = h.uverbs().stream().filter(f -> !f.openToAll()
                    && !(f.openToGroup() && !f.group().equals("root"))).toList();
            if (closed.isEmpty()) {
                continue;
            }
            DeviceFile f = closed.get(0);
            out.add(new Finding("rdma-permission", Severity.ERROR,
                    h.host() + ": /dev/infiniband/" + f.name() + (closed.size() > 1 ? " and " + Plural.of(closed.size() - 1, "more uverbs file", "more uverbs files") : "")
                            + " are " + f.mode() + " " + f.owner() + " " + f.group() + ": only " + f.owner()
                            + " can open the RDMA device",
                    List.of(new Subject.HostRef(h.host(), h.host())),
                    closed.stream().map(DeviceFile::evidence).limit(10).toList(),
                    List.of("Make the verbs devices usable: a udev rule KERNEL==\"uverbs*\", MODE=\"0666\" (or GROUP=\"rdma\", "
                                    + "MODE=\"0660\" and the user in group rdma), then udevadm trigger.",
                            "In Kubernetes, request the RDMA resource so the device plugin mounts the device files into the container.")));
        }
        return out;
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    static Evidence first(List<Evidence> ev) {
        return ev.isEmpty() ? null : ev.get(0);
    }
}
