package org.fabricscope.importers.forensics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.FormatRegistry;
import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.junit.jupiter.api.Test;

/**
 * Content detection of the forensics formats: every real capture is told by its content (never its
 * name), NCCL logs that print RAS lines stay logs, and no other file the repository holds (samples,
 * captures, test inputs) is taken for a forensics format.
 */
class ForensicsDetectionTest {
    private static final Set<String> FORENSICS = Set.of(FlightRecorderReader.ID, RasStatusReader.ID, NcclTestsReader.ID,
            PerftestReader.ID);

    @Test
    void realCapturesAreDetectedByContent() {
        assumeTrue(Files.isDirectory(ForensicsFixtures.CAPTURES), "captures not present");
        Path c = ForensicsFixtures.CAPTURES;
        Map<String, String> expected = Map.ofEntries(
                Map.entry("hang/fr/nccl_trace_rank_0", FlightRecorderReader.ID),
                Map.entry("hang-timing/fr_in-flight_rank0.json", FlightRecorderReader.ID),
                Map.entry("mismatch/fr_end_rank1.pkl", FlightRecorderReader.ID),
                Map.entry("hang/ras-status.txt", RasStatusReader.ID),
                Map.entry("hang/ras-status-verbose.json", RasStatusReader.ID),
                Map.entry("ras-dead/ras-after-kill.json", RasStatusReader.ID),
                Map.entry("ras-dead/ncclras-after-kill-v.txt", RasStatusReader.ID),
                Map.entry("hang-timing/ncclras-hung.txt", RasStatusReader.ID),
                Map.entry("nccl-tests/all_reduce_perf-g2.txt", NcclTestsReader.ID),
                Map.entry("nccl-tests/all_reduce_perf-g2.json", NcclTestsReader.ID),
                Map.entry("nccl-tests/reduce_scatter_perf-g2-C-S.txt", NcclTestsReader.ID),
                Map.entry("hang/nccl.vm.1018.log", "nccl-log"),
                Map.entry("ras-dead/nccl.vm.2046.log", "nccl-log"),
                Map.entry("hang/torchrun-stdout.log", "nccl-log"));
        List<Path> paths = new ArrayList<>();
        expected.keySet().forEach(k -> paths.add(c.resolve(k)));
        ImportResult r = new FabricImporter().importPaths(paths, ImportProgress.NONE, Cancellation.NEVER);
        for (var e : expected.entrySet()) {
            assertEquals(e.getValue(), r.formats().get(c.resolve(e.getKey()).toString()), e.getKey());
        }
        // renamed, they are still what they are
        assertEquals(FlightRecorderReader.ID, detect(c.resolve("hang/fr/nccl_trace_rank_1")));
    }

    @Test
    void nothingElseInTheRepositoryIsTakenForAForensicsFormat() throws IOException {
        List<Path> roots = List.of(Path.of("src", "test", "resources"), Path.of("..", "sample-fabrics"), Path.of("..", "docs"));
        int checked = 0;
        for (Path root : roots) {
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> s = Files.walk(root)) {
                for (Path p : s.filter(Files::isRegularFile).toList()) {
                    String n = p.toString().replace('\\', '/');
                    // ReaderFuzzTestInputs: fuzzer inputs, any format (and none) on purpose; the busbw capture's
                    // all_reduce_perf runs are nccl-tests output (BusBwRealCaptureTest reads them); the pairwise sample's
                    // perftest and nccl-tests outputs are theirs (PerftestReaderTest, PairsCliTest read them)
                    if (n.contains("/forensics/") || n.contains("h200x2-forensics-nccl") || n.contains("/fr/nccl_trace_rank_") || n.contains("/target/")
                            || n.contains("/sample-fabrics/pairwise/perftest/") || n.contains("/sample-fabrics/pairwise/nccl-tests/")
                            || n.contains("/fr-ondemand/nccl_trace_rank_") || n.contains("/ReaderFuzzTestInputs/")
                            || n.matches(".*/gpu-captures/.*/all_reduce_perf-[^/]*\\.txt")
                            || n.endsWith(".gz") || n.endsWith(".zip") || n.endsWith(".png")) {
                        continue;
                    }
                    String f = detect(p);
                    assertTrue(f == null || !FORENSICS.contains(f), p + " detected as " + f);
                    checked++;
                }
            }
        }
        assertTrue(checked > 50, "files checked: " + checked);
    }

    /** The detection FabricImporter applies: a binary head for a binary file, else the text head; the registry decides. */
    private static String detect(Path p) {
        byte[] head;
        try (InputStream in = Files.newInputStream(p)) {
            head = in.readNBytes(Head.MAX_BYTES);
        } catch (IOException e) {
            return null;
        }
        FormatReader r = FormatRegistry.standard().detect(FlightRecorderReader.looksLikePickle(head) ? Head.binary(head)
                : Head.of(head));
        return r == null ? null : r.id();
    }
}
