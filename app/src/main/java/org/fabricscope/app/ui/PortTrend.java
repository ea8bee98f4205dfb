package org.fabricscope.app.ui;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.fabric.CounterSample;
import org.fabricscope.model.fabric.Port;

/**
 * The counter series a port's sparkline draws: of the error counters read at two or more times, the
 * one that grew the most (traffic counters, which grow on every healthy link, left out), with its
 * values in time order. None for a port read once or from files without times. No JavaFX here.
 */
record PortTrend(String counter, List<Instant> times, List<Long> values) {
    PortTrend {
        times = List.copyOf(times);
        values = List.copyOf(values);
    }

    /** The growth from the first to the last value (a counter that went back counts from 0 again). */
    long increase() {
        long inc = 0;
        for (int i = 1; i < values.size(); i++) {
            long a = values.get(i - 1);
            long b = values.get(i);
            inc += Long.compareUnsigned(b, a) >= 0 ? b - a : b;
        }
        return inc;
    }

    /** The port's trend: its error counter that grew the most (symbol errors where none grew), or null when it has fewer than two timed samples. */
    static PortTrend of(Port p) {
        PortTrend best = null;
        for (PortTrend cand : all(p)) {
            if (best == null || Long.compareUnsigned(cand.increase(), best.increase()) > 0
                    || best.increase() == 0 && cand.counter().equals("SymbolErrorCounter")) {
                best = cand;
            }
        }
        return best;
    }

    /**
     * Every error counter's series on the port, in the order of its last reading, each read at two or more
     * times; empty for a port read once or from files without times. Traffic counters are left out.
     */
    static List<PortTrend> all(Port p) {
        List<CounterSample> timed = p.counterSamples().stream().filter(s -> s.time() != null).toList();
        List<PortTrend> out = new ArrayList<>();
        if (timed.size() < 2) {
            return out;
        }
        for (String counter : timed.get(timed.size() - 1).counters().keySet()) {
            if (counter.matches("Port(Unicast|Multicast)?(Xmit|Rcv)(Data|Pkts)")) {
                continue;
            }
            List<Instant> t = new ArrayList<>();
            List<Long> v = new ArrayList<>();
            for (CounterSample s : timed) {
                Map<String, Long> c = s.counters();
                if (c.containsKey(counter)) {
                    t.add(s.time());
                    v.add(c.get(counter));
                }
            }
            if (v.size() >= 2) {
                out.add(new PortTrend(counter, t, v));
            }
        }
        return out;
    }
}
