package org.fabricscope.model.training;

import org.fabricscope.model.core.Evidence;

/**
 * How long one training step took, or how fast it ran, as a trainer's own log line says it (Megatron-LM,
 * DeepSpeed, Hugging Face Trainer, PyTorch Lightning, torchtitan, the PyTorch ImageNet example, nanoGPT,
 * plain {@code step N ... time X ms} prints; docs/formats.md, "Step times", cites each format's source).
 * Nothing is made up: a line that gives a rate in steps ({@code it/s}, {@code s/it}) gives a step time;
 * one that gives samples or tokens per second keeps that as {@code throughput} with its unit and no step time.
 *
 * @param source         the file or stream the line came from
 * @param line           its 1-based line number
 * @param host           the host that printed it: the pod of a {@code kubectl logs --prefix} tag, else the one host
 *                       the NCCL lines of the same source name; "" when unknown, and for a line about another rank
 *                       (Megatron's {@code times across ranks} block lists every rank's time on the last rank)
 * @param rank           the global rank: a {@code [rankN]:} tag (torchrun), DeepSpeed's {@code [Rank N]},
 *                       OpenMPI's {@code [job,N]<stdout>:}, or the rank a Megatron timer block names; -1 when unknown
 * @param localRank      the local rank of torchrun's default {@code [defaultN]:} tag ({@code [role][local rank]}), -1
 *                       when none; it is not a global rank: on several nodes each has its local rank 0
 * @param step           the step (iteration) number the line reports; -1 when it names none (DeepSpeed's timer
 *                       line, the Hugging Face run summary, whose time is the average over the run)
 * @param stepMs         milliseconds per step; NaN when the line gives none
 * @param throughput     the rate the line gives besides, in {@code throughputUnit}; NaN when none
 * @param throughputUnit {@code samples/s}, {@code tokens/s} or {@code TFLOP/s/GPU}; "" when no throughput
 * @param epochMillis    when the line was printed, from its own stamp (a stamp without a zone read as UTC); -1 when
 *                       the line has none
 * @param format         the trainer format: {@code megatron}, {@code megatron-timers} (one rank's
 *                       {@code forward-backward} timer), {@code megatron-timers-min} / {@code megatron-timers-max}
 *                       (the fastest / slowest rank's, rank -1), {@code deepspeed}, {@code deepspeed-timers},
 *                       {@code hf-trainer}, {@code hf-trainer-summary}, {@code tqdm}, {@code lightning},
 *                       {@code torchtitan}, {@code pytorch-examples}, {@code nanogpt}, {@code plain}; times of
 *                       different formats measure different spans and are compared only within one format
 * @param evidence       the line
 */
public record StepTime(String source, int line, String host, int rank, int localRank, long step, double stepMs,
                       double throughput, String throughputUnit, long epochMillis, String format, Evidence evidence) {
    public StepTime {
        source = source == null ? "" : source;
        host = host == null ? "" : host;
        throughputUnit = throughputUnit == null ? "" : throughputUnit;
        format = format == null ? "" : format;
    }

    /** A step time without a local rank. */
    public StepTime(String source, int line, String host, int rank, long step, double stepMs, double throughput,
                    String throughputUnit, long epochMillis, String format, Evidence evidence) {
        this(source, line, host, rank, -1, step, stepMs, throughput, throughputUnit, epochMillis, format, evidence);
    }

    /** Whether the line gave a step time. */
    public boolean hasStepMs() {
        return Double.isFinite(stepMs);
    }

    /** Whether the line gave a throughput. */
    public boolean hasThroughput() {
        return Double.isFinite(throughput);
    }

    /** The same step time as printed by {@code host}. */
    public StepTime withHost(String host) {
        return new StepTime(source, line, host, rank, localRank, step, stepMs, throughput, throughputUnit, epochMillis,
                format, evidence);
    }
}
