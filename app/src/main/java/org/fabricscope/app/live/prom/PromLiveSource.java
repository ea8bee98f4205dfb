package org.fabricscope.app.live.prom;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.fabricscope.app.live.source.LiveSnapshot;
import org.fabricscope.app.live.source.LiveSource;
import org.fabricscope.importers.core.Cancellation;

/**
 * A Prometheus server as a live source: {@link #readOnce} reads the incident window (the CLI); a started
 * source reads it again every {@link #POLL} while the window ends now (a window ending at a fixed
 * {@code --at} is read once), each read within {@link PromLimits#ONE_SHOT}. After the first, a read asks only
 * for the steps since the last one and keeps the earlier samples ({@link PromWindowUpdate}).
 */
final class PromLiveSource implements LiveSource {
    /** How often a started source reads a window that ends now. */
    static final Duration POLL = Duration.ofSeconds(30);

    private final PromTarget target;
    private volatile ScheduledExecutorService poller;
    private volatile String status = "not read yet";

    PromLiveSource(PromTarget target) {
        this.target = target;
    }

    @Override
    public String kind() {
        return PromSourceKind.ID;
    }

    @Override
    public String describe() {
        return target.describe();
    }

    @Override
    public String streamPrefix() {
        return target.base() + "/";
    }

    @Override
    public LiveSnapshot readOnce(Cancellation cancel) throws PromException {
        return read(cancel, null);
    }

    /** One read; after {@code previous} (a started source's last read), only the steps since it are asked for. */
    private PromSnapshot read(Cancellation cancel, PromSnapshot previous) throws PromException {
        Instant deadline = Instant.now().plus(PromLimits.ONE_SHOT);
        try (PromApi api = new PromApi(target, PromLimits.REQUEST, deadline)) {
            PromSnapshot s = PromRead.read(api, Instant.now(), cancel, previous);
            status = s.counts();
            return s;
        } catch (PromException e) {
            status = e.getMessage();
            throw e;
        }
    }

    @Override
    public void start(Listener listener, boolean followStreams) {
        if (poller != null) {
            throw new IllegalStateException("started twice");
        }
        ScheduledExecutorService p = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "prometheus-poll " + target.base());
            t.setDaemon(true);
            return t;
        });
        poller = p;
        PromSnapshot[] last = new PromSnapshot[1]; // the poller thread's own: read and written only there
        Runnable read = () -> {
            try {
                last[0] = read(Cancellation.NEVER, last[0]);
                listener.snapshot(last[0]);
            } catch (PromException e) {
                last[0] = null; // the next read is a whole one
                listener.error(e.getMessage());
            }
            listener.status();
        };
        if (target.at() != null) {
            p.execute(read);
        } else {
            p.scheduleWithFixedDelay(read, 0, POLL.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public String status() {
        return status;
    }

    @Override
    public void close() {
        ScheduledExecutorService p = poller;
        if (p != null) {
            p.shutdownNow();
        }
    }
}
