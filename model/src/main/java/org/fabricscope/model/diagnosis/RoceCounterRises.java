package org.fabricscope.model.diagnosis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.fabric.CounterRate;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Port;

/**
 * How a host NIC's RoCE counters moved between its first and last timed sample, for the checks that judge
 * rises ({@code roce-pause-storm}, {@code roce-ecn-inactive}): a counter read once, or not read, did not
 * "stay flat", it is unknown ({@link #increase} gives -1), so no rule concludes from a counter it never saw move.
 */
final class RoceCounterRises {
    private final Port port;
    private final List<Evidence> evidence = new ArrayList<>();
    private Duration over;

    private RoceCounterRises(Port port) {
        this.port = port;
    }

    /** The host NICs with two or more samples, each with its rises. */
    static List<RoceCounterRises> of(CheckContext context) {
        List<RoceCounterRises> out = new ArrayList<>();
        for (FabricNode n : context.model().fabric().nodes().values()) {
            if (n.isSwitch()) {
                continue;
            }
            for (Port p : n.ports()) {
                if (p.name() != null && p.counterSamples().size() >= 2) {
                    out.add(new RoceCounterRises(p));
                }
            }
        }
        return out;
    }

    Port port() {
        return port;
    }

    /** The priority this NIC's RoCE traffic uses ({@link RocePriority}), and where that came from. */
    static RocePriority priority(CheckContext context, Port port) {
        FabricNode n = port.node();
        return RocePriority.of(context.model(), context.ranks(), n == null || n.host() == null ? null : n.host().name(), port.qos());
    }

    /** The counter's increase over the samples, or -1 when it was not read in two of them. */
    long increase(String counter) {
        CounterRate r = port.counterRate(counter);
        if (r == null || r.samples() < 2) {
            return -1;
        }
        if (over == null || r.over().compareTo(over) > 0) {
            over = r.over();
        }
        return r.increase();
    }

    /** Cites the counter's last reading among the evidence of a finding. */
    void cite(String counter) {
        Evidence e = port.counterEvidence(counter);
        if (e != null && !evidence.contains(e)) {
            evidence.add(e);
        }
    }

    List<Evidence> evidence() {
        return List.copyOf(evidence);
    }

    /** The longest time between first and last sample of the counters asked for; zero before any. */
    Duration over() {
        return over == null ? Duration.ZERO : over;
    }

    /** {@code 5 min}, {@code 90 s}. */
    String overText() {
        long s = over().getSeconds();
        return s < 120 ? s + " s" : (s / 60) + " min";
    }
}
