package org.fabricscope.app.live.prom;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.app.live.source.LiveSnapshot;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;

/**
 * What one read of a Prometheus server's incident window holds: the series of each kind
 * ({@link PromRead#KINDS}), immutable. {@link #contribute} adds the fabric infiniband-exporter describes,
 * every port's counter samples with their times ({@link PromFabric}), and link flaps, Xids and rising GPU
 * error counters as timeline events ({@link PromEvents}), each citing its query and time.
 */
public record PromSnapshot(String source, Instant start, Instant end, Duration step, Map<String, List<PromSeries>> series,
                           Map<String, String> failures, List<Diagnostic> diagnostics, Instant taken) implements LiveSnapshot {
    public PromSnapshot {
        Map<String, List<PromSeries>> copy = new LinkedHashMap<>();
        series.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        series = Collections.unmodifiableMap(copy);
        failures = Collections.unmodifiableMap(new LinkedHashMap<>(failures));
        diagnostics = List.copyOf(diagnostics);
    }

    List<PromSeries> of(String kind) {
        return series.getOrDefault(kind, List.of());
    }

    @Override
    public void contribute(FabricModelBuilder builder) {
        if (series.values().stream().anyMatch(l -> !l.isEmpty())) {
            builder.source(source);
        }
        PromFabric.contribute(this, builder);
        PromEvents.contribute(this, builder);
    }

    @Override
    public boolean disconnected() {
        return failures.size() == PromRead.KINDS.size();
    }

    /** {@code 1,024 port series, 64 GPU series, 8 NCCL series}. */
    @Override
    public String counts() {
        return String.format(java.util.Locale.ROOT, "%,d node_exporter, %,d infiniband-exporter, %,d DCGM, %,d NCCL Inspector series",
                of("node_exporter").size(), of("infiniband-exporter").size(), of("dcgm").size(), of("nccl-inspector").size());
    }
}
