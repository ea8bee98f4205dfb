package org.fabricscope.model.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.FindingSpec;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.evidence.EnvVar;
import org.fabricscope.model.evidence.ErdmaStat;
import org.fabricscope.model.evidence.HcaPortStatus;
import org.fabricscope.model.evidence.HostEvidence;
import org.fabricscope.model.evidence.NetInterface;
import org.fabricscope.model.fabric.PhysState;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.PortState;
import org.fabricscope.model.training.NcclEvent;
import org.fabricscope.model.training.Rank;

/**
 * The findings only host evidence gives: {@code hca-port-down}, a host HCA port with no physical link
 * (ibstat / ibv_devinfo / ibstatus: Down with Polling, Disabled or Sleep), and
 * {@code socket-interface-missing}, NCCL finding no socket interface to bootstrap on (the interface
 * NCCL_SOCKET_IFNAME names is not in the pod), with the value set and the interfaces the pod has
 * where {@code ip addr} shows them; and {@code erdma-device-missing}, {@code eadm stat} printing no
 * statistics for the eRDMA device it was asked about.
 */
public final class HostEvidenceCheck implements FabricCheck {
    static final FindingSpec PORT_DOWN = new FindingSpec("hca-port-down", Layer.HOST, Severity.WARNING,
            "A host's HCA port is Down with no physical link (Polling, Disabled): an unplugged or failed cable, "
                    + "transceiver or switch port, as ibstat or ibv_devinfo on the host shows it",
            "infiniband-diags ibstat, rdma-core ibv_devinfo; the RDMA fabric manual (troubleshooting matrix)");
    static final FindingSpec SOCKET_MISSING = new FindingSpec("socket-interface-missing", Layer.TRAINING, Severity.ERROR,
            "NCCL found no socket interface to bootstrap on (Bootstrap : no socket interface found): "
                    + "NCCL_SOCKET_IFNAME names an interface the pod does not have",
            "NCCL bootstrap and NET/Socket warnings; the RunAI RoCE guide, the distributed-training module (NCCL_SOCKET_IFNAME)");

    static final FindingSpec ERDMA_MISSING = new FindingSpec("erdma-device-missing", Layer.HOST, Severity.WARNING,
            "eadm stat on a host printed no statistics for the eRDMA device it was asked about (erdma_0): no elastic RDMA "
                    + "interface is attached, or the erdma driver is not loaded",
            "the ACK eRDMA guide (ACK/Arena eRDMA guide: eadm stat -d erdma_0 -l; FAQ: the node does not support eRDMA); "
                    + "Alibaba Cloud eadm and ERI documentation");

    @Override
    public List<FindingSpec> findings() {
        return List.of(PORT_DOWN, SOCKET_MISSING, ERDMA_MISSING);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        FabricModel model = context.model();
        List<Finding> out = new ArrayList<>();
        portsDown(model, out);
        socketMissing(model, out);
        erdmaMissing(model, out);
        return out;
    }

    private static void portsDown(FabricModel model, List<Finding> out) {
        for (HostEvidence h : model.hostEvidence().values()) {
            for (HcaPortStatus p : h.hcaPorts()) {
                if (p.state() != PortState.DOWN || p.physState() == PhysState.LINK_UP) {
                    continue;
                }
                Port fp = HostEvidenceFindings.fabricPort(model, p);
                String cabled = fp != null && fp.peer() != null
                        ? "; the fabric dump shows it cabled to " + Subjects.portLabel(fp.peer()) : "";
                String phys = HostEvidenceFindings.physName(p.physState());
                List<String> remedies = new ArrayList<>();
                if (p.physState() == PhysState.DISABLED) {
                    remedies.add("Disabled means the port was switched off: enable it (ibportstate <lid> <port> enable on the switch side, "
                            + "or mlxlink -d " + p.device() + " -p " + p.port() + " -a UP).");
                }
                remedies.add("Check the cable at both ends (" + p.device() + " on " + h.host() + " and its switch port); Polling means "
                        + "the port sees no peer: reseat, then swap the cable or transceiver.");
                remedies.add("If the port is meant to be unused, ignore it; otherwise mlxlink -d " + p.device()
                        + " shows the cable and the link partner.");
                out.add(new Finding(PORT_DOWN.id(), Severity.WARNING,
                        HostEvidenceFindings.portLabel(h, p) + " is Down (" + phys + "): no physical link" + cabled,
                        List.of(HostEvidenceFindings.nic(h, p)), p.evidence() == null ? List.of() : List.of(p.evidence()),
                        remedies));
            }
        }
    }

    private static void erdmaMissing(FabricModel model, List<Finding> out) {
        for (HostEvidence h : model.hostEvidence().values()) {
            for (ErdmaStat e : h.erdma()) {
                if (e.present()) {
                    continue;
                }
                String dev = e.device().isEmpty() ? "erdma_0" : e.device();
                Subject subject = e.device().isEmpty() ? new Subject.HostRef(h.host(), h.host())
                        : new Subject.NicRef(h.host(), e.device(), h.host() + " " + e.device());
                out.add(new Finding(ERDMA_MISSING.id(), Severity.WARNING, h.host() + ": " + e.summary()
                        + ": the host has no working eRDMA device", List.of(subject),
                        e.evidence() == null ? List.of() : List.of(e.evidence()),
                        List.of("On " + h.host() + ": ibv_devinfo should list " + dev + " (transport iWARP, state PORT_ACTIVE); "
                                        + "lsmod | grep erdma shows whether the erdma driver is loaded (modprobe erdma loads it).",
                                "Check that an elastic RDMA interface (ERI) is attached to the instance: in the ECS console the ENI "
                                        + "type reads flexible RDMA interface (DescribeNetworkInterfaceAttribute: "
                                        + "NetworkInterfaceTrafficMode HighPerformance); only instance types with eRDMA support one.",
                                "Install the eRDMA software stack (the image option Auto-install eRDMA Software Stack, or "
                                        + "Alibaba's erdma installer), then run eadm stat -d " + dev + " -l again.")));
            }
        }
    }

    private static boolean noSocketInterface(NcclEvent e) {
        String m = e.message().toLowerCase(Locale.ROOT);
        return m.contains("no socket interface found") || m.contains("no usable listening interface found")
                || m.contains("net/socket : no interface found");
    }

    private static void socketMissing(FabricModel model, List<Finding> out) {
        Map<String, List<NcclEvent>> byHost = new LinkedHashMap<>();
        for (NcclEvent e : model.trainingLog().events()) {
            if (e.kind() == NcclEvent.Kind.WARN && noSocketInterface(e)) {
                byHost.computeIfAbsent(e.host(), k -> new ArrayList<>()).add(e);
            }
        }
        for (Map.Entry<String, List<NcclEvent>> x : byHost.entrySet()) {
            String host = x.getKey();
            List<Evidence> evidence = new ArrayList<>();
            x.getValue().stream().limit(5).forEach(e -> evidence.add(e.evidence()));
            String value = null;
            for (Rank r : model.trainingLog().ranks()) {
                if (r.host().equals(host) && r.env().get("NCCL_SOCKET_IFNAME") != null) {
                    value = r.env().get("NCCL_SOCKET_IFNAME");
                    evidence.add(r.evidence());
                    break;
                }
            }
            for (NcclEvent e : x.getValue()) {
                if (value == null && e.field("NCCL_SOCKET_IFNAME") != null) {
                    value = e.field("NCCL_SOCKET_IFNAME"); // the process's env, read before its Init line
                }
            }
            HostEvidence h = model.hostEvidence(host);
            if (value == null && h != null && h.env().get("NCCL_SOCKET_IFNAME") != null) {
                EnvVar v = h.env().get("NCCL_SOCKET_IFNAME");
                value = v.value();
                evidence.add(v.evidence());
            }
            Set<String> ifaces = new LinkedHashSet<>();
            if (h != null) {
                for (NetInterface i : h.interfaces()) {
                    ifaces.add(i.name() + (i.addresses().isEmpty() ? "" : " " + String.join(" ", i.addresses().stream()
                            .filter(a -> !a.contains(":")).toList())).stripTrailing());
                }
                if (!h.interfaces().isEmpty() && h.interfaces().get(0).evidence() != null) {
                    evidence.add(h.interfaces().get(0).evidence());
                }
            }
            String title = "NCCL on " + (host.isEmpty() ? "a process" : host) + " found no socket interface to bootstrap on"
                    + (value == null ? "" : ": NCCL_SOCKET_IFNAME=" + value + " names no interface it has")
                    + (ifaces.isEmpty() ? "" : " (it has " + String.join(", ", ifaces) + ")");
            List<String> remedies = new ArrayList<>();
            remedies.add("Set NCCL_SOCKET_IFNAME to an interface the pod has (ip -o addr in the pod lists them): usually eth0 for "
                    + "the pod network, net1 for a Multus secondary network; a prefix (eth) or an exclusion (^lo,docker) also works.");
            remedies.add("Where the job expects a secondary network, check the pod's k8s.v1.cni.cncf.io/networks annotation: "
                    + "without it the pod has no net1.");
            Subject subject = host.isEmpty() ? Subject.LineRef.of(x.getValue().get(0).evidence())
                    : new Subject.HostRef(host, host);
            out.add(new Finding(SOCKET_MISSING.id(), Severity.ERROR, title, List.of(subject), evidence, remedies));
        }
    }
}
