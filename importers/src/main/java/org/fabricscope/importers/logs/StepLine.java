package org.fabricscope.importers.logs;

/**
 * What one trainer's line says about a step, before it is placed (source, line, host): see
 * {@link org.fabricscope.model.training.StepTime} for the fields it shares.
 *
 * @param pod   the pod of a {@code kubectl logs --prefix} tag, "" when none
 * @param total the step count a progress bar counts to ({@code 450/1000}: 1000); -1 when the line shows none
 */
record StepLine(String format, int rank, int localRank, String pod, long step, long total, double stepMs,
                double throughput, String throughputUnit, long epochMillis) {
    static final String SAMPLES = "samples/s";
    static final String TOKENS = "tokens/s";
    static final String TFLOPS = "TFLOP/s/GPU";

    /** A line with a step time (and, where it gives one, a throughput). */
    static StepLine of(StepPrefix p, String format, long step, long total, double stepMs, double throughput, String unit) {
        return new StepLine(format, p.rank, p.localRank, p.pod, step, total, stepMs, throughput, unit == null ? "" : unit,
                p.epochMillis());
    }

    StepLine withFormat(String f) {
        return new StepLine(f, rank, localRank, pod, step, total, stepMs, throughput, throughputUnit, epochMillis);
    }

    StepLine withRank(int r) {
        return new StepLine(format, r, localRank, pod, step, total, stepMs, throughput, throughputUnit, epochMillis);
    }
}
