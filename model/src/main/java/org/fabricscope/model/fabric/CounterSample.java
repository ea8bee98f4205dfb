package org.fabricscope.model.fabric;

import java.time.Instant;
import java.util.Map;

import org.fabricscope.model.core.Evidence;

/**
 * One reading of a port's PMA counters: when (null when the file did not say, as perfquery's output
 * does not), the counters read then, and where. A port's counters are a series of these, in time
 * order; a file read once is the one-sample case (decision 0013).
 */
public record CounterSample(Instant time, Map<String, Long> counters, Evidence evidence) {
    public CounterSample {
        counters = java.util.Collections.unmodifiableMap(counters);
    }
}
