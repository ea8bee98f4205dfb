package org.fabricscope.model.core;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a finding is about, as a value: the kind of thing, the stable keys that find it again in any
 * model read from the same inputs (GUIDs and port numbers, host names, pod namespace and name, rank
 * and communicator id, file and line), and a label for people. Code navigates by the keys; nothing
 * parses a label. See {@code docs/decisions/0003-typed-subjects.md}.
 */
public sealed interface Subject {
    /** The kind, as {@code diagnose --json} writes it in {@code refs[].kind}: {@code switch}, {@code port}, ... */
    String kind();

    /** How a person reads it, e.g. {@code leaf-07 port 23}; the finding's {@code subjects} list these. */
    String label();

    /** The stable keys, in a fixed order, as JSON writes them beside {@code kind} and {@code label}. */
    Map<String, Object> keys();

    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            if (kv[i + 1] != null) {
                m.put((String) kv[i], kv[i + 1]);
            }
        }
        return m;
    }

    private static String need(String s, String what) {
        return Objects.requireNonNull(s, what);
    }

    /** A switch, by node GUID. */
    record SwitchRef(long guid, String label) implements Subject {
        public String kind() {
            return "switch";
        }

        public Map<String, Object> keys() {
            return map("guid", Guids.format(guid));
        }
    }

    /** A channel adapter (HCA, or a router), by node GUID. */
    record HcaRef(long guid, String label) implements Subject {
        public String kind() {
            return "hca";
        }

        public Map<String, Object> keys() {
            return map("guid", Guids.format(guid));
        }
    }

    /** One port of a switch or CA: node GUID and port number. */
    record PortRef(long guid, int port, String label) implements Subject {
        public String kind() {
            return "port";
        }

        public Map<String, Object> keys() {
            return map("guid", Guids.format(guid), "port", port);
        }
    }

    /** A cable between two ports, each by node GUID and port number. */
    record CableRef(long guidA, int portA, long guidB, int portB, String label) implements Subject {
        public String kind() {
            return "cable";
        }

        public Map<String, Object> keys() {
            return map("guidA", Guids.format(guidA), "portA", portA, "guidB", Guids.format(guidB), "portB", portB);
        }
    }

    /** A host (server), by name. */
    record HostRef(String host, String label) implements Subject {
        public HostRef {
            need(host, "host");
        }

        public String kind() {
            return "host";
        }

        public Map<String, Object> keys() {
            return map("host", host);
        }
    }

    /** A GPU of a host, by PCI bus id (as NCCL prints it); {@code busId} may be empty when only the index is known. */
    record GpuRef(String host, String busId, int index, String label) implements Subject {
        public GpuRef {
            need(host, "host");
            busId = busId == null ? "" : busId;
        }

        public String kind() {
            return "gpu";
        }

        public Map<String, Object> keys() {
            return map("host", host, "busId", busId.isEmpty() ? null : busId, "index", index >= 0 ? index : null);
        }
    }

    /** A network device of a host as NCCL or the kernel names it ({@code mlx5_0}, {@code erdma_0}, {@code eth0}). */
    record NicRef(String host, String device, String label) implements Subject {
        public NicRef {
            need(host, "host");
            need(device, "device");
        }

        public String kind() {
            return "nic";
        }

        public Map<String, Object> keys() {
            return map("host", host, "device", device);
        }
    }

    /** A Kubernetes node, by name. */
    record K8sNodeRef(String node, String label) implements Subject {
        public K8sNodeRef {
            need(node, "node");
        }

        public String kind() {
            return "k8s-node";
        }

        public Map<String, Object> keys() {
            return map("node", node);
        }
    }

    /** A pod, by namespace and name (namespace empty when the input did not say). */
    record PodRef(String namespace, String pod, String label) implements Subject {
        public PodRef {
            namespace = namespace == null ? "" : namespace;
            need(pod, "pod");
        }

        public String kind() {
            return "pod";
        }

        public Map<String, Object> keys() {
            return map("namespace", namespace, "pod", pod);
        }
    }

    /** One container of a pod. */
    record ContainerRef(String namespace, String pod, String container, String label) implements Subject {
        public ContainerRef {
            namespace = namespace == null ? "" : namespace;
            need(pod, "pod");
            need(container, "container");
        }

        public String kind() {
            return "container";
        }

        public Map<String, Object> keys() {
            return map("namespace", namespace, "pod", pod, "container", container);
        }
    }

    /** A training job (PyTorchJob, MPIJob, ... or the pods of one), optionally one replica type of it. */
    record JobRef(String namespace, String job, String replica, String label) implements Subject {
        public JobRef {
            namespace = namespace == null ? "" : namespace;
            need(job, "job");
            replica = replica == null ? "" : replica;
        }

        public String kind() {
            return "job";
        }

        public Map<String, Object> keys() {
            return map("namespace", namespace, "job", job, "replica", replica.isEmpty() ? null : replica);
        }
    }

    /** A PCI device of a host that is neither a GPU nor a NIC (a PCIe switch, a bridge), by bus id. */
    record PciRef(String host, String busId, String label) implements Subject {
        public PciRef {
            need(host, "host");
            need(busId, "busId");
        }

        public String kind() {
            return "pci";
        }

        public Map<String, Object> keys() {
            return map("host", host, "busId", busId);
        }
    }

    /**
     * A training rank: its rank in a communicator ({@code commId} as NCCL prints it, empty when the log
     * did not say), and where it ran when known ({@code host} as NCCL's line prefix names it: the pod in
     * Kubernetes).
     */
    record RankRef(String commId, int rank, String host, String label) implements Subject {
        public RankRef {
            commId = commId == null ? "" : commId;
            host = host == null ? "" : host;
        }

        public String kind() {
            return "rank";
        }

        public Map<String, Object> keys() {
            return map("commId", commId.isEmpty() ? null : commId, "rank", rank, "host", host.isEmpty() ? null : host);
        }
    }

    /**
     * A communicator (NCCL {@code commId}, or a PyTorch process group), optionally one collective of it:
     * the op and its sequence number ({@code seq} -1 when none).
     */
    record CommRef(String commId, String collective, long seq, String label) implements Subject {
        public CommRef {
            commId = commId == null ? "" : commId;
            collective = collective == null ? "" : collective;
        }

        public String kind() {
            return "communicator";
        }

        public Map<String, Object> keys() {
            return map("commId", commId.isEmpty() ? null : commId, "collective", collective.isEmpty() ? null : collective,
                    "seq", seq >= 0 ? seq : null);
        }
    }

    /** A line of an input: the file (or archive entry, or pod/container stream) and its 1-based line number. */
    record LineRef(String source, int line, String label) implements Subject {
        public LineRef {
            need(source, "source");
        }

        public String kind() {
            return "line";
        }

        public Map<String, Object> keys() {
            return map("source", source, "line", line);
        }

        /** The line an evidence cites, labelled {@code file:line}. */
        public static LineRef of(Evidence e) {
            return new LineRef(e.source(), e.line(), e.source() + ":" + e.line());
        }
    }
}
