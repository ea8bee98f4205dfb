package org.fabricscope.importers.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/**
 * One trainer's step line at a time ({@link StepTimeLines#parse(CharSequence)}), each line built with the format
 * string of the source that prints it (cited per test), with the prefixes launchers and kubectl add, and lines
 * that must give nothing.
 */
class StepTimeLinesTest {
    private static StepLine one(String line) {
        Optional<StepLine> s = StepTimeLines.parse(line);
        assertTrue(s.isPresent(), "a step line: " + line);
        return s.get();
    }

    private static void none(String line) {
        assertEquals(Optional.empty(), StepTimeLines.parse(line), line);
    }

    private static long millis(String iso) {
        return Instant.parse(iso).toEpochMilli();
    }

    // NVIDIA/Megatron-LM core_v0.19.0, megatron/training/training.py training_log(): log_string built from
    // f" [{datetime.now().strftime('%Y-%m-%d %H:%M:%S.%f')}]", ' iteration {:8d}/{:8d} |', ' consumed samples: {:12d} |',
    // ' elapsed time per iteration (ms): {:.1f} |', f' throughput per GPU (TFLOP/s/GPU): {throughput:.1f} |', ...
    private static final String MEGATRON = " [2024-05-01 10:00:00.123456] iteration       10/     100 | consumed samples:"
            + "          640 | elapsed time per iteration (ms): 1234.5 | throughput per GPU (TFLOP/s/GPU): 123.4 |"
            + " learning rate: 3.000000E-04 | global batch size:    64 | lm loss: 7.800000E+00 | loss scale: 1.0 |"
            + " grad norm: 1.234 | number of skipped iterations:   0 | number of nan iterations:   0 |";

    @Test
    void megatronIterationLineGivesItsStepTimeThroughputAndStamp() {
        StepLine s = one(MEGATRON);
        assertEquals("megatron", s.format());
        assertEquals(10, s.step());
        assertEquals(100, s.total());
        assertEquals(1234.5, s.stepMs(), 1e-9);
        assertEquals(123.4, s.throughput(), 1e-9);
        assertEquals("TFLOP/s/GPU", s.throughputUnit());
        assertEquals(millis("2024-05-01T10:00:00.123Z"), s.epochMillis(), "Megatron's own stamp, no zone: read as UTC");
        assertEquals(-1, s.rank());
        StepLine tagged = one("[rank7]:" + MEGATRON);
        assertEquals(7, tagged.rank(), "torchrun's [rankN]: tag is the global rank");
        assertEquals(millis("2024-05-01T10:00:00.123Z"), tagged.epochMillis());
    }

    @Test
    void megatronDeepSpeedFormWithoutStampGivesSamplesPerSecond() {
        // microsoft/Megatron-DeepSpeed megatron/training.py training_log: ' iteration {:8d}/{:8d} |' ... no datetime,
        // ' samples per second: {:.3f} |'
        StepLine s = one(" iteration      200/   10000 | consumed samples:        12800 | consumed tokens:     26214400 |"
                + " elapsed time per iteration (ms): 850.2 | learning rate: 1.500E-04 | global batch size:    64 |"
                + " lm loss: 6.512345E+00 | loss scale: 4096.0 | grad norm: 0.812 | actual seqlen:  2048 |"
                + " number of skipped iterations:   0 | number of nan iterations:   0 | samples per second: 75.276 |");
        assertEquals(200, s.step());
        assertEquals(850.2, s.stepMs(), 1e-9);
        assertEquals(75.276, s.throughput(), 1e-9);
        assertEquals("samples/s", s.throughputUnit());
        assertEquals(-1, s.epochMillis());
    }

    @Test
    void deepSpeedThroughputTimerKeepsSamplesPerSecondAndNoStepTime() {
        // deepspeedai/DeepSpeed v0.19.5, deepspeed/utils/timer.py ThroughputTimer.stop: "epoch={}/micro_step={}/global_step={},
        // RunningAvgSamplesPerSec={}, CurrSamplesPerSec={}, MemAllocated={}GB, MaxMemAllocated={}GB", through the
        // logger of deepspeed/utils/logging.py: "[%(asctime)s] [%(levelname)s] [%(filename)s:%(lineno)d:%(funcName)s] %(message)s"
        String line = "[2024-05-01 10:00:00,123] [INFO] [timer.py:264:stop] epoch=0/micro_step=20/global_step=10,"
                + " RunningAvgSamplesPerSec=95.34567890123, CurrSamplesPerSec=96.1234, MemAllocated=4.25GB, MaxMemAllocated=8.5GB";
        StepLine s = one(line);
        assertEquals("deepspeed", s.format());
        assertEquals(10, s.step(), "the global step, not the micro step");
        assertTrue(Double.isNaN(s.stepMs()), "samples per second over an unprinted batch size is no step time");
        assertEquals(96.1234, s.throughput(), 1e-9, "CurrSamplesPerSec, this step's rate, not the running average");
        assertEquals("samples/s", s.throughputUnit());
        assertEquals(millis("2024-05-01T10:00:00.123Z"), s.epochMillis());
        assertEquals(5, one("[rank5]:" + line).rank());
    }

    @Test
    void deepSpeedEngineTimersGiveForwardBackwardAndStepSummedForTheirRank() {
        // DeepSpeed v0.19.5 SynchronizedWallClockTimer.log: "time (ms)" + " | {}: {:.2f}" per timer, printed by
        // print_dist with get_dist_msg's "[Rank {}] {}"; the engine logs its global timers fwd, bwd, bwd_inner,
        // bwd_allreduce, step (deepspeed/runtime/engine.py)
        StepLine s = one("[Rank 0] time (ms) | fwd: 120.50 | bwd: 240.25 | bwd_inner: 200.00 | bwd_allreduce: 40.25 | step: 30.10");
        assertEquals("deepspeed-timers", s.format());
        assertEquals(120.50 + 240.25 + 30.10, s.stepMs(), 1e-9, "bwd_inner and bwd_allreduce are inside bwd");
        assertEquals(0, s.rank());
        assertEquals(-1, s.step(), "the line names no step");
        none("[Rank 0] time (ms) | fwd_microstep: 60.25 | bwd_microstep: 120.00 | bwd_inner_microstep: 100.00"
                + " | bwd_allreduce_microstep: 20.00 | step_microstep: 30.10");
    }

    @Test
    void torchtitanColouredStepLineGivesTokensPerSecond() {
        // pytorch/torchtitan v0.2.2, torchtitan/components/metrics.py MetricsProcessor.log: f"{color.red}step: {step:2}  "
        // f"{color.green}loss: {global_avg_loss:8.5f}  " ... f"{color.blue}tps: {round(tps):,}  " f"{color.cyan}tflops:
        // {tflops:,.2f}  " f"{color.magenta}mfu: {mfu:.2f}%{color.reset}"; colours of torchtitan/tools/utils.py Color;
        // logger format of torchtitan/tools/logging.py "[titan] %(asctime)s - %(name)s - %(levelname)s - %(message)s"
        StepLine s = one("[rank0]:[titan] 2025-01-01 12:00:00,123 - root - INFO - \u001b[31mstep: 10  \u001b[32mloss:"
                + "  7.80000  \u001b[38;2;180;60;0mgrad_norm:  1.2345  \u001b[38;2;54;234;195mmemory: 30.12GiB(31.71%)  "
                + "\u001b[34mtps: 5,432  \u001b[36mtflops: 123.40  \u001b[35mmfu: 12.50%\u001b[39m");
        assertEquals("torchtitan", s.format());
        assertEquals(10, s.step());
        assertEquals(0, s.rank());
        assertEquals(5432, s.throughput(), 1e-9);
        assertEquals("tokens/s", s.throughputUnit());
        assertTrue(Double.isNaN(s.stepMs()), "tokens per second give no step time");
        assertEquals(millis("2025-01-01T12:00:00.123Z"), s.epochMillis());
        StepLine first = one("[titan] 2025-01-01 12:00:00,123 - root - INFO - \u001b[31mstep:  1  \u001b[32mloss:  7.80000  "
                + "\u001b[38;2;180;60;0mgrad_norm:  1.2345  \u001b[38;2;54;234;195mmemory: 30.12GiB(31.71%)  \u001b[34mtps:"
                + " 12,346  \u001b[36mtflops: 1,234.50  \u001b[35mmfu: 12.50%\u001b[39m");
        assertEquals(1, first.step(), "{step:2} pads step 1 with a space");
        assertEquals(12346, first.throughput(), 1e-9);
        none("[titan] 2025-01-01 12:00:00,123 - root - INFO - \u001b[33mvalidate step:  1  \u001b[32mloss:  7.8000  "
                + "\u001b[38;2;54;234;195mmemory: 30.12GiB(31.71%)  \u001b[34mtps: 5,432\u001b[39m");
    }

    @Test
    void pytorchExamplesProgressMeterCountsStepsOverEpochs() {
        // pytorch/examples imagenet/main.py (commit 77f55b9): ProgressMeter.display joins prefix "Epoch: [{}]" and
        // '[' + '{:4d}' + '/' + '5005' + ']' with AverageMeter's '{name} {val:6.3f} ({avg:6.3f})' by tabs
        StepLine s = one("Epoch: [0][  11/5005]\tTime  0.345 ( 0.512)\tData  0.012 ( 0.020)\tLoss 6.9688e+00 (6.9000e+00)"
                + "\tAcc@1   0.00 (  0.00)\tAcc@5   0.39 (  0.39)");
        assertEquals("pytorch-examples", s.format());
        assertEquals(11, s.step());
        assertEquals(345, s.stepMs(), 1e-9, "the batch's time in seconds, not the average in brackets");
        StepLine later = one("Epoch: [2][   1/5005]\tTime  0.250 ( 0.512)\tData  0.012 ( 0.020)\tLoss 6.9688e+00 (6.9000e+00)"
                + "\tAcc@1   0.00 (  0.00)\tAcc@5   0.39 (  0.39)");
        assertEquals(2 * 5005 + 1, later.step());
        assertEquals(250, later.stepMs(), 1e-9);
        none("Test: [ 10/196]\tTime  0.100 ( 0.120)\tLoss 1.2000e+00 (1.3000e+00)\tAcc@1  70.00 ( 69.50)");
    }

    @Test
    void nanoGptIterLine() {
        // karpathy/nanoGPT train.py (commit 3adf61e): print(f"iter {iter_num}: loss {lossf:.4f}, time {dt*1000:.2f}ms,
        // mfu {running_mfu*100:.2f}%")
        StepLine s = one("iter 100: loss 4.2345, time 123.45ms, mfu 30.12%");
        assertEquals("nanogpt", s.format());
        assertEquals(100, s.step());
        assertEquals(123.45, s.stepMs(), 1e-9);
        assertEquals(0, one("iter 0: loss 10.9876, time 31415.93ms, mfu -100.00%").step());
        // its evaluation line: print(f"step {iter_num}: train loss {losses['train']:.4f}, val loss {losses['val']:.4f}")
        none("step 250: train loss 1.2345, val loss 1.4567");
    }

    @Test
    void huggingFaceBarsInStepsPerSecondAndSecondsPerStep() {
        // tqdm/tqdm v4.69.1 tqdm/std.py format_meter: f'{percentage:3.0f}%|' + bar + f'| {n_fmt}/{total_fmt}
        // [{elapsed_str}<{remaining_str}, {rate_fmt}{postfix}]', rate_fmt f'{rate:5.2f}it/s' or, below 1 it/s,
        // f'{1/rate:5.2f}s/it'; huggingface/transformers trainer_callback.py ProgressCallback: tqdm(total=state.max_steps)
        StepLine s = one("  5%|▌         | 50/1000 [00:30<09:30,  1.67it/s]");
        assertEquals("tqdm", s.format(), "a bar without description: the scan tells the Trainer's");
        assertEquals(50, s.step());
        assertEquals(1000, s.total());
        assertEquals(1000 / 1.67, s.stepMs(), 1e-9);
        StepLine slow = one("  5%|▌         | 51/1000 [00:32<39:30,  2.50s/it]");
        assertEquals(2500, slow.stepMs(), 1e-9);
        none("  0%|          | 0/1000 [00:00<?, ?it/s]");
    }

    @Test
    void huggingFaceRunSummaryGivesTheAverageStepAndTheLossDictNothing() {
        // transformers trainer_utils.py speed_metrics: {split}_runtime, {split}_samples_per_second, {split}_steps_per_second,
        // logged through ProgressCallback.on_log's self.training_bar.write(str(logs)) (total_flos popped)
        StepLine s = one("{'train_runtime': 246.9135, 'train_samples_per_second': 32.4, 'train_steps_per_second': 4.05,"
                + " 'train_loss': 2.3456, 'epoch': 3.0}");
        assertEquals("hf-trainer-summary", s.format());
        assertEquals(-1, s.step(), "an average over the run, not a step");
        assertEquals(1000 / 4.05, s.stepMs(), 1e-9);
        assertEquals(32.4, s.throughput(), 1e-9);
        assertEquals("samples/s", s.throughputUnit());
        StepLine quoted = one("{'train_runtime': '246.9', 'train_samples_per_second': '32.4', 'train_steps_per_second': '4.05',"
                + " 'train_loss': '2.346', 'epoch': '3'}");
        assertEquals(1000 / 4.05, quoted.stepMs(), 1e-9, "floats printed as f\"{v:.4g}\" strings");
        none("{'loss': 2.3456, 'grad_norm': 1.234, 'learning_rate': 4.5e-05, 'epoch': 0.5}");
    }

    @Test
    void lightningEpochBarCountsStepsOverEpochs() {
        // Lightning-AI/pytorch-lightning 2.6.5 src/lightning/pytorch/callbacks/progress/tqdm_progress.py: BAR_FORMAT
        // "{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_noinv_fmt}{postfix}]", description
        // f"Epoch {trainer.current_epoch}", set_postfix(get_metrics(...))
        StepLine s = one("Epoch 0:  45%|████▌     | 450/1000 [01:23<01:41,  5.42it/s, v_num=0, loss=2.340]");
        assertEquals("lightning", s.format());
        assertEquals(450, s.step());
        assertEquals(1000 / 5.42, s.stepMs(), 1e-9);
        assertEquals(1100, one("Epoch 1:  10%|█         | 100/1000 [00:18<02:42,  5.55it/s, v_num=0, loss=2.100]").step());
        none("Validation DataLoader 0:  50%|█████     | 5/10 [00:00<00:00, 12.34it/s]");
        none("Map:  50%|█████     | 500/1000 [00:00<00:00, 1234.50it/s]");
    }

    @Test
    void plainStepAndTimePrintsWithAUnit() {
        StepLine a = one("step 10 | loss 2.3012 | lr 3.0e-04 | time 123.4 ms");
        assertEquals("plain", a.format());
        assertEquals(10, a.step());
        assertEquals(123.4, a.stepMs(), 1e-9);
        StepLine b = one("Step 20/500, loss=2.10, data_time=0.012s, step_time=0.45s");
        assertEquals(20, b.step());
        assertEquals(450, b.stepMs(), 1e-9, "step_time, not data_time");
        StepLine c = one("[2024-05-01 10:00:03,004][train][INFO] - iter: 30 | time (ms): 99.5 | tokens/s: 41000");
        assertEquals(30, c.step());
        assertEquals(99.5, c.stepMs(), 1e-9);
        assertEquals(millis("2024-05-01T10:00:03.004Z"), c.epochMillis());
        assertEquals(1500, one("iteration 7 done, time: 1.5 sec").stepMs(), 1e-9);
        none("step 5 | loss 2.3 | time 0.45");                       // a time without a unit
        none("step 5 | data time 3 ms | elapsed time 5 s");          // parts of a step, time since the start
        none("We take it one step at a time, time 5 ms.");          // prose: no number after the step word
        none("step 3: loss 2.3012");                                // a loss line without a time
    }

    @Test
    void prefixesGiveRankLocalRankPodAndKubectlStamp() {
        String nano = "iter 100: loss 4.2345, time 123.45ms, mfu 30.12%";
        StepLine k = one("2024-05-01T10:00:00.250000000Z [rank3]: " + nano);
        assertEquals(3, k.rank());
        assertEquals(millis("2024-05-01T10:00:00.250Z"), k.epochMillis(), "kubectl --timestamps");
        assertEquals(123.45, k.stepMs(), 1e-9);
        StepLine d = one("[default2]:" + nano);
        assertEquals(-1, d.rank(), "torchrun's [defaultN]: is a local rank");
        assertEquals(2, d.localRank());
        for (String launcher : List.of("03: ", "worker-1: ", "03: [default2]:", "worker-1: [rank3]: ")) {
            StepLine l = one(launcher + nano);
            assertEquals(123.45, l.stepMs(), 1e-9, launcher);
            assertEquals(launcher.contains("rank3") ? 3 : -1, l.rank(), launcher);
            assertEquals(launcher.contains("default2") ? 2 : -1, l.localRank(), launcher);
        }
        StepLine cri = one("2024-05-01T10:00:00.250000000+00:00 stdout F [rank3]: " + nano);
        assertEquals(3, cri.rank(), "the kubelet's own log file: its time, stream and tag before the line");
        assertEquals(millis("2024-05-01T10:00:00.250Z"), cri.epochMillis());
        StepLine pod = one("[pod/trainer-worker-1/pytorch] 2024-05-01T10:00:00+02:00 [rank9]:" + nano);
        assertEquals("trainer-worker-1", pod.pod());
        assertEquals(9, pod.rank());
        assertEquals(millis("2024-05-01T08:00:00Z"), pod.epochMillis());
        assertEquals(5, one("[1,5]<stdout>:" + nano).rank(), "OpenMPI --tag-output");
        StepLine plain = one(nano);
        assertEquals(-1, plain.rank());
        assertEquals(-1, plain.epochMillis(), "no stamp on the line");
        assertEquals("", plain.pod());
    }

    @Test
    void ncclAndOtherLinesGiveNothing() {
        // NCCL 2.23+ src/init.cc: "Init timings - ncclCommInitRank: rank %d nranks %d total %.2f (kernels %.2f, ...)"
        none("node-a:812:900 [0] NCCL INFO Init timings - ncclCommInitRank: rank 0 nranks 16 total 1.01 (kernels 0.17,"
                + " alloc 0.03, bootstrap 0.02, allgathers 0.01, topo 0.56, graphs 0.01, connections 0.18, rest 0.03)");
        none("node-a:812:900 [0] NCCL INFO step 3 took time 5 ms");
        none("[rank1]:[E ProcessGroupNCCL.cpp:737] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4,"
                + " OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600012 milliseconds before timing out.");
        none("");
        assertFalse(StepTimeLines.mayHold("[rank0]: loss 2.3 lr 0.1"));
        assertTrue(StepTimeLines.mayHold("elapsed time per iteration (ms): 12"));
    }
}
