package org.fabricscope.importers.logs;

import java.util.Optional;

/**
 * The step time one trainer's line reports, read by hand: no regular expression, and a line that holds
 * none of the formats' words ({@link #mayHold}: a few {@code indexOf}) costs nothing more. The formats,
 * each as its source prints it (docs/formats.md, "Step times"):
 * <ul>
 * <li>Megatron-LM {@code megatron/training/training.py} {@code training_log} (core_v0.19.0, and Megatron-DeepSpeed's
 * older form): {@code  [2024-05-01 10:00:00.123456] iteration       10/     100 | consumed samples: ... |
 * elapsed time per iteration (ms): 1234.5 | throughput per GPU (TFLOP/s/GPU): 123.4 | ...};</li>
 * <li>DeepSpeed {@code deepspeed/utils/timer.py} (v0.19.5) {@code ThroughputTimer.stop}: {@code epoch=0/micro_step=10/
 * global_step=10, RunningAvgSamplesPerSec=..., CurrSamplesPerSec=..., MemAllocated=...GB, MaxMemAllocated=...GB}
 * (a throughput in samples/s: the batch behind it is not printed), and {@code SynchronizedWallClockTimer.log} as the
 * engine calls it: {@code [Rank 0] time (ms) | fwd: ... | bwd: ... | bwd_inner: ... | bwd_allreduce: ... | step: ...}
 * (the step time is fwd + bwd + step; the line names no step);</li>
 * <li>torchtitan {@code torchtitan/components/metrics.py} (v0.2.2) {@code MetricsProcessor.log}: {@code step: 10
 * loss:  7.8000  grad_norm: ...  memory: 30.12GiB(31.71%)  tps: 5,432  tflops: 123.40  mfu: 12.50%}, coloured
 * (tokens per second per device: a throughput);</li>
 * <li>PyTorch examples {@code imagenet/main.py} (commit 77f55b9) {@code ProgressMeter.display}: {@code Epoch: [0][ 10/5005]
 * \tTime  0.345 ( 0.512)\tData ...} (the batch's seconds; the step counts on over epochs: epoch x batches + batch);</li>
 * <li>nanoGPT {@code train.py} (commit 3adf61e): {@code iter 100: loss 4.2345, time 123.45ms, mfu 30.12%};</li>
 * <li>Hugging Face Trainer's run summary ({@code trainer_utils.py speed_metrics}, printed by
 * {@code trainer_callback.py ProgressCallback.on_log}): {@code {'train_runtime': 123.4, 'train_samples_per_second': 32.4,
 * 'train_steps_per_second': 4.05, ...}} (the average step over the run, no step number; values quoted or not);</li>
 * <li>tqdm progress bars ({@link TqdmStepLines}: Hugging Face Trainer, PyTorch Lightning) and plain
 * {@code step N ... time X ms} prints ({@link PlainStepLines}).</li>
 * </ul>
 * Megatron's {@code time across ranks} timer block spans lines: {@link MegatronTimers} reads it.
 */
final class StepTimeLines {
    private static final String MEGATRON = "elapsed time per iteration (ms):";
    private static final String DS_RATE = "CurrSamplesPerSec=";
    private static final String DS_TIMERS = "time (ms) | ";

    private StepTimeLines() {
    }

    /** Whether the line may be a step line; false for most lines of a log, cheaply. */
    static boolean mayHold(String l) {
        return l.indexOf("ime") >= 0 || l.indexOf("it/s") >= 0 || l.indexOf("s/it") >= 0 || l.indexOf("PerSec=") >= 0
                || l.indexOf("tps:") >= 0;
    }

    /** The step the line reports, with the rank and stamp its prefix gives. */
    static Optional<StepLine> parse(CharSequence line) {
        String l = line.toString();
        if (!mayHold(l)) {
            return Optional.empty();
        }
        return Optional.ofNullable(parse(StepPrefix.of(l)));
    }

    /** The step a line whose prefix is read reports, or null. */
    static StepLine parse(StepPrefix p) {
        String l = p.text;
        if (l.indexOf(" NCCL ") >= 0) {
            return null; // NCCL's own lines are read by the NCCL parser; their words are not a trainer's
        }
        if (l.indexOf(MEGATRON) >= 0) {
            return megatron(p, l);
        }
        if (l.indexOf(DS_RATE) >= 0) {
            return deepSpeedRate(p, l);
        }
        int t = l.indexOf(DS_TIMERS);
        if (t >= 0) {
            return deepSpeedTimers(p, l, t);
        }
        if (l.indexOf("tps: ") >= 0) {
            return torchtitan(p, l);
        }
        if (l.indexOf("train_runtime") >= 0) {
            return hfSummary(p, l);
        }
        if (l.indexOf("%|") >= 0) {
            return TqdmStepLines.parse(p);
        }
        if (p.bodyStartsWith("Epoch: [")) {
            return pytorchExamples(p);
        }
        if (p.bodyStartsWith("iter ")) {
            StepLine n = nanoGpt(p);
            if (n != null) {
                return n;
            }
        }
        return PlainStepLines.parse(p);
    }

    /** {@code  iteration       10/     100 | ... | elapsed time per iteration (ms): 1234.5 | ...}. */
    private static StepLine megatron(StepPrefix p, String l) {
        int it = l.indexOf("iteration ", p.body);
        if (it < 0 || it > 0 && Character.isLetter(l.charAt(it - 1))) {
            return null;
        }
        StepCursor c = new StepCursor(l, it + 10);
        c.spaces();
        long step = c.integer();
        c.lit("/");
        c.spaces();
        long total = c.integer();
        c.spaces();
        c.lit("|");
        StepCursor e = new StepCursor(l, l.indexOf(MEGATRON) + MEGATRON.length());
        e.spaces();
        double ms = e.decimal();
        if (!c.ok || !e.ok || !(ms >= 0)) {
            return null;
        }
        double thr = Double.NaN;
        String unit = "";
        int tf = l.indexOf("throughput per GPU (TFLOP/s/GPU):");
        int sps = l.indexOf("samples per second:");
        if (tf >= 0) {
            thr = valueAfter(l, tf + 33);
            unit = StepLine.TFLOPS;
        } else if (sps >= 0) { // Megatron-DeepSpeed
            thr = valueAfter(l, sps + 19);
            unit = StepLine.SAMPLES;
        }
        return StepLine.of(p, "megatron", step, total, ms, thr, Double.isNaN(thr) ? "" : unit);
    }

    /** {@code epoch=0/micro_step=10/global_step=10, RunningAvgSamplesPerSec=..., CurrSamplesPerSec=..., ...}. */
    private static StepLine deepSpeedRate(StepPrefix p, String l) {
        int rate = l.indexOf(DS_RATE);
        int g = l.lastIndexOf("global_step=", rate);
        if (g < 0) {
            return null;
        }
        StepCursor c = new StepCursor(l, g + 12);
        long step = c.integer();
        double thr = valueAfter(l, rate + DS_RATE.length());
        if (!c.ok || !(thr >= 0) || Double.isInfinite(thr)) {
            return null;
        }
        return withDeepSpeedRank(StepLine.of(p, "deepspeed", step, -1, Double.NaN, thr, StepLine.SAMPLES), l, g);
    }

    /** {@code [Rank 0] time (ms) | fwd: 12.34 | bwd: 56.78 | bwd_inner: ... | bwd_allreduce: ... | step: 9.10}. */
    private static StepLine deepSpeedTimers(StepPrefix p, String l, int at) {
        StepCursor c = new StepCursor(l, at + 9);
        double fwd = Double.NaN;
        double bwd = Double.NaN;
        double step = Double.NaN;
        while (c.skip(" | ")) {
            int colon = l.indexOf(": ", c.i);
            if (colon < 0) {
                return null;
            }
            String name = l.substring(c.i, colon);
            c.i = colon + 2;
            double v = c.decimal();
            if (!c.ok) {
                return null;
            }
            switch (name) {
                case "fwd" -> fwd = v;
                case "bwd" -> bwd = v;
                case "step" -> step = v;
                default -> {
                    // bwd_inner and bwd_allreduce are parts of bwd; *_microstep timers time one micro-batch
                }
            }
        }
        double ms = fwd + bwd + step;
        if (!(ms >= 0)) {
            return null;
        }
        return withDeepSpeedRank(StepLine.of(p, "deepspeed-timers", -1, -1, ms, Double.NaN, ""), l, at);
    }

    /** DeepSpeed's {@code [Rank N] } before the message (its {@code log_dist}/{@code print_dist}) names the rank. */
    private static StepLine withDeepSpeedRank(StepLine s, String l, int before) {
        if (s.rank() >= 0) {
            return s;
        }
        int r = l.lastIndexOf("[Rank ", before);
        if (r < 0) {
            return s;
        }
        StepCursor c = new StepCursor(l, r + 6);
        long rank = c.integer();
        return c.ok && c.peek() == ']' && rank <= Integer.MAX_VALUE ? s.withRank((int) rank) : s;
    }

    /** {@code step: 10  loss:  7.8000  grad_norm: ...  memory: ...  tps: 5,432  tflops: 123.40  mfu: 12.50%}. */
    private static StepLine torchtitan(StepPrefix p, String l) {
        int s = l.indexOf("step: ", p.body);
        if (s < 0 || l.startsWith("validate ", Math.max(0, s - 9))) {
            return null; // the validation line has a tps too, but is no training step
        }
        StepCursor c = new StepCursor(l, s + 6);
        c.spaces();
        long step = c.integer();
        int t = l.indexOf("tps: ", s);
        if (!c.ok || t < 0) {
            return null;
        }
        StepCursor tc = new StepCursor(l, t + 5);
        double tps = tc.decimal();
        if (!tc.ok || !(tps >= 0)) {
            return null;
        }
        return StepLine.of(p, "torchtitan", step, -1, Double.NaN, tps, StepLine.TOKENS);
    }

    /** {@code Epoch: [0][  10/5005]\tTime  0.345 ( 0.512)\tData ...}: seconds of the batch. */
    private static StepLine pytorchExamples(StepPrefix p) {
        StepCursor c = new StepCursor(p.text, p.body + 8);
        long epoch = c.integer();
        c.lit("][");
        c.spaces();
        long batch = c.integer();
        c.lit("/");
        long batches = c.integer();
        c.lit("]");
        if (!c.ok) {
            return null;
        }
        int t = p.text.indexOf("Time ", c.i);
        if (t < 0) {
            return null;
        }
        StepCursor v = new StepCursor(p.text, t + 5);
        v.spaces();
        double s = v.decimal();
        if (!v.ok || !(s >= 0) || epoch > Long.MAX_VALUE / Math.max(1, batches) - batch) {
            return null;
        }
        return StepLine.of(p, "pytorch-examples", epoch * batches + batch, -1, s * 1000, Double.NaN, "");
    }

    /** {@code iter 100: loss 4.2345, time 123.45ms, mfu 30.12%}. */
    private static StepLine nanoGpt(StepPrefix p) {
        StepCursor c = new StepCursor(p.text, p.body + 5);
        long step = c.integer();
        c.lit(": loss ");
        int t = p.text.indexOf(", time ", c.i);
        if (!c.ok || t < 0) {
            return null;
        }
        StepCursor v = new StepCursor(p.text, t + 7);
        double ms = v.decimal();
        v.lit("ms");
        if (!v.ok || !(ms >= 0)) {
            return null;
        }
        return StepLine.of(p, "nanogpt", step, -1, ms, Double.NaN, "");
    }

    /** {@code {'train_runtime': 123.4, 'train_samples_per_second': 32.4, 'train_steps_per_second': 4.05, ...}}. */
    private static StepLine hfSummary(StepPrefix p, String l) {
        if (!isKey(l, l.indexOf("train_runtime"))) {
            return null;
        }
        double steps = dictValue(l, "train_steps_per_second");
        double samples = dictValue(l, "train_samples_per_second");
        if (!(steps > 0) && !(samples > 0)) {
            return null;
        }
        return StepLine.of(p, "hf-trainer-summary", -1, -1, steps > 0 ? 1000 / steps : Double.NaN,
                samples > 0 ? samples : Double.NaN, samples > 0 ? StepLine.SAMPLES : "");
    }

    /** Whether the word at {@code at} is a quoted dictionary key. */
    private static boolean isKey(String l, int at) {
        return at > 0 && (l.charAt(at - 1) == '\'' || l.charAt(at - 1) == '"');
    }

    /** The number after {@code 'key': } in a printed dict (the number itself quoted or not); NaN when absent. */
    private static double dictValue(String l, String key) {
        int k = l.indexOf(key);
        if (!isKey(l, k) || k + key.length() + 1 >= l.length()) {
            return Double.NaN;
        }
        StepCursor c = new StepCursor(l, k + key.length() + 1);
        c.lit(":");
        c.spaces();
        boolean quoted = c.skip("'") || c.skip("\"");
        double v = c.decimal();
        return c.ok && (!quoted || c.peek() == '\'' || c.peek() == '"') ? v : Double.NaN;
    }

    /** The number after {@code at} and its spaces; NaN when none. */
    private static double valueAfter(String l, int at) {
        StepCursor c = new StepCursor(l, at);
        c.spaces();
        double v = c.decimal();
        return c.ok ? v : Double.NaN;
    }
}
