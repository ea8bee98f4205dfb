package org.fabricscope.model.incident.reasoning;

/**
 * Whom an event is about, as far as the inputs tell: the PyTorch global rank (-1 when not known),
 * the pod (with its namespace), the Kubernetes node, the host as the log names it (the pod name in
 * Kubernetes; the machine in a kernel log), and the GPU or device when the message names one. Empty
 * strings for what is not known.
 */
public record Who(int rank, String namespace, String pod, String node, String host, String gpu, String device) {
    public static final Who NOBODY = new Who(-1, "", "", "", "", "", "");

    public Who {
        namespace = namespace == null ? "" : namespace;
        pod = pod == null ? "" : pod;
        node = node == null ? "" : node;
        host = host == null ? "" : host;
        gpu = gpu == null ? "" : gpu;
        device = device == null ? "" : device;
    }

    public boolean isNobody() {
        return rank < 0 && pod.isEmpty() && node.isEmpty() && host.isEmpty();
    }

    public Who withRank(int r) {
        return new Who(r, namespace, pod, node, host, gpu, device);
    }

    public Who withPod(String ns, String p) {
        return new Who(rank, ns, p, node, host, gpu, device);
    }

    public Who withNode(String n) {
        return new Who(rank, namespace, pod, n, host, gpu, device);
    }

    public Who withHost(String h) {
        return new Who(rank, namespace, pod, node, h, gpu, device);
    }

    /** The lane this event belongs on: its node, else its pod, else its host; empty when none. */
    public String lane() {
        return !node.isEmpty() ? node : !pod.isEmpty() ? pod : host;
    }

    /** Whether the two name the same party: the same rank, else the same pod, else the same host or node. */
    public boolean same(Who o) {
        if (rank >= 0 && o.rank >= 0) {
            return rank == o.rank;
        }
        if (!pod.isEmpty() && !o.pod.isEmpty()) {
            return pod.equals(o.pod) && namespace.equals(o.namespace);
        }
        if (!host.isEmpty() && (host.equals(o.host) || host.equals(o.pod))) {
            return true;
        }
        return !node.isEmpty() && node.equals(o.node);
    }

    /** {@code rank 1 (trainer-worker-1 on node-b, GPU 0)}, as much as is known. */
    public String label() {
        StringBuilder b = new StringBuilder();
        if (rank >= 0) {
            b.append("rank ").append(rank);
        }
        String place = !pod.isEmpty() ? pod : host;
        String where = "";
        if (!place.isEmpty()) {
            where = place;
            if (!node.isEmpty() && !node.equals(place)) {
                where += " on " + node;
            }
        } else if (!node.isEmpty()) {
            where = "node " + node;
        }
        if (!gpu.isEmpty()) {
            where += (where.isEmpty() ? "" : ", ") + "GPU " + gpu;
        }
        if (!device.isEmpty()) {
            where += (where.isEmpty() ? "" : ", ") + device;
        }
        if (b.length() == 0) {
            return where.isEmpty() ? "unknown" : where;
        }
        return where.isEmpty() ? b.toString() : b.append(" (").append(where).append(')').toString();
    }
}
