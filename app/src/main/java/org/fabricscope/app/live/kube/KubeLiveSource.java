package org.fabricscope.app.live.kube;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.app.live.source.LiveSnapshot;
import org.fabricscope.app.live.source.LiveSource;
import org.fabricscope.app.live.source.LogLine;
import org.fabricscope.importers.core.Cancellation;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A Kubernetes cluster behind the {@link LiveSource} contract: one connection (the kubeconfig's
 * context checked when opened); {@link #readOnce} is {@link ClusterReader}'s one-shot read, within its
 * budget; {@link #start} runs a {@link ClusterWatch} (informers: list, then watch from the list's
 * resourceVersion) and, when asked, follows every started container of the snapshot's pods with a
 * {@link PodLogFollower} whose lines come in batches (at most one per {@code batchEvery}).
 * Read-only against the cluster.
 */
public final class KubeLiveSource implements LiveSource {
    /** How often followed log lines are handed on, at most: once a frame. */
    public static final Duration DEFAULT_BATCH_EVERY = Duration.ofMillis(16);
    /** Lines the batcher holds before the follower stops reading (TCP then holds the rest; nothing is dropped). */
    static final int BATCH_CAPACITY = 100_000;

    private final KubeConnection connection;
    private final KubeTarget target;
    private final Duration batchEvery;
    /** System.nanoTime() when connecting began: the one-shot read's budget counts from there. */
    private final long openedNanos;
    private final Map<String, PodLogStatus> streamStates = new HashMap<>();
    private final Set<String> followed = new HashSet<>();
    private ClusterWatch watch;
    private PodLogFollower follower;
    private LogLineBatcher batcher;
    private volatile ClusterSnapshot snapshot;
    private volatile boolean closed;

    private KubeLiveSource(KubeConnection connection, KubeTarget target, Duration batchEvery, long openedNanos) {
        this.connection = connection;
        this.openedNanos = openedNanos;
        this.target = target;
        this.batchEvery = batchEvery;
    }

    /** Connects (the kubeconfig's context check happens here, so a wrong context fails at once). */
    public static KubeLiveSource open(KubeConnector connector, KubeTarget target, Duration batchEvery) throws KubeException {
        long started = System.nanoTime();
        return new KubeLiveSource(connector.connect(target), target, batchEvery, started);
    }

    @Override
    public String kind() {
        return KubeSourceKind.ID;
    }

    @Override
    public String describe() {
        return connection.context() + "/" + connection.namespace()
                + (target.job() != null ? " job " + target.job() : target.selector() != null ? " pods " + target.selector() : "");
    }

    @Override
    public String streamPrefix() {
        return connection.sourcePrefix() + "/" + connection.namespace() + "/pods/";
    }

    /** {@link ClusterReader}'s one-shot read, connecting included, within {@link ClusterReader#ONE_SHOT_BUDGET}. */
    @Override
    public ClusterRead readOnce(Cancellation cancel) throws KubeException {
        return ClusterReader.read(connection, target, cancel, ClusterReader.ONE_SHOT_BUDGET, openedNanos);
    }

    @Override
    public synchronized void start(Listener listener, boolean followStreams) {
        if (watch != null || closed) {
            throw new IllegalStateException("a live source starts once");
        }
        if (followStreams) {
            batcher = new LogLineBatcher(BATCH_CAPACITY);
            follower = new PodLogFollower(connection.client(), connection.namespace(), batcher);
            batcher.start(batchEvery, b -> batch(b, listener));
        }
        watch = ClusterWatch.start(connection, target, ClusterWatch.DEFAULT_DEBOUNCE, new ClusterWatch.Listener() {
            @Override
            public void snapshot(ClusterSnapshot s) {
                snapshot = s;
                followPods(s, listener);
                listener.snapshot(s);
            }

            @Override
            public void error(String message) {
                listener.error(message);
            }
        });
    }

    /** The latest snapshot, or null before the first. */
    public LiveSnapshot current() {
        return snapshot;
    }

    /** Follows every container of every pod of the snapshot that has started (the pods are the job's). */
    private void followPods(ClusterSnapshot s, Listener listener) {
        PodLogFollower f = follower;
        KubeObjectList pods = s.list("/" + connection.namespace() + "/pods");
        if (f == null || closed || pods == null) {
            return;
        }
        for (JsonNode pod : pods.items()) {
            String name = pod.path("metadata").path("name").asText();
            String phase = pod.path("status").path("phase").asText();
            if (phase.equals("Pending") || name.isEmpty()) {
                continue; // no container has started: nothing to follow yet
            }
            for (JsonNode c : pod.path("spec").path("containers")) {
                String key = name + "/" + c.path("name").asText();
                synchronized (followed) {
                    if (followed.add(key)) {
                        f.follow(name, c.path("name").asText());
                    }
                }
            }
        }
    }

    private void batch(LogLineBatch b, Listener listener) {
        if (!b.lines().isEmpty()) {
            listener.lines(b.lines());
        }
        if (!b.statuses().isEmpty()) {
            synchronized (streamStates) {
                for (PodLogStatus st : b.statuses()) {
                    streamStates.put(st.pod() + "/" + st.container(), st);
                    if (st.state() == PodLogStatus.State.FAILED) {
                        listener.error(st.pod() + "/" + st.container() + ": " + st.message());
                    }
                }
            }
            listener.status();
        }
    }

    /**
     * {@code 4 nodes, 16 pods, 9 events · logs: 16 streaming, 1 retrying}; when nothing can be listed,
     * {@code not connected: <why> (retrying)} instead of counts that would read as an idle cluster.
     */
    @Override
    public String status() {
        ClusterSnapshot s = snapshot;
        StringBuilder b = new StringBuilder();
        if (s != null && s.disconnected()) {
            return "not connected: " + s.failures().values().iterator().next() + " (retrying)";
        }
        if (s != null) {
            b.append(s.counts());
            if (!s.failures().isEmpty()) {
                b.append(" · cannot read ").append(String.join(", ", s.failures().keySet())).append(": ")
                        .append(s.failures().values().iterator().next());
            }
        } else {
            b.append("listing…");
        }
        if (follower != null) {
            Map<PodLogStatus.State, Integer> by = new java.util.EnumMap<>(PodLogStatus.State.class);
            synchronized (streamStates) {
                for (PodLogStatus st : streamStates.values()) {
                    by.merge(st.state(), 1, Integer::sum);
                }
            }
            b.append(" · logs:");
            if (by.isEmpty()) {
                b.append(" waiting for pods");
            }
            by.forEach((state, n) -> b.append(' ').append(n).append(' ').append(state.name().toLowerCase()));
        }
        return b.toString();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (watch != null) {
            watch.close();
        }
        if (follower != null) {
            follower.close();
        }
        if (batcher != null) {
            batcher.close();
        }
        connection.close();
    }
}
