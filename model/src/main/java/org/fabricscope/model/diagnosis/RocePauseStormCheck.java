package org.fabricscope.model.diagnosis;

import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.FindingSpec;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;

/**
 * {@code roce-pause-storm}: a RoCE NIC that sent or received PFC pauses for so long that the link starved, judged
 * between two timed samples of mlx5's {@code ethtool -S}. mlx5's own stall detection counts
 * {@code tx_pause_storm_warning_events} (the device sent pauses for a long time) and
 * {@code tx_pause_storm_error_events} (it did so until the timeout and stopped sending pauses: drops may follow),
 * both described in the Linux kernel's mlx5 {@code counters.rst}; and the pause durations on the RoCE priority,
 * {@code rx_prioN_pause_duration} and {@code tx_prioN_pause_duration} (microseconds; N the RoCE priority,
 * {@link RocePriority}), paused for at least
 * {@link #PAUSED_SHARE} of the time between the samples.
 */
public final class RocePauseStormCheck implements FabricCheck {
    static final FindingSpec SPEC = new FindingSpec("roce-pause-storm", Layer.FABRIC, Severity.WARNING,
            "RoCE NICs in a PFC pause storm between two samples: mlx5's pause-storm events rose, or the RoCE priority was paused at least half the time",
            "mlx5 ethtool counters tx_pause_storm_warning_events / tx_pause_storm_error_events and rx/tx_prioN_pause_duration (Linux mlx5 counters.rst); the RDMA fabric manual (PFC on host and switch)");
    /** Share of the time between two samples that pauses must fill to starve the link. */
    static final double PAUSED_SHARE = 0.5;
    static final String WARNING_EVENTS = "tx_pause_storm_warning_events";
    static final String ERROR_EVENTS = "tx_pause_storm_error_events";

    @Override
    public List<FindingSpec> findings() {
        return List.of(SPEC);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        List<Finding> out = new ArrayList<>();
        for (RoceCounterRises r : RoceCounterRises.of(context)) {
            RocePriority rp = RoceCounterRises.priority(context, r.port());
            int prio = rp.priority();
            List<String> why = new ArrayList<>();
            long errors = r.increase(ERROR_EVENTS);
            long warnings = r.increase(WARNING_EVENTS);
            if (errors > 0) {
                why.add(ERROR_EVENTS + " +" + errors + " (the NIC stopped sending pauses: drops may follow)");
                r.cite(ERROR_EVENTS);
            }
            if (warnings > 0) {
                why.add(WARNING_EVENTS + " +" + warnings);
                r.cite(WARNING_EVENTS);
            }
            for (String dir : List.of("rx", "tx")) {
                String c = dir + "_prio" + prio + "_pause_duration";
                long micros = r.increase(c);
                long window = r.over().toNanos() / 1000;
                if (micros > 0 && window > 0 && micros >= PAUSED_SHARE * window) {
                    why.add(c + " +" + micros + " us: " + Math.round(100.0 * Math.min(micros, window) / window) + "% of "
                            + r.overText() + (dir.equals("rx") ? " paused by its peer" : " pausing its peer"));
                    r.cite(c);
                }
            }
            if (why.isEmpty()) {
                continue;
            }
            Severity severity = errors > 0 ? Severity.ERROR : Severity.WARNING;
            String dev = r.port().name();
            out.add(new Finding(SPEC.id(), severity, r.port().label() + ": PFC pause storm in " + r.overText() + ": " + String.join(", ", why)
                    + " (" + rp.source() + ")",
                    List.<Subject>of(Subjects.port(r.port())), r.evidence(), List.of(
                            "A pause storm stalls every flow on priority " + prio + " behind this link, and PFC spreads it to the switch "
                                    + "ports that feed it. Find who cannot drain: a receiver that is slower than its traffic (rx_out_of_buffer, "
                                    + "rx_discards_phy on " + dev + "), or a switch queue that stays full.",
                            "Pauses without ECN mean congestion is only being held, not slowed: check that ECN marking is on at the "
                                    + "switches for the RoCE queue and that DCQCN runs on the NICs (np_cnp_sent, rp_cnp_handled rising).",
                            "tx_pause_storm_error_events means the NIC's stall prevention switched pause sending off for a while: "
                                    + "lossless no longer holds and out_of_sequence will follow (ethtool -S " + dev + " | grep -E 'pause|discard')."
                    )));
        }
        return out;
    }
}
