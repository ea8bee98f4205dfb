package org.fabricscope.app.live.prom;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.model.core.Diagnostic;

/**
 * One read of the incident window: a range query per metric name of each exporter (node_exporter's
 * InfiniBand collector, infiniband-exporter, DCGM exporter, NCCL Inspector) from {@code at - window} to
 * {@code at} at {@link PromApi#step}, {@link #PARALLEL} at a time. One query per name keeps each reply a
 * thirteenth of a port's counters (5,000 ports: about 13 MB each, not 165 MB in one). A kind whose queries
 * fail is a failure of that kind, and the others are still read; a server that cannot be reached at all
 * fails the read with one line.
 */
final class PromRead {
    /** The kinds of series read, in order, as {@link PromSnapshot#failures()} names them. */
    static final List<String> KINDS = List.of("node_exporter", "infiniband-exporter", "dcgm", "nccl-inspector");
    /** Queries in flight at once. */
    static final int PARALLEL = 4;

    private PromRead() {
    }

    /** The metric names each kind is read by, one query each. */
    static Map<String, List<String>> queries() {
        Map<String, List<String>> q = new LinkedHashMap<>();
        q.put("node_exporter", List.copyOf(PromMetrics.NODE_EXPORTER.keySet()));
        q.put("infiniband-exporter", List.copyOf(PromMetrics.IB_EXPORTER.keySet()));
        List<String> dcgm = new ArrayList<>(PromMetrics.DCGM_COUNTERS);
        dcgm.add(0, PromMetrics.DCGM_XID);
        q.put("dcgm", List.copyOf(dcgm));
        q.put("nccl-inspector", PromMetrics.NCCL_BUSBW);
        return q;
    }

    private record Asked(String kind, String name, Future<List<PromSeries>> reply) {
    }

    /** Reads the target's window ending at its {@code at} (or {@code now}). */
    static PromSnapshot read(PromApi api, Instant now, Cancellation cancel) throws PromException {
        return read(api, now, cancel, null);
    }

    /**
     * Reads the target's window ending at its {@code at} (or {@code now}); where {@code previous} is the last
     * read of the same window ending earlier, only the steps since are asked for ({@link PromWindowUpdate}).
     */
    static PromSnapshot read(PromApi api, Instant now, Cancellation cancel, PromSnapshot previous) throws PromException {
        PromTarget t = api.target();
        Instant end = t.at() != null ? t.at() : now;
        Instant start = end.minus(t.window());
        Duration step = PromApi.step(t.window());
        Instant resume = t.at() != null ? null : PromWindowUpdate.resumeAt(previous, start, end, step);
        Instant from = resume != null ? resume : start;
        Map<String, String> version = api.buildInfo(); // the connection check: unreachable, refused, auth fail here
        Map<String, List<PromSeries>> got = new LinkedHashMap<>();
        Map<String, String> failures = new LinkedHashMap<>();
        List<Diagnostic> notes = new ArrayList<>();
        PromException first = null;
        int answered = 0;
        ExecutorService pool = Executors.newFixedThreadPool(PARALLEL, r -> {
            Thread th = new Thread(r, "prometheus-query");
            th.setDaemon(true);
            return th;
        });
        try {
            List<Asked> asked = new ArrayList<>();
            for (Map.Entry<String, List<String>> q : queries().entrySet()) {
                got.put(q.getKey(), new ArrayList<>());
                if (from.isAfter(end)) {
                    continue; // read again within a step: nothing new to ask
                }
                for (String name : q.getValue()) {
                    asked.add(new Asked(q.getKey(), name, pool.submit(() -> api.queryRange(name, from, end, step))));
                }
            }
            for (Asked a : asked) {
                if (cancel.isCancelled()) {
                    throw new PromException(t.base() + ": cancelled");
                }
                try {
                    got.get(a.kind()).addAll(a.reply().get());
                    answered++;
                } catch (ExecutionException e) {
                    PromException pe = e.getCause() instanceof PromException p ? p
                            : new PromException(t.base() + ": " + a.name() + ": " + PromHttp.oneLine(String.valueOf(e.getCause())));
                    first = first == null ? pe : first;
                    if (failures.putIfAbsent(a.kind(), pe.getMessage()) == null) {
                        notes.add(Diagnostic.warning(t.base(), 0, a.kind() + " series not read: " + pe.getMessage()));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new PromException(t.base() + ": interrupted");
                }
            }
        } finally {
            pool.shutdownNow();
        }
        if (answered == 0 && first != null) {
            throw first; // not one query answered: the read failed, in the first failure's words
        }
        if (resume != null) {
            if (!failures.isEmpty()) {
                return read(api, now, cancel, null); // what failed now cannot be pieced together: read it all
            }
            got = PromWindowUpdate.merge(previous, got, start);
        }
        int total = got.values().stream().mapToInt(List::size).sum();
        if (total == 0) {
            notes.add(Diagnostic.warning(t.base(), 0, "no InfiniBand, DCGM or NCCL Inspector series between " + start + " and "
                    + end + " (node_infiniband_*, infiniband_*_total, DCGM_FI_DEV_*, nccl_*_bus_bandwidth_gbs); "
                    + "check --at and --window, and that the exporters are scraped"));
        }
        String server = version.isEmpty() ? "" : " (version " + version.getOrDefault("version", "?") + ")";
        notes.add(Diagnostic.info(t.base(), 0, "read " + total + " series from " + t.base() + server + " between " + start
                + " and " + end + " at a " + step.toSeconds() + " s step"
                + (resume != null ? " (the samples since " + from + " asked for; the earlier ones kept from the last read)" : "")));
        return new PromSnapshot(t.base(), start, end, step, got, failures, notes, now);
    }
}
