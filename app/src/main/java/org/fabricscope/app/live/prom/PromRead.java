package org.fabricscope.app.live.prom;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.model.core.Diagnostic;

/**
 * One read of the incident window: a range query per exporter (node_exporter's InfiniBand collector,
 * infiniband-exporter, DCGM exporter, NCCL Inspector) from {@code at - window} to {@code at} at
 * {@link PromApi#step}. A query that fails is a failure of its kind, and the others are still read; a
 * server that cannot be reached at all fails the read with one line.
 */
final class PromRead {
    /** The kinds of series read, in order, as {@link PromSnapshot#failures()} names them. */
    static final List<String> KINDS = List.of("node_exporter", "infiniband-exporter", "dcgm", "nccl-inspector");

    private PromRead() {
    }

    /** The selector each kind is read with. */
    static Map<String, String> queries() {
        Map<String, String> q = new LinkedHashMap<>();
        q.put("node_exporter", PromMetrics.selector(PromMetrics.NODE_EXPORTER.keySet()));
        q.put("infiniband-exporter", PromMetrics.selector(PromMetrics.IB_EXPORTER.keySet()));
        List<String> dcgm = new ArrayList<>(PromMetrics.DCGM_COUNTERS);
        dcgm.add(0, PromMetrics.DCGM_XID);
        q.put("dcgm", PromMetrics.selector(dcgm));
        q.put("nccl-inspector", PromMetrics.selector(PromMetrics.NCCL_BUSBW));
        return q;
    }

    /** Reads the target's window ending at its {@code at} (or {@code now}). */
    static PromSnapshot read(PromApi api, Instant now, Cancellation cancel) throws PromException {
        PromTarget t = api.target();
        Instant end = t.at() != null ? t.at() : now;
        Instant start = end.minus(t.window());
        Duration step = PromApi.step(t.window());
        Map<String, List<PromSeries>> got = new LinkedHashMap<>();
        Map<String, String> failures = new LinkedHashMap<>();
        List<Diagnostic> notes = new ArrayList<>();
        Map<String, String> version = api.buildInfo(); // the connection check: unreachable, refused, auth fail here
        PromException first = null;
        for (Map.Entry<String, String> q : queries().entrySet()) {
            if (cancel.isCancelled()) {
                throw new PromException(t.base() + ": cancelled");
            }
            try {
                got.put(q.getKey(), api.queryRange(q.getValue(), start, end, step));
            } catch (PromException e) {
                failures.put(q.getKey(), e.getMessage());
                notes.add(Diagnostic.warning(t.base(), 0, q.getKey() + " series not read: " + e.getMessage()));
                first = first == null ? e : first;
                got.put(q.getKey(), List.of());
            }
        }
        if (failures.size() == KINDS.size()) {
            throw first;
        }
        int total = got.values().stream().mapToInt(List::size).sum();
        if (total == 0) {
            notes.add(Diagnostic.warning(t.base(), 0, "no InfiniBand, DCGM or NCCL Inspector series between " + start + " and "
                    + end + " (node_infiniband_*, infiniband_*_total, DCGM_FI_DEV_*, nccl_*_bus_bandwidth_gbs); "
                    + "check --at and --window, and that the exporters are scraped"));
        }
        String server = version.isEmpty() ? "" : " (version " + version.getOrDefault("version", "?") + ")";
        notes.add(Diagnostic.info(t.base(), 0, "read " + total + " series from " + t.base() + server + " between " + start
                + " and " + end + " at a " + step.toSeconds() + " s step"));
        return new PromSnapshot(t.base(), start, end, step, got, failures, notes, now);
    }
}
