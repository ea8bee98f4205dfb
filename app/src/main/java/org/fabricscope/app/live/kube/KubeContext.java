package org.fabricscope.app.live.kube;

/**
 * One context of a kubeconfig, for a context picker: its name, cluster and user entries, its
 * namespace (null when the context names none, meaning {@code default}), and whether it is the
 * kubeconfig's {@code current-context}.
 */
public record KubeContext(String name, String cluster, String user, String namespace, boolean current) {
    /** The namespace a read uses when the user names none. */
    public String effectiveNamespace() {
        return namespace == null || namespace.isBlank() ? "default" : namespace;
    }
}
