package org.fabricscope.model.slowness;

import java.util.List;

import org.fabricscope.model.core.Evidence;

/**
 * One rank that holds the others back, and how: what {@link Stragglers} found in the flight recorder's
 * timings or in the ranks' step times.
 *
 * @param rank           the global rank (the flight recorder dump's rank, or the rank a log line was tagged with);
 *                       -1 when the evidence names a process but not its rank
 * @param host           where it ran as far as the evidence says (pod or host name), "" when unknown
 * @param processGroup   the process group whose collectives were compared ("" for step times)
 * @param kind           where the time goes
 * @param compared       how many collectives (or steps) were compared
 * @param worst          in how many of them this rank was the one the others waited for; 0 when the evidence gives
 *                       means over the run rather than each collective (NCCL Inspector)
 * @param counted        what {@code compared} counts: "collectives" or "steps"
 * @param lateMs         the median delay it caused per collective (or per step), in milliseconds
 * @param stepMs         the median length of a step, in milliseconds; NaN when unknown
 * @param perStep        collectives per step (the period of the collectives' sequence); 0 when unknown
 * @param othersWaitMs   how much longer the other ranks' kernels ran per step than this rank's (median over the steps,
 *                       with {@code TORCH_NCCL_ENABLE_TIMING}); NaN without timing
 * @param sameClock      whether a punctual rank ran on the same host, so that one clock measured both
 * @param confirmed      whether the delay is seen from two sides: one clock, or the others' waiting
 * @param basis          what was compared, in words ("flight recorder dumps of 4 ranks, 240 allreduces")
 * @param evidence       the dumps or lines read
 */
public record Straggler(int rank, String host, String processGroup, Kind kind, int compared, int worst, String counted,
                        double lateMs,
                        double stepMs, int perStep, double othersWaitMs, boolean sameClock, boolean confirmed,
                        String basis, List<Evidence> evidence) {
    public Straggler {
        host = host == null ? "" : host;
        counted = counted == null ? "collectives" : counted;
        processGroup = processGroup == null ? "" : processGroup;
        basis = basis == null ? "" : basis;
        evidence = List.copyOf(evidence);
    }

    /** Where a straggler's time goes. */
    public enum Kind {
        /**
         * Late to enqueue its collectives: slow before them, on the CPU side of the step (input pipeline,
         * Python, the host), or waiting there on its own GPU.
         */
        LATE_TO_ENQUEUE("slow before its collectives: it enqueues them late (its input pipeline, its compute or its host)"),
        /** Enqueues on time, but its GPU reaches the collective late: the GPU work queued before it is slow. */
        LATE_ON_GPU("slow before its collectives on its GPU: it enqueues them on time, but its GPU starts them late (its kernels or its GPU)"),
        /** Enqueues and starts on time, but its collectives take longest: slow inside them (its links). */
        SLOW_INSIDE("slow inside its collectives: it enqueues them on time but they take longest (its links: NVLink, PCIe, NIC)"),
        /** Its steps take longest by its own step times; where the time goes is not in the evidence. */
        SLOW_STEPS("its steps take longest (by the step times it logged)");

        private final String words;

        Kind(String words) {
            this.words = words;
        }

        /** The kind, as a user reads it. */
        public String words() {
            return words;
        }

        /** Whether the time goes before the collectives (compute, input, GPU) rather than inside them. */
        public boolean before() {
            return this == LATE_TO_ENQUEUE || this == LATE_ON_GPU;
        }
    }

    /** The delay as a share of the step (0..1), NaN when the step's length is unknown. */
    public double share() {
        return Double.isFinite(stepMs) && stepMs > 0 ? lateMs / stepMs : Double.NaN;
    }
}
