package org.fabricscope.app.live;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.importers.bundle.BundleReader;
import org.fabricscope.importers.kube.ClusterSnapshot;
import org.fabricscope.importers.kube.ClusterWatch;
import org.fabricscope.importers.kube.KubeConnection;
import org.fabricscope.importers.kube.KubeConnector;
import org.fabricscope.importers.kube.KubeException;
import org.fabricscope.importers.kube.KubeTarget;
import org.fabricscope.importers.kube.LogLine;
import org.fabricscope.importers.kube.LogLineBatch;
import org.fabricscope.importers.kube.LogLineBatcher;
import org.fabricscope.importers.kube.PodLogFollower;
import org.fabricscope.importers.kube.PodLogStatus;
import org.fabricscope.model.core.Diagnostic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A live view of one training job: the cluster's nodes, the job's pods and events through watches,
 * the pods' logs followed as they are written, and the loaded files, rebuilt into one model at
 * most every {@code rebuildEvery} (and never two at once). Log lines reach the listener in batches
 * (at most one per {@code batchEvery}); the same lines feed the NCCL parser at each rebuild with
 * their real line numbers, so findings cite {@code pod/container:line}. Memory is bounded: per
 * stream the newest lines are kept, and lines the parser cares about are kept longer.
 *
 * <p>No JavaFX here: listener calls come on background threads; the UI hands them to its thread.
 * Read-only against the cluster.
 */
public final class LiveJob implements AutoCloseable {
    /** What the live job reports. All methods are called on background threads. */
    public interface Listener {
        /** A new model: files + cluster + logs so far. */
        void model(ImportResult result, ClusterSnapshot snapshot);

        /** New log lines, in order per stream. */
        void lines(List<LogLine> lines);

        /** A one-line state of the connection and the log streams, for a status bar. */
        void status(String message);

        /** Something failed (403, unreachable); the job keeps trying where that makes sense. */
        void error(String message);

        /**
         * What keeps the cluster from being read, after each snapshot: null when every kind is
         * listed, else one line per failing kind (unreachable, TLS, 401/403 with the verb and
         * resource, 404), joined with "; ". Called when it changes.
         */
        default void problem(String problem) {
        }
    }

    /** How many log lines are kept over all streams for re-parsing at each rebuild. */
    static final int LINE_BUDGET = 2_000_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubeConnection connection;
    private final KubeTarget target;
    private final List<Path> files;
    private final Listener listener;
    private final ClusterWatch watch;
    private final PodLogFollower follower;
    private final LogLineBatcher batcher;
    private final ScheduledExecutorService rebuilder = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fabricscope-live-rebuild");
        t.setDaemon(true);
        return t;
    });
    private final long rebuildEveryMillis;
    private final AtomicBoolean rebuildScheduled = new AtomicBoolean();
    private final AtomicLong rebuilds = new AtomicLong();
    private final LogKeeper kept = new LogKeeper(LINE_BUDGET);
    private final Map<String, PodLogStatus> streamStates = new HashMap<>();
    private final Set<String> followed = new HashSet<>();
    private volatile ClusterSnapshot snapshot;
    /** The last problem told to the listener (only the watch's thread touches it). */
    private String toldProblem;
    /** The opened files as sources, expanded on the first rebuild (only the rebuild thread touches these). */
    private List<ImportSource> fileSources;
    private List<Diagnostic> fileDiagnostics;
    private volatile boolean closed;

    private LiveJob(KubeConnection connection, KubeTarget target, List<Path> files, boolean followLogs, Duration rebuildEvery,
                    Duration batchEvery, Listener listener) {
        this.connection = connection;
        this.target = target;
        this.files = List.copyOf(files);
        this.listener = listener;
        this.rebuildEveryMillis = Math.max(50, rebuildEvery.toMillis());
        if (followLogs) {
            batcher = new LogLineBatcher(100_000);
            follower = new PodLogFollower(connection.client(), connection.namespace(), batcher);
            batcher.start(batchEvery, this::batch);
        } else {
            batcher = null;
            follower = null;
        }
        watch = ClusterWatch.start(connection, target, ClusterWatch.DEFAULT_DEBOUNCE, new ClusterWatch.Listener() {
            @Override
            public void snapshot(ClusterSnapshot s) {
                snapshot = s;
                String p = problem(s);
                if (!java.util.Objects.equals(p, toldProblem)) {
                    toldProblem = p;
                    listener.problem(p);
                    listener.status(statusLine());
                }
                followPods(s);
                requestRebuild();
            }

            @Override
            public void error(String message) {
                listener.error(message);
            }
        });
    }

    /**
     * Connects (the kubeconfig's context check happens here, so a wrong context fails at once) and
     * starts watching; the first model follows when the initial lists arrive.
     */
    public static LiveJob start(KubeConnector connector, KubeTarget target, List<Path> files, boolean followLogs,
                                Listener listener) throws KubeException {
        return start(connector, target, files, followLogs, Duration.ofSeconds(2), Duration.ofMillis(16), listener);
    }

    public static LiveJob start(KubeConnector connector, KubeTarget target, List<Path> files, boolean followLogs,
                                Duration rebuildEvery, Duration batchEvery, Listener listener) throws KubeException {
        KubeConnection c = connector.connect(target);
        return new LiveJob(c, target, files, followLogs, rebuildEvery, batchEvery, listener);
    }

    public String describe() {
        return connection.context() + "/" + connection.namespace()
                + (target.job() != null ? " job " + target.job() : target.selector() != null ? " pods " + target.selector() : "");
    }

    /** Follows every container of every pod of the snapshot that has started (the pods are the job's). */
    private void followPods(ClusterSnapshot s) {
        if (follower == null || closed) {
            return;
        }
        String podsName = connection.sourcePrefix() + "/" + connection.namespace() + "/pods";
        for (ImportSource src : s.sources()) {
            if (!src.name().equals(podsName)) {
                continue;
            }
            try (var in = src.open()) {
                JsonNode items = JSON.readTree(in).path("items");
                for (JsonNode pod : items) {
                    String name = pod.path("metadata").path("name").asText();
                    String phase = pod.path("status").path("phase").asText();
                    if (phase.equals("Pending") || name.isEmpty()) {
                        continue; // no container has started: nothing to follow yet
                    }
                    for (JsonNode c : pod.path("spec").path("containers")) {
                        String key = name + "/" + c.path("name").asText();
                        synchronized (followed) {
                            if (followed.add(key)) {
                                follower.follow(name, c.path("name").asText());
                            }
                        }
                    }
                }
            } catch (Exception e) {
                listener.error("could not list the pods to follow: " + e.getMessage());
            }
        }
    }

    private void batch(LogLineBatch b) {
        if (!b.lines().isEmpty()) {
            kept.add(b.lines());
            listener.lines(b.lines());
            requestRebuild();
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
            listener.status(statusLine());
        }
    }

    /** The snapshot's failing kinds as one line, null when there are none. */
    static String problem(ClusterSnapshot s) {
        if (s == null || s.failures().isEmpty()) {
            return null;
        }
        return String.join("; ", new java.util.LinkedHashSet<>(s.failures().values()));
    }

    /**
     * {@code live: ctx/ns job J · 4 nodes, 16 pods · logs: 16 streaming, 1 retrying}; when nothing can
     * be listed, {@code Live: ctx/ns · not connected: <why> (retrying)} instead of counts that would
     * read as an idle cluster.
     */
    public String statusLine() {
        ClusterSnapshot s = snapshot;
        StringBuilder b = new StringBuilder("Live: ").append(describe());
        if (s != null && s.disconnected()) {
            b.append(" · not connected: ").append(s.failures().values().iterator().next()).append(" (retrying)");
            return b.toString();
        }
        if (s != null) {
            b.append(" · ").append(s.nodes()).append(" nodes, ").append(s.pods()).append(" pods, ").append(s.events())
                    .append(" events");
            if (!s.failures().isEmpty()) {
                b.append(" · cannot read ").append(String.join(", ", s.failures().keySet())).append(": ")
                        .append(s.failures().values().iterator().next());
            }
        } else {
            b.append(" · listing…");
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

    private void requestRebuild() {
        if (closed || !rebuildScheduled.compareAndSet(false, true)) {
            return;
        }
        long wait = rebuilds.get() == 0 ? 0 : rebuildEveryMillis;
        rebuilder.schedule(this::rebuild, wait, TimeUnit.MILLISECONDS);
    }

    private void rebuild() {
        rebuildScheduled.set(false);
        ClusterSnapshot s = snapshot;
        if (closed || s == null) {
            return;
        }
        try {
            if (fileSources == null) {
                // folders and archives are listed (and archives read into memory) once, not at every rebuild
                fileDiagnostics = new ArrayList<>();
                BundleReader bundles = new BundleReader(fileDiagnostics);
                List<ImportSource> expanded = new ArrayList<>();
                for (Path p : files) {
                    expanded.addAll(bundles.expand(p));
                }
                fileSources = List.copyOf(expanded);
            }
            List<Diagnostic> early = new ArrayList<>(fileDiagnostics);
            early.addAll(s.diagnostics());
            List<ImportSource> sources = new ArrayList<>(fileSources);
            sources.addAll(s.sources());
            ImportResult r = new FabricImporter().importSources(sources, early, ImportProgress.NONE, Cancellation.NEVER,
                    builder -> kept.feed(builder, connection.sourcePrefix() + "/" + connection.namespace() + "/pods/"));
            rebuilds.incrementAndGet();
            listener.model(r, s);
            listener.status(statusLine());
        } catch (RuntimeException e) {
            listener.error("rebuilding the live model failed: " + e);
        }
    }

    public long rebuilds() {
        return rebuilds.get();
    }

    @Override
    public void close() {
        closed = true;
        watch.close();
        if (follower != null) {
            follower.close();
        }
        if (batcher != null) {
            batcher.close();
        }
        rebuilder.shutdownNow();
        connection.close();
    }
}
