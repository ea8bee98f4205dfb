package org.fabricscope.app.live.poll;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.fabricscope.app.live.source.LiveDeadlines;
import org.fabricscope.app.live.source.LiveSnapshot;
import org.fabricscope.app.live.source.LiveSource;
import org.fabricscope.app.live.source.LiveSourceException;
import org.fabricscope.importers.core.Cancellation;

/**
 * The fabric poller as a live source ({@code fabric-poll}): {@link #start} polls on its own thread
 * every interval (counted from each poll's start; a poll that takes longer delays the next, never
 * overlaps it) and pushes a snapshot after each; {@link #pause} and {@link #resume} stop and restart
 * the polling while the series gathered so far stay; {@link #close} stops within
 * {@link LiveDeadlines#STOP}. {@link #readOnce} is one poll.
 */
public final class FabricPollSource implements LiveSource {
    private final FabricPollTarget target;
    private final FabricPoller poller;
    private final Clock clock;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fabricscope-fabric-poll");
        t.setDaemon(true);
        return t;
    });
    private volatile Listener listener;
    private volatile Consumer<PollResult> results = r -> { };
    private volatile boolean paused;
    private volatile String status = "not polled yet";
    private volatile boolean closed;
    /** The snapshot after the last poll (read by other threads: pause, status); the poller itself is the polling thread's. */
    private volatile FabricPollSnapshot last;

    FabricPollSource(FabricPollTarget target, Diags diags, String host, Clock clock) {
        this.target = target;
        this.poller = new FabricPoller(target, diags, host);
        this.clock = clock;
    }

    /** Also hands each poll's result to {@code sink} (the watch command prints them); before {@link #start}. */
    public void onPoll(Consumer<PollResult> sink) {
        this.results = sink;
    }

    @Override
    public String kind() {
        return FabricPollSourceKind.ID;
    }

    @Override
    public String describe() {
        return target.describe();
    }

    @Override
    public String streamPrefix() {
        return poller.source() + "/";
    }

    @Override
    public LiveSnapshot readOnce(Cancellation cancel) throws LiveSourceException {
        try {
            results.accept(poller.poll(clock.instant()));
        } catch (Diags.DiagsException e) {
            throw new LiveSourceException(FabricPollSourceKind.noAccess(e));
        }
        last = poller.snapshot();
        return last;
    }

    /** One poll now, on the caller's thread (the watch command's loop); what {@link #readOnce} does. */
    public PollResult pollNow() throws LiveSourceException {
        try {
            PollResult r = poller.poll(clock.instant());
            last = poller.snapshot();
            status = last.counts() + (r.errors().isEmpty() ? "" : " · " + r.errors().size() + " failed");
            return r;
        } catch (Diags.DiagsException e) {
            throw new LiveSourceException(FabricPollSourceKind.noAccess(e));
        }
    }

    /** The series and changes gathered up to the last poll (null before the first). */
    public FabricPollSnapshot snapshot() {
        return last;
    }

    @Override
    public void start(Listener l, boolean followStreams) {
        this.listener = l;
        timer.scheduleWithFixedDelay(this::tick, 0, target.interval().toMillis(), TimeUnit.MILLISECONDS);
    }

    private void tick() {
        if (paused || closed) {
            return;
        }
        Instant started = clock.instant();
        try {
            PollResult r = poller.poll(started);
            last = poller.snapshot();
            status = last.counts() + (r.errors().isEmpty() ? "" : " · " + r.errors().get(0));
            results.accept(r);
            if (!r.errors().isEmpty()) {
                listener.error(r.errors().size() == 1 ? r.errors().get(0)
                        : r.errors().get(0) + " (and " + (r.errors().size() - 1) + " more)");
            }
            listener.snapshot(last);
        } catch (Diags.DiagsException e) {
            status = "not polled: " + FabricPollSourceKind.noAccess(e) + " (retrying every " + target.interval().toSeconds() + " s)";
            listener.error(FabricPollSourceKind.noAccess(e));
            listener.status();
        } catch (RuntimeException e) {
            status = "poll failed: " + e.getMessage();
            listener.error("fabric poll failed: " + e.getMessage());
        }
    }

    @Override
    public boolean pausable() {
        return true;
    }

    /** Stops polling; what was read stays, and {@link #resume} goes on appending to the same series. */
    @Override
    public void pause() {
        paused = true;
        FabricPollSnapshot s = last;
        status = "paused · " + (s == null ? "not polled yet" : s.counts());
        Listener l = listener;
        if (l != null) {
            l.status();
        }
    }

    /** Polls again from now on (at once, then every interval). */
    @Override
    public void resume() {
        if (!paused) {
            return;
        }
        paused = false;
        if (listener != null && !closed) {
            timer.execute(this::tick);
        }
    }

    @Override
    public boolean paused() {
        return paused;
    }

    @Override
    public String status() {
        return status;
    }

    @Override
    public void close() {
        closed = true;
        timer.shutdownNow();
        try {
            timer.awaitTermination(LiveDeadlines.STOP.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
