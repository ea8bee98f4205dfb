package org.fabricscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.fabricscope.importers.ImportResult;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.analysis.FabricSummary;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.fabric.Tier;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Simulate, capture, import, compare: a seeded random fat tree is generated, run in ibsim, captured
 * with the real ibnetdiscover/iblinkinfo/perfquery/ibqueryerrors, imported, and checked against
 * what the generator built (counts, tiers, and every injected fault). Needs the simulator packages
 * (.ci/install-sim.sh); on CI their absence is a failure, elsewhere the test is skipped.
 */
class SimulatedFabricIT {
    @TempDir
    Path work;

    @ParameterizedTest(name = "seed {0}, {1} tiers, {2}")
    @CsvSource({"7, 2, small", "19, 3, small", "23, 3, medium"})
    void capturedFabricMatchesWhatWasSimulated(int seed, int tiers, String size) throws Exception {
        boolean simulator = Files.isExecutable(Path.of("/usr/bin/ibsim")) || Files.isExecutable(Path.of("/usr/sbin/ibsim"));
        if (System.getenv("CI") != null) {
            assertTrue(simulator, "ibsim is not installed: .ci/run must run .ci/install-sim.sh first");
        }
        assumeTrue(simulator, "ibsim not installed (bash .ci/install-sim.sh)");
        Path tools = Samples.root().resolve("tools");
        Path gen = work.resolve("gen");
        Path capture = work.resolve("capture");
        run(List.of("python3", tools.resolve("gen-fat-tree.py").toString(), "--seed", String.valueOf(seed), "--out",
                gen.toString(), "--tiers", String.valueOf(tiers), "--size", size, "--faults", "5"));
        run(List.of("bash", tools.resolve("capture.sh").toString(), gen.resolve("fabric.net").toString(),
                capture.toString(), gen.resolve("faults.txt").toString()));
        JsonNode fabric = Samples.json(gen.resolve("fabric.json"));
        ImportResult r = Samples.load(List.of(capture));
        assertMatchesGenerator(fabric, r, FabricSummary.of(r.model(), ErrorThresholds.defaults()));
    }

    static void assertMatchesGenerator(JsonNode fabric, ImportResult r, FabricSummary s) {
        JsonNode expected = fabric.get("expected");
        assertEquals(expected.get("switches").asInt(), s.switches());
        assertEquals(expected.get("cas").asInt(), s.cas());
        assertEquals(expected.get("hosts").asInt(), s.hosts());
        assertEquals(expected.get("activeLinks").asInt(), s.cables());
        assertEquals(SampleFabricsGoldenTest.tokens(expected.get("linksByToken")), s.cablesBySpeed());
        // Tiers: the generator's leaf / aggregation (or spine) / core names against what we detected.
        JsonNode names = fabric.get("switchNames");
        List<String> wrong = new ArrayList<>();
        names.properties().forEach(e -> {
            Tier want = switch (e.getKey()) {
                case "leaf" -> Tier.LEAF;
                case "core" -> fabric.get("tiers").asInt() == 3 ? Tier.CORE : Tier.SPINE;
                default -> Tier.SPINE;
            };
            for (JsonNode n : e.getValue()) {
                FabricNode node = r.model().nodes().stream().filter(x -> x.displayName().equals(n.asText())).findFirst()
                        .orElseThrow(() -> new AssertionError("switch " + n.asText() + " not imported"));
                if (node.tier() != want) {
                    wrong.add(n.asText() + " is " + node.tier() + ", built as " + want);
                }
            }
        });
        assertTrue(wrong.isEmpty(), wrong.toString());
        List<Finding> findings = Samples.diagnose(r.model());
        SampleFabricsGoldenTest.assertFaultsFound(fabric.get("faults"), r.model(), findings, false);
    }

    private void run(List<String> cmd) throws IOException, InterruptedException {
        Path log = Files.createTempFile(work, "cmd", ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + cmd + "\n" + Files.readString(log));
        }
        assertEquals(0, p.exitValue(), cmd + "\n" + Files.readString(log));
    }
}
