package org.fabricscope.model.incident;

/**
 * What a signature's pattern is matched against: any line of a log ({@code log}, kernel logs
 * included), or the canonical texts of Kubernetes events and statuses ({@code docs/signatures.md}).
 */
public enum Target {
    LOG("log"), K8S_EVENT("k8s-event"), K8S_STATUS("k8s-status");

    private final String id;

    Target(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    public static Target of(String id) {
        for (Target t : values()) {
            if (t.id.equals(id)) {
                return t;
            }
        }
        return null;
    }
}
