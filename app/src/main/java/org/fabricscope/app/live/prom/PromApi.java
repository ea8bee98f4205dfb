package org.fabricscope.app.live.prom;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The read-only Prometheus HTTP API a read uses: instant and range queries, series, label names and
 * build information. Every call is bounded ({@link PromHttp}); a range query's step is floored at
 * {@link PromLimits#MIN_STEP} and raised so that no series has more than {@link PromLimits#MAX_POINTS}
 * points. Works against Prometheus, VictoriaMetrics, Thanos and Mimir (the same API).
 */
public final class PromApi implements AutoCloseable {
    private final PromHttp http;
    private final PromTarget target;

    /** Opens a client for {@code target}; every request within {@code perRequest}, all of them before {@code deadline}. */
    public PromApi(PromTarget target, Duration perRequest, Instant deadline) throws PromException {
        this.target = target;
        this.http = new PromHttp(target, perRequest, deadline);
    }

    PromApi(PromTarget target, Duration perRequest, Instant deadline, int maxReplyBytes) throws PromException {
        this.target = target;
        this.http = new PromHttp(target, perRequest, deadline, maxReplyBytes);
    }

    public PromTarget target() {
        return target;
    }

    /** {@code version}, {@code revision}, ... of the server; empty when it does not serve build information (404). */
    public Map<String, String> buildInfo() throws PromException {
        PromHttp.Reply r = http.get("api/v1/status/buildinfo", Map.of());
        if (r.status() == 404) {
            return Map.of();
        }
        return PromReply.fields(r);
    }

    /** An instant query at {@code time}. */
    List<PromSeries> query(String expr, Instant time) throws PromException {
        return PromReply.series(http.get("api/v1/query", PromHttp.params("query", expr, "time", PromTimes.seconds(time))),
                PromLimits.MAX_SERIES);
    }

    /** A range query from {@code start} to {@code end} at {@link #step}'s step. */
    List<PromSeries> queryRange(String expr, Instant start, Instant end, Duration step) throws PromException {
        return PromReply.series(http.get("api/v1/query_range", PromHttp.params("query", expr, "start",
                PromTimes.seconds(start), "end", PromTimes.seconds(end), "step", PromTimes.step(step))), PromLimits.MAX_SERIES);
    }

    /** The series matching {@code match} between {@code start} and {@code end} (labels only). */
    List<PromSeries> series(String match, Instant start, Instant end) throws PromException {
        PromHttp.Reply r = http.get("api/v1/series", PromHttp.params("match[]", match, "start", PromTimes.seconds(start),
                "end", PromTimes.seconds(end)));
        return PromReply.labelSets(r, PromLimits.MAX_SERIES);
    }

    /** Label names known to the server. */
    List<String> labels() throws PromException {
        return PromReply.strings(http.get("api/v1/labels", Map.of()), PromLimits.MAX_SERIES);
    }

    /**
     * The step of a range query over {@code window}: {@link PromLimits#WINDOW_SAMPLES} samples, never under
     * {@link PromLimits#MIN_STEP}, never more than {@link PromLimits#MAX_POINTS} points.
     */
    public static Duration step(Duration window) {
        long ms = window.toMillis();
        long step = Math.max(PromLimits.MIN_STEP.toMillis(), (ms + PromLimits.WINDOW_SAMPLES - 1) / PromLimits.WINDOW_SAMPLES);
        step = Math.max(step, (ms + PromLimits.MAX_POINTS - 2) / (PromLimits.MAX_POINTS - 1));
        return Duration.ofSeconds((step + 999) / 1000);
    }

    @Override
    public void close() {
        http.close();
    }
}
