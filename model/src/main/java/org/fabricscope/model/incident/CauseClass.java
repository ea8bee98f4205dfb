package org.fabricscope.model.incident;

/**
 * The kinds of failure the catalogue sorts messages into (the table in {@code docs/signatures.md}).
 * Ids are a contract: they appear in {@code signatures --json}, {@code timeline --json} and findings.
 */
public enum CauseClass {
    GPU_MEMORY("gpu-memory", "the GPU ran out of memory"),
    HOST_MEMORY("host-memory", "host memory ran out (the OOM killer, a pod OOMKilled)"),
    SHARED_MEMORY("shared-memory", "/dev/shm too small or full"),
    LOCKED_MEMORY("locked-memory", "memory registration refused for lack of locked memory"),
    RENDEZVOUS("rendezvous", "the job's membership never completed"),
    ENDPOINT("endpoint", "an address or port that cannot be reached, bound or resolved"),
    DEAD_RANK("dead-rank", "a process died or was killed"),
    COLLECTIVE_HANG("collective-hang", "a collective never completed"),
    GPU_FAULT("gpu-fault", "the GPU or its driver failed"),
    NETWORK_LINK("network-link", "a link or transport error on the wire"),
    NETWORK_CONFIG("network-config", "the network NCCL needs is absent or misnamed"),
    PCIE("pcie", "PCIe errors"),
    SCHEDULING("scheduling", "a pod could not be placed or was removed"),
    IMAGE("image", "a container image could not be pulled"),
    CONFIG("config", "invalid configuration or usage"),
    STORAGE("storage", "a volume could not be mounted"),
    NODE("node", "a node failed or became unreachable"),
    APPLICATION("application", "the training script's own error"),
    INTERNAL("internal", "an error reported without a more specific cause");

    private final String id;
    private final String description;

    CauseClass(String id, String description) {
        this.id = id;
        this.description = description;
    }

    public String id() {
        return id;
    }

    public String description() {
        return description;
    }

    /** The class with this id, or null. */
    public static CauseClass of(String id) {
        for (CauseClass c : values()) {
            if (c.id.equals(id)) {
                return c;
            }
        }
        return null;
    }
}
