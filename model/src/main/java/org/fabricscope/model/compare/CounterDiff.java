package org.fabricscope.model.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.fabric.CounterSample;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Port;

/**
 * The counters' differences: for each port that either capture read counters of (matched by node GUID and port
 * number), each counter whose value differs or that only one capture read. A rate per hour is given when both
 * captures' last readings of the port carry times and the second is later.
 */
final class CounterDiff {
    private CounterDiff() {
    }

    static List<CounterDelta> compare(FabricModel before, FabricModel after) {
        List<CounterDelta> out = new ArrayList<>();
        for (FabricNode n : after.nodes()) {
            FabricNode o = before.node(n.guid());
            for (Port p : n.ports()) {
                Port q = o == null ? null : o.port(p.number());
                port(q, p, out);
            }
        }
        for (FabricNode o : before.nodes()) {
            FabricNode n = after.node(o.guid());
            for (Port q : o.ports()) {
                if (n == null || n.port(q.number()) == null) {
                    port(q, null, out);
                }
            }
        }
        return out;
    }

    private static void port(Port was, Port is, List<CounterDelta> out) {
        Map<String, Long> b = was == null ? Map.of() : was.counters();
        Map<String, Long> a = is == null ? Map.of() : is.counters();
        if (b.isEmpty() && a.isEmpty()) {
            return;
        }
        Port named = is != null ? is : was;
        java.time.Duration between = between(was, is);
        for (String c : new TreeSet<>(union(b, a))) {
            Long x = b.get(c);
            Long y = a.get(c);
            if (x != null && x.equals(y)) {
                continue;
            }
            long delta = 0;
            boolean reset = false;
            if (x != null && y != null) {
                reset = Long.compareUnsigned(y, x) < 0;
                delta = reset ? y : y - x;
            }
            Double perHour = x != null && y != null && between != null
                    ? delta * 3_600_000.0 / Math.max(1, between.toMillis()) : null;
            out.add(new CounterDelta(named.label(), named.node().guid(), named.number(), c, x, y, delta, reset, perHour));
        }
    }

    private static java.util.Set<String> union(Map<String, Long> b, Map<String, Long> a) {
        java.util.Set<String> s = new java.util.HashSet<>(b.keySet());
        s.addAll(a.keySet());
        return s;
    }

    /** The time between the two captures' last readings of the port, or null when either has none or not later. */
    private static java.time.Duration between(Port was, Port is) {
        if (was == null || is == null || was.counterSamples().isEmpty() || is.counterSamples().isEmpty()) {
            return null;
        }
        CounterSample x = was.counterSamples().get(was.counterSamples().size() - 1);
        CounterSample y = is.counterSamples().get(is.counterSamples().size() - 1);
        if (x.time() == null || y.time() == null || !y.time().isAfter(x.time())) {
            return null;
        }
        return java.time.Duration.between(x.time(), y.time());
    }
}
