package org.fabricscope.app.live.kube;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import org.fabricscope.model.core.Diagnostic;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * Keeps a live view of a cluster for the UI: fabric8 informers on all nodes, on the namespace's
 * pods (narrowed to the job or selector as {@link ClusterReader} does) and on the namespace's
 * events; they list, then watch, and relist and re-watch with backoff by themselves. After changes
 * the listener gets a fresh {@link ClusterSnapshot}, at most once per debounce interval; failures
 * (a 403 on a watch, the server gone) reach it as one-line {@link KubeErrors} messages, once per
 * change of message, while the informers keep retrying. Kubeflow jobs are read once at start.
 * Listener calls come one at a time on a background thread. Read-only: lists and watches only.
 */
public final class ClusterWatch implements AutoCloseable {
    public static final Duration DEFAULT_DEBOUNCE = Duration.ofMillis(250);

    /** Receives snapshots and errors on the watch's own thread (hand them to the UI thread yourself). */
    public interface Listener {
        void snapshot(ClusterSnapshot snapshot);

        void error(String message);
    }

    private final KubeConnection connection;
    private final boolean ownsConnection;
    private final KubeTarget target;
    private final long debounceMillis;
    private final Listener listener;
    private final ScheduledExecutorService thread;
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
    private SharedIndexInformer<Node> nodes;
    private SharedIndexInformer<Pod> pods;
    private SharedIndexInformer<Event> events;
    private final Map<String, String> errors = new ConcurrentHashMap<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final AtomicLong sequence = new AtomicLong();
    private volatile List<KubeObjectList> jobSources = List.of();
    private final List<Diagnostic> jobDiagnostics = new ArrayList<>();
    private volatile ClusterSnapshot current;
    /** Trees of the objects last seen, per kind: a snapshot converts only what changed (resourceVersion). */
    private final KubeTreeCache nodeTrees = new KubeTreeCache();
    private final KubeTreeCache podTrees = new KubeTreeCache();
    private final KubeTreeCache eventTrees = new KubeTreeCache();
    private volatile boolean closed;

    private ClusterWatch(KubeConnection connection, boolean owns, KubeTarget target, Duration debounce, Listener listener) {
        this.connection = connection;
        this.ownsConnection = owns;
        this.target = target;
        this.debounceMillis = Math.max(0, debounce.toMillis());
        this.listener = listener;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "fabricscope-kube-watch " + connection.context());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts watching through an open connection, which the caller keeps and closes after this
     * watch. Returns at once; the first snapshot follows when the initial lists arrive.
     */
    public static ClusterWatch start(KubeConnection connection, KubeTarget target, Duration debounce, Listener listener) {
        ClusterWatch w = new ClusterWatch(connection, false, target, debounce, listener);
        w.begin();
        return w;
    }

    /** Connects to the target and starts watching; {@link #close()} then closes the connection too. */
    public static ClusterWatch open(KubeConnector connector, KubeTarget target, Duration debounce, Listener listener)
            throws KubeException {
        KubeConnection c = connector.connect(target);
        ClusterWatch w = new ClusterWatch(c, true, target, debounce, listener);
        w.begin();
        return w;
    }

    /** The latest snapshot sent to the listener, or null before the first. */
    public ClusterSnapshot current() {
        return current;
    }

    public KubeConnection connection() {
        return connection;
    }

    private void begin() {
        var client = connection.client();
        String ns = connection.namespace();
        nodes = client.nodes().runnableInformer(0);
        pods = target.selector() != null ? client.pods().inNamespace(ns).withLabelSelector(target.selector()).runnableInformer(0)
                : client.pods().inNamespace(ns).runnableInformer(0);
        events = client.v1().events().inNamespace(ns).runnableInformer(0);
        List<CompletableFuture<Void>> started = new ArrayList<>();
        started.add(run(nodes, "nodes", null));
        started.add(run(pods, "pods", ns));
        started.add(run(events, "events", ns));
        thread.execute(() -> {
            List<Diagnostic> d = new ArrayList<>();
            try {
                jobSources = new ClusterReader(connection).jobSources(target.job(), d);
            } catch (KubeException e) {
                d.add(Diagnostic.warning(connection.sourcePrefix() + "/" + ns, 0, e.getMessage()));
            } catch (RuntimeException e) {
                d.add(Diagnostic.warning(connection.sourcePrefix() + "/" + ns, 0, "Kubeflow jobs not read: "
                        + KubeErrors.message(e)));
            }
            synchronized (jobDiagnostics) {
                jobDiagnostics.addAll(d);
            }
            changed();
        });
        // one snapshot once every informer has listed (or failed to), even when nothing changes after
        CompletableFuture.allOf(started.toArray(CompletableFuture[]::new)).whenComplete((v, t) -> changed());
    }

    private <T extends HasMetadata> CompletableFuture<Void> run(SharedIndexInformer<T> informer, String resource, String ns) {
        informers.add(informer);
        informer.addEventHandler(new ResourceEventHandler<T>() {
            @Override
            public void onAdd(T obj) {
                recovered(resource);
                changed();
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                recovered(resource);
                changed();
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                changed();
            }
        });
        informer.exceptionHandler((isStarted, t) -> {
            if (closed) {
                return false;
            }
            failed(resource, KubeErrors.describe(t, connection, isStarted ? "watch" : "list", resource, ns));
            return true; // keep trying with the informer's backoff: RBAC may be fixed, the server may come back
        });
        return informer.start().toCompletableFuture().exceptionally(t -> {
            if (!closed) {
                failed(resource, KubeErrors.describe(t, connection, "list", resource, ns));
            }
            return null;
        });
    }

    private void failed(String resource, String message) {
        String before = errors.put(resource, message);
        if (!message.equals(before) && !closed) {
            thread.execute(() -> {
                if (!closed) {
                    listener.error(message);
                }
            });
            changed();
        }
    }

    private void recovered(String resource) {
        if (errors.remove(resource) != null) {
            changed();
        }
    }

    /** Schedules one snapshot {@code debounce} from now unless one is already due. */
    private void changed() {
        if (closed || !scheduled.compareAndSet(false, true)) {
            return;
        }
        try {
            thread.schedule(this::emit, debounceMillis, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            scheduled.set(false); // closing
        }
    }

    private void emit() {
        scheduled.set(false); // changes from here on schedule the next snapshot
        if (closed) {
            return;
        }
        try {
            ClusterSnapshot s = snapshot();
            current = s;
            listener.snapshot(s);
        } catch (RuntimeException e) {
            listener.error("snapshot failed: " + KubeErrors.message(e));
        }
    }

    /** Objects converted to trees so far, over all kinds (tests: a refresh converts only what changed). */
    long conversions() {
        return nodeTrees.conversions() + podTrees.conversions() + eventTrees.conversions();
    }

    /** Builds a snapshot from the informers' stores now; only objects added or changed since the last are converted. */
    ClusterSnapshot snapshot() {
        String ns = connection.namespace();
        String prefix = connection.sourcePrefix();
        Comparator<HasMetadata> byName = Comparator.comparing(o -> o.getMetadata().getName());
        List<Node> n = new ArrayList<>(nodes.getStore().list());
        n.sort(byName);
        List<Pod> p = pods.getStore().list().stream()
                .filter(x -> target.job() == null || JobPods.belongs(x, target.job())).sorted(byName).toList();
        Set<String> podNames = p.stream().map(x -> x.getMetadata().getName()).collect(Collectors.toSet());
        List<Event> e = events.getStore().list().stream()
                .filter(x -> !target.narrowed() || ClusterReader.relevant(x, podNames, target.job()))
                .sorted(byName).toList();
        List<KubeObjectList> sources = new ArrayList<>();
        List<Diagnostic> diagnostics = new ArrayList<>();
        Map<String, String> errs = new LinkedHashMap<>(errors);
        Instant now = Instant.now();
        if (!errs.containsKey("nodes")) {
            sources.add(new KubeObjectList(prefix + "/nodes", "watch nodes", now, nodeTrees.trees(n)));
        }
        if (!errs.containsKey("pods")) {
            sources.add(new KubeObjectList(prefix + "/" + ns + "/pods", "watch pods in namespace " + ns
                    + (target.selector() != null ? " -l " + target.selector() : ""), now, podTrees.trees(p)));
        }
        if (!errs.containsKey("events")) {
            sources.add(new KubeObjectList(prefix + "/" + ns + "/events", "watch events in namespace " + ns, now,
                    eventTrees.trees(e)));
        }
        sources.addAll(jobSources);
        errs.forEach((kind, msg) -> diagnostics.add(Diagnostic.warning(prefix + (kind.equals("nodes") ? "" : "/" + ns)
                + "/" + kind, 0, msg)));
        synchronized (jobDiagnostics) {
            diagnostics.addAll(jobDiagnostics);
        }
        return new ClusterSnapshot(sources, diagnostics, n.size(), p.size(), e.size(), sequence.incrementAndGet(),
                now, errs);
    }

    /** Stops the informers and the listener thread (and closes the connection when {@link #open} made it). */
    @Override
    public void close() {
        closed = true;
        for (SharedIndexInformer<?> i : informers) {
            try {
                i.stop();
            } catch (RuntimeException e) {
                // stopping a failed informer: nothing left to release
            }
        }
        thread.shutdownNow();
        if (ownsConnection) {
            connection.close();
        }
    }
}
