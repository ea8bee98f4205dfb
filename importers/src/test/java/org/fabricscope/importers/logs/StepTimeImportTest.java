package org.fabricscope.importers.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.TextLines;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.training.StepTime;
import org.fabricscope.model.training.TrainingLog;
import org.fabricscope.model.training.TrainingLogBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Step times through the log import: files read whole by {@link NcclLogParser} into {@link TrainingLog#stepTimes()},
 * with the ranks, hosts and steps the lines and their sources give, Megatron's timer block, the Hugging Face
 * training bar told from its evaluation bars, and a training log without NCCL lines found by its step lines.
 */
class StepTimeImportTest {
    private final TrainingLogBuilder log = new TrainingLogBuilder();
    private final List<Diagnostic> problems = new ArrayList<>();
    private final NcclLogParser parser = new NcclLogParser(log, problems);

    private void read(String source, String... lines) throws IOException {
        byte[] bytes = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
        parser.read(new TextLines(new ByteArrayInputStream(bytes)), source, Cancellation.NEVER);
    }

    private static String nano(int step, double ms) {
        return String.format(java.util.Locale.ROOT, "iter %d: loss 4.2345, time %.2fms, mfu 30.12%%", step, ms);
    }

    @Test
    void rankTaggedLinesOfTwoPodsGiveEachRanksStepsWithTheNcclHost() throws IOException {
        read("pod-a.log",
                "2024-05-01T10:00:00.000000000Z pod-a:101:101 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0"
                        + " busId 18000 commId 0xabc - Init COMPLETE",
                "2024-05-01T10:00:01.000000000Z [rank0]: " + nano(1, 100.5),
                "2024-05-01T10:00:01.000000000Z [rank0]: some other output, no step here",
                "2024-05-01T10:00:02.000000000Z [rank0]: " + nano(2, 101.25));
        read("pod-b.log",
                "[rank1]: " + nano(1, 180.0),
                "pod-b:202:202 [0] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0xabc"
                        + " - Init COMPLETE",
                "[rank1]: " + nano(2, 190.0));
        TrainingLog t = log.build();
        List<StepTime> s = t.stepTimes();
        assertEquals(4, s.size(), s.toString());
        StepTime a1 = s.get(0);
        assertEquals("pod-a.log", a1.source());
        assertEquals(2, a1.line());
        assertEquals("pod-a", a1.host(), "the one host this source's NCCL lines name");
        assertEquals(0, a1.rank());
        assertEquals(1, a1.step());
        assertEquals(100.5, a1.stepMs(), 1e-9);
        assertEquals(java.time.Instant.parse("2024-05-01T10:00:01Z").toEpochMilli(), a1.epochMillis());
        assertEquals("nanogpt", a1.format());
        assertEquals(org.fabricscope.model.core.Evidence.at("pod-a.log", 2,
                "2024-05-01T10:00:01.000000000Z [rank0]: " + nano(1, 100.5)), a1.evidence());
        assertEquals(List.of(1L, 2L), s.stream().filter(x -> x.rank() == 1).map(StepTime::step).toList());
        StepTime b1 = s.stream().filter(x -> x.rank() == 1).findFirst().orElseThrow();
        assertEquals("pod-b", b1.host(), "the NCCL line after the step line still names the host");
        assertEquals(180.0, b1.stepMs(), 1e-9);
        assertTrue(problems.isEmpty(), problems.toString());
        assertEquals(2, t.ranks().size(), "the NCCL lines are read as before");
    }

    @Test
    void megatronIterationAndAllRanksTimerBlock() throws IOException {
        // Megatron-LM core_v0.19.0: training.py training_log, then megatron/core/timers.py Timers.log with
        // --timing-log-option all ('times across ranks (ms):', '\n  {}:', '\n     rank {:2d}: {:.2f}') and minmax
        read("megatron.log",
                "[rank3]: [2024-05-01 10:00:00.123456] iteration       10/     100 | consumed samples:          640 |"
                        + " elapsed time per iteration (ms): 1234.5 | global batch size:    64 |",
                "[rank3]:times across ranks (ms):",
                "[rank3]:  forward-backward:",
                "[rank3]:     rank  0: 1100.00",
                "[rank3]:     rank  1: 1105.50",
                "[rank3]:     rank  2: 1500.25",
                "[rank3]:     rank  3: 1101.00",
                "[rank3]:  optimizer:",
                "[rank3]:     rank  0: 20.00",
                "[rank3]:     rank  1: 21.00",
                "[rank3]: [2024-05-01 10:00:12.000000] iteration       20/     100 | consumed samples:         1280 |"
                        + " elapsed time per iteration (ms): 1250.0 | global batch size:    64 |",
                "[rank3]:(min, max) time across ranks (ms):",
                "[rank3]:    forward-backward ...............................: (1100.00, 1500.25)",
                "[rank3]:    optimizer ......................................: (20.00, 21.00)",
                "[rank3]: step 20 took time 3 s in prose after the block");
        parser.finish();
        List<StepTime> s = log.build().stepTimes();
        List<StepTime> iterations = s.stream().filter(x -> x.format().equals("megatron")).toList();
        assertEquals(List.of(10L, 20L), iterations.stream().map(StepTime::step).toList());
        assertEquals(3, iterations.get(0).rank());
        List<StepTime> perRank = s.stream().filter(x -> x.format().equals("megatron-timers")).toList();
        assertEquals(List.of(0, 1, 2, 3), perRank.stream().map(StepTime::rank).toList(), "forward-backward only");
        assertEquals(1500.25, perRank.get(2).stepMs(), 1e-9);
        assertTrue(perRank.stream().allMatch(x -> x.step() == 10 && x.host().isEmpty()), perRank.toString());
        assertEquals(6, perRank.get(2).line());
        StepTime min = s.stream().filter(x -> x.format().equals("megatron-timers-min")).findFirst().orElseThrow();
        StepTime max = s.stream().filter(x -> x.format().equals("megatron-timers-max")).findFirst().orElseThrow();
        assertEquals(1100.0, min.stepMs(), 1e-9);
        assertEquals(1500.25, max.stepMs(), 1e-9);
        assertEquals(20, max.step());
        assertEquals(-1, max.rank(), "the block does not say which rank was slowest");
        StepTime after = s.get(s.size() - 1);
        assertEquals("plain", after.format(), "the block ended at a line of another shape, which is read as usual");
        assertEquals(3000, after.stepMs(), 1e-9);
        assertEquals(s.size(), iterations.size() + perRank.size() + 2 + 1, s.toString());
    }

    @Test
    void huggingFaceTrainingBarKeptOnceAStepEvaluationBarsDropped() throws IOException {
        // tqdm redraws end in a carriage return: each redraw is a line of its own
        String text = "***** Running training *****\n  Total optimization steps = 1,000\n"
                + "  0%|          | 0/1000 [00:00<?, ?it/s]\r"
                + "  5%|▌         | 50/1000 [00:30<09:30,  1.67it/s]\r"
                + "  5%|▌         | 50/1000 [00:30<09:30,  1.67it/s]\r"
                + "  5%|▌         | 51/1000 [00:32<39:30,  2.50s/it]\n"
                + " 50%|█████     | 5/10 [00:01<00:01,  4.50it/s]\r"
                + "{'loss': 2.3456, 'grad_norm': 1.234, 'learning_rate': 4.5e-05, 'epoch': 0.5}\n"
                + "{'train_runtime': 246.9135, 'train_samples_per_second': 32.4, 'train_steps_per_second': 4.05,"
                + " 'train_loss': 2.3456, 'epoch': 3.0}\n";
        parser.read(new TextLines(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8))), "hf.log",
                Cancellation.NEVER);
        List<StepTime> s = log.build().stepTimes();
        assertEquals(3, s.size(), s.toString());
        assertEquals(List.of(50L, 51L, -1L), s.stream().map(StepTime::step).toList(),
                "step 50 once though redrawn, the 5/10 evaluation bar not at all");
        assertEquals("hf-trainer", s.get(0).format());
        assertEquals(2500, s.get(1).stepMs(), 1e-9);
        assertEquals("hf-trainer-summary", s.get(2).format());
        assertEquals("", s.get(0).host(), "no NCCL line, no pod tag: no host");
    }

    @Test
    void trainingLogWithoutNcclLinesIsReadForItsStepTimes(@TempDir Path dir) throws IOException {
        List<String> lines = new ArrayList<>(List.of("Overriding config with config/train_gpt2.py:",
                "tokens per iteration will be: 491,520", "compiling the model... (takes a ~minute)"));
        for (int i = 0; i < 5; i++) {
            lines.add("[default0]:" + nano(i * 10, 420.0 + i));
        }
        Path f = Files.write(dir.resolve("train.out"), lines);
        assertTrue(new NcclLogReader().confidence(Head.of(String.join("\n", lines))) > 0);
        ImportResult r = new FabricImporter().importPaths(List.of(f), ImportProgress.NONE, Cancellation.NEVER);
        assertEquals(NcclLogReader.ID, r.formats().get(f.toString()), r.formats().toString());
        List<StepTime> s = r.model().trainingLog().stepTimes();
        assertEquals(5, s.size());
        assertEquals(0, s.get(0).localRank());
        assertEquals(-1, s.get(0).rank());
        assertEquals(424.0, s.get(4).stepMs(), 1e-9);
        assertEquals(0, new NcclLogReader().confidence(Head.of("Overriding config with config/train_gpt2.py:\n"
                + "step 250: train loss 1.2345, val loss 1.4567\n")), "no step time, no NCCL line: not a log it reads");
    }
}
