package org.fabricscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.diagnosis.Diagnosis;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.slowness.ConfigDrift;
import org.fabricscope.model.slowness.Straggler;
import org.fabricscope.model.slowness.Stragglers;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Each real capture of gpu-captures/slow-h200x2-nccl-2.28.9 against what really happened in it
 * ({@code truth.json}): healthy runs raise no straggler, drift or bandwidth finding; a straggler is named with
 * its rank and kind; a variable set on one pod only is named when NCCL's INFO lines show it, with the severity
 * its effect calls for (nothing is guessed from quiet logs); nccl-tests runs with transports switched off fall
 * short of the NVLink rate the GPU's name sets, with the variable when NCCL's lines are in the output.
 */
class SlowCapturesTest {
    private static final Path CAPTURES = Samples.root().resolve("gpu-captures").resolve("slow-h200x2-nccl-2.28.9");

    private static FabricModel load(Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        for (String name : GoldenFilesTest.inputs(Samples.root(), dir)) {
            files.add(Path.of(name));
        }
        return new FabricImporter().importPaths(files, ImportProgress.NONE, Cancellation.NEVER).model();
    }

    @TestFactory
    Stream<DynamicTest> eachCaptureAgainstWhatReallyHappened() throws IOException {
        List<Path> dirs;
        try (Stream<Path> s = Files.list(CAPTURES)) {
            dirs = s.filter(d -> Files.exists(d.resolve("truth.json"))).sorted().toList();
        }
        assertTrue(dirs.size() >= 30, dirs.toString());
        return dirs.stream().map(d -> DynamicTest.dynamicTest(d.getFileName().toString(), () -> check(d)));
    }

    private static List<Finding> findings(FabricModel m, String id) {
        return Diagnosis.standard(ErrorThresholds.defaults()).run(m, ErrorThresholds.defaults()).stream()
                .filter(f -> f.id().equals(id)).toList();
    }

    private static void check(Path dir) throws IOException {
        JsonNode truth = Samples.json(dir.resolve("truth.json"));
        FabricModel m = load(dir);
        String kind = truth.get("kind").asText();
        boolean info = "INFO".equals(truth.path("ncclDebug").asText(""));
        switch (kind) {
            case "healthy" -> {
                assertEquals(List.of(), Stragglers.of(m).stragglers());
                assertEquals(List.of(), ConfigDrift.of(m));
            }
            case "straggler" -> {
                List<Straggler> s = Stragglers.of(m).stragglers();
                assertEquals(1, s.size(), s.toString());
                assertEquals(truth.get("rank").asInt(), s.get(0).rank());
                Straggler.Kind expected = truth.get("slowness").asText().equals("on-gpu") ? Straggler.Kind.LATE_ON_GPU
                        : Straggler.Kind.LATE_TO_ENQUEUE;
                assertEquals(expected, s.get(0).kind());
                assertEquals(truth.path("timing").asBoolean(), s.get(0).confirmed(),
                        "with timing the others' waiting confirms it across the pods' clocks; without, it stays unconfirmed");
                assertEquals(1, findings(m, "straggler").size());
            }
            case "config-drift" -> {
                List<Finding> drift = findings(m, "config-drift");
                if (!info) {
                    assertEquals(List.of(), drift, "quiet logs do not show NCCL's variables: nothing to compare");
                    return;
                }
                assertEquals(1, drift.size());
                for (String v : truth.get("variable").asText().split(",")) {
                    assertTrue(drift.get(0).title().contains(v), drift.get(0).title());
                }
                String effect = truth.get("effect").asText();
                if (effect.startsWith("hang") || effect.startsWith("error")) {
                    assertEquals(Severity.ERROR, drift.get(0).severity(), drift.get(0).title());
                } else if (effect.equals("slow")) {
                    assertEquals(Severity.WARNING, drift.get(0).severity(), drift.get(0).title());
                }
                assertEquals(List.of(), Stragglers.of(m).stragglers(), "both ranks are equally held back: no straggler");
            }
            case "busbw" -> {
                boolean degraded = truth.get("env").size() > 0;
                List<Finding> busbw = findings(m, "busbw-below-expected");
                assertEquals(degraded ? 2 : 0, busbw.size(), busbw.toString());
                List<Finding> downgraded = findings(m, "transport-downgraded");
                assertEquals(degraded ? 1 : 0, downgraded.size(), downgraded.toString());
                if (degraded) {
                    truth.get("env").fieldNames().forEachRemaining(v -> assertTrue(downgraded.get(0).title().contains(v + "="),
                            downgraded.get(0).title()));
                    assertTrue(busbw.stream().anyMatch(f -> f.remedies().get(0).startsWith("No NCCL log of this run")),
                            "the run without NCCL's lines says so");
                    assertFalse(busbw.stream().allMatch(f -> f.remedies().get(0).startsWith("No NCCL log of this run")),
                            "the run with NCCL's lines says why");
                }
            }
            default -> throw new AssertionError("unknown kind " + kind);
        }
    }
}
