package org.fabricscope.app.live.kube;

import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * An open, read-only client for one context: its name, the namespace reads use, and the API
 * server's URL (for messages). Close it when done; closing stops its watches and threads.
 */
public final class KubeConnection implements AutoCloseable {
    private final KubernetesClient client;
    private final String context;
    private final String namespace;
    private final String server;
    private final long requestTimeoutMillis;
    private final long readDeadlineMillis;
    private final long maxResponseBytes;
    private final KubeconfigCheck.ExecPlugin execPlugin;

    KubeConnection(KubernetesClient client, String context, String namespace, String server, long requestTimeoutMillis) {
        this(client, context, namespace, server, requestTimeoutMillis, 3 * requestTimeoutMillis,
                KubeConnector.DEFAULT_MAX_RESPONSE_BYTES, null);
    }

    KubeConnection(KubernetesClient client, String context, String namespace, String server, long requestTimeoutMillis,
                   long readDeadlineMillis, long maxResponseBytes, KubeconfigCheck.ExecPlugin execPlugin) {
        this.client = client;
        this.context = context;
        this.namespace = namespace;
        this.server = server;
        this.requestTimeoutMillis = requestTimeoutMillis;
        this.readDeadlineMillis = readDeadlineMillis;
        this.maxResponseBytes = maxResponseBytes;
        this.execPlugin = execPlugin;
    }

    /** How long one GET of a one-shot read may take, headers and body together. */
    public long readDeadlineMillis() {
        return readDeadlineMillis;
    }

    /** The most body bytes one reply of a one-shot read may have. */
    public long maxResponseBytes() {
        return maxResponseBytes;
    }

    /** The exec credential plugin the context's user runs, or null. */
    KubeconfigCheck.ExecPlugin execPlugin() {
        return execPlugin;
    }

    /** The fabric8 client; callers only read through it (writes are refused). */
    public KubernetesClient client() {
        return client;
    }

    public String context() {
        return context;
    }

    /** The namespace reads use: the target's, else the context's, else {@code default}. */
    public String namespace() {
        return namespace;
    }

    /** The API server URL, without a trailing slash. */
    public String server() {
        return server;
    }

    public long requestTimeoutMillis() {
        return requestTimeoutMillis;
    }

    /** {@code kube://<context>}: the prefix of every source name a read produces. */
    public String sourcePrefix() {
        return "kube://" + context;
    }

    @Override
    public void close() {
        client.close();
    }
}
