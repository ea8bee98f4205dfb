package org.fabricscope.app.live.prom;

import java.time.Instant;
import java.util.Map;

/**
 * One series of a query's reply: its labels ({@code __name__} included) and its samples in time order
 * (an instant query's one sample, a range query's one per step). Values are Prometheus' floats.
 */
record PromSeries(Map<String, String> labels, long[] millis, double[] values) {
    PromSeries {
        labels = org.fabricscope.model.core.OrderedMaps.copyOf(labels);
    }

    String name() {
        return labels.getOrDefault("__name__", "");
    }

    String label(String name) {
        return labels.getOrDefault(name, "");
    }

    int size() {
        return millis.length;
    }

    Instant time(int i) {
        return Instant.ofEpochMilli(millis[i]);
    }
}
