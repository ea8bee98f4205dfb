package org.fabricscope.app.live;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.fabricscope.app.live.source.LiveDeadlines;
import org.fabricscope.app.live.source.LiveSnapshot;
import org.fabricscope.app.live.source.LiveSource;
import org.fabricscope.app.live.source.LogLine;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.bundle.BundleReader;
import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.model.core.Diagnostic;

/**
 * A live view of one source (a cluster's nodes, a job's pods and events, the pods' logs) and the
 * loaded files, rebuilt into one model at most every {@code rebuildEvery} (and never two at once).
 * The source is any {@link LiveSource} the registry opened; it pushes snapshots, which are
 * contributed to the model builder as objects, and log lines, which reach the listener in batches
 * and feed the NCCL parser at each rebuild with their real line numbers, so findings cite
 * {@code pod/container:line}. Memory is bounded: per stream the newest lines are kept, and lines
 * the parser cares about are kept longer.
 *
 * <p>No JavaFX here: listener calls come on background threads; the UI hands them to its thread.
 */
public final class LiveJob implements AutoCloseable {
    /** What the live job reports. All methods are called on background threads. */
    public interface Listener {
        /** A new model: files + the source's snapshot + logs so far. */
        void model(ImportResult result, LiveSnapshot snapshot);

        /** New log lines, in order per stream. */
        void lines(List<LogLine> lines);

        /** A one-line state of the connection and the log streams, for a status bar. */
        void status(String message);

        /** Something failed (403, unreachable); the job keeps trying where that makes sense. */
        void error(String message);

        /**
         * What keeps the source from being read, after each snapshot: null when every kind is
         * read, else one line per failing kind (unreachable, TLS, 401/403 with the verb and
         * resource, 404), joined with "; ". Called when it changes.
         */
        default void problem(String problem) {
        }
    }

    /** How many log lines are kept over all streams for re-parsing at each rebuild. */
    static final int LINE_BUDGET = 2_000_000;

    private final LiveSource source;
    private final List<Path> files;
    private final Listener listener;
    private final ScheduledExecutorService rebuilder = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fabricscope-live-rebuild");
        t.setDaemon(true);
        return t;
    });
    private final long rebuildEveryMillis;
    private final AtomicBoolean rebuildScheduled = new AtomicBoolean();
    private final AtomicLong rebuilds = new AtomicLong();
    private final LogKeeper kept = new LogKeeper(LINE_BUDGET);
    private volatile LiveSnapshot snapshot;
    /** The last problem told to the listener (guarded by this). */
    private String toldProblem;
    /** The opened files as sources, expanded on the first rebuild (only the rebuild thread touches these). */
    private List<ImportSource> fileSources;
    private List<Diagnostic> fileDiagnostics;
    private volatile boolean closed;

    private LiveJob(LiveSource source, List<Path> files, Duration rebuildEvery, Listener listener) {
        this.source = source;
        this.files = List.copyOf(files);
        this.listener = listener;
        this.rebuildEveryMillis = Math.max(50, rebuildEvery.toMillis());
    }

    /**
     * Starts an opened source (the registry opened it, so a wrong context has failed already); the first
     * model follows when the source's first snapshot arrives. The job closes the source.
     */
    public static LiveJob start(LiveSource source, List<Path> files, boolean followLogs, Listener listener) {
        return start(source, files, followLogs, Duration.ofSeconds(2), listener);
    }

    public static LiveJob start(LiveSource source, List<Path> files, boolean followLogs, Duration rebuildEvery,
                                Listener listener) {
        return start(source, files, followLogs, rebuildEvery, LiveDeadlines.FIRST_SNAPSHOT, listener);
    }

    static LiveJob start(LiveSource source, List<Path> files, boolean followLogs, Duration rebuildEvery,
                         Duration firstSnapshot, Listener listener) {
        LiveJob job = new LiveJob(source, files, rebuildEvery, listener);
        source.start(job.new FromSource(), followLogs);
        job.rebuilder.schedule(() -> {
            if (job.snapshot == null && !job.closed) {
                job.tell("no answer from " + source.describe() + " within " + span(firstSnapshot) + "; still trying");
            }
        }, firstSnapshot.toMillis(), TimeUnit.MILLISECONDS);
        return job;
    }

    private final class FromSource implements LiveSource.Listener {
        @Override
        public void snapshot(LiveSnapshot s) {
            snapshot = s;
            tell(problem(s));
            requestRebuild();
        }

        @Override
        public void lines(List<LogLine> lines) {
            kept.add(lines);
            listener.lines(lines);
            requestRebuild();
        }

        @Override
        public void status() {
            listener.status(statusLine());
        }

        @Override
        public void error(String message) {
            listener.error(message);
        }
    }

    /** Tells the listener the problem when it changed (a snapshot's, or the first snapshot being late). */
    private synchronized void tell(String p) {
        if (!java.util.Objects.equals(p, toldProblem)) {
            toldProblem = p;
            listener.problem(p);
            listener.status(statusLine());
        }
    }

    public String describe() {
        return source.describe();
    }

    /** The snapshot's failing kinds as one line, null when there are none. */
    static String problem(LiveSnapshot s) {
        if (s == null || s.failures().isEmpty()) {
            return null;
        }
        return String.join("; ", new java.util.LinkedHashSet<>(s.failures().values()));
    }

    /**
     * {@code Live: ctx/ns job J · 4 nodes, 16 pods · logs: 16 streaming, 1 retrying}; when nothing can
     * be listed, {@code Live: ctx/ns · not connected: <why> (retrying)} instead of counts that would
     * read as an idle cluster.
     */
    public String statusLine() {
        return "Live: " + describe() + " · " + source.status();
    }

    private void requestRebuild() {
        if (closed || !rebuildScheduled.compareAndSet(false, true)) {
            return;
        }
        long wait = rebuilds.get() == 0 ? 0 : rebuildEveryMillis;
        try {
            rebuilder.schedule(this::rebuild, wait, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            rebuildScheduled.set(false); // closing
        }
    }

    private void rebuild() {
        rebuildScheduled.set(false);
        LiveSnapshot s = snapshot;
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
            sources.addAll(s.texts());
            ImportResult r = new FabricImporter().importSources(sources, early, ImportProgress.NONE, Cancellation.NEVER,
                    builder -> {
                        s.contribute(builder);
                        kept.feed(builder, source.streamPrefix());
                    });
            rebuilds.incrementAndGet();
            listener.model(r, s);
            listener.status(statusLine());
        } catch (RuntimeException e) {
            listener.error("rebuilding the live model failed: " + e);
        }
    }

    private static String span(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    /** Whether the source can be paused (a polled source). */
    public boolean pausable() {
        return source.pausable();
    }

    /** Pauses a pausable source, or resumes it when paused; the model keeps what was read. Returns whether paused now. */
    public boolean togglePause() {
        if (source.paused()) {
            source.resume();
        } else {
            source.pause();
        }
        listener.status(statusLine());
        return source.paused();
    }

    public long rebuilds() {
        return rebuilds.get();
    }

    /** Stops the source, waiting at most {@link LiveDeadlines#STOP} for it; what it loaded stays. */
    @Override
    public void close() {
        closed = true;
        rebuilder.shutdownNow();
        Thread stopper = new Thread(source::close, "fabricscope-live-stop");
        stopper.setDaemon(true);
        stopper.start();
        try {
            stopper.join(LiveDeadlines.STOP.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (stopper.isAlive()) {
            listener.error(source.describe() + " did not stop within " + span(LiveDeadlines.STOP)
                    + "; left to stop in the background");
        }
    }
}
