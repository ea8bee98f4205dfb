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
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.fabricscope.importers.Cancellation;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.Format;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.junit.jupiter.api.Test;

/**
 * Content detection of the forensics formats: every real capture is told by its content (never its
 * name), NCCL logs that print RAS lines stay logs, and no other file the repository holds (samples,
 * captures, test inputs) is taken for a forensics format.
 */
class ForensicsDetectionTest {
    private static final Set<Format> FORENSICS = EnumSet.of(Format.FLIGHT_RECORDER, Format.NCCL_RAS, Format.NCCL_TESTS);

    @Test
    void realCapturesAreDetectedByContent() {
        assumeTrue(Files.isDirectory(ForensicsFixtures.CAPTURES), "captures not present");
        Path c = ForensicsFixtures.CAPTURES;
        Map<String, Format> expected = Map.ofEntries(
                Map.entry("hang/fr/nccl_trace_rank_0", Format.FLIGHT_RECORDER),
                Map.entry("hang-timing/fr_in-flight_rank0.json", Format.FLIGHT_RECORDER),
                Map.entry("mismatch/fr_end_rank1.pkl", Format.FLIGHT_RECORDER),
                Map.entry("hang/ras-status.txt", Format.NCCL_RAS),
                Map.entry("hang/ras-status-verbose.json", Format.NCCL_RAS),
                Map.entry("ras-dead/ras-after-kill.json", Format.NCCL_RAS),
                Map.entry("ras-dead/ncclras-after-kill-v.txt", Format.NCCL_RAS),
                Map.entry("hang-timing/ncclras-hung.txt", Format.NCCL_RAS),
                Map.entry("nccl-tests/all_reduce_perf-g2.txt", Format.NCCL_TESTS),
                Map.entry("nccl-tests/all_reduce_perf-g2.json", Format.NCCL_TESTS),
                Map.entry("nccl-tests/reduce_scatter_perf-g2-C-S.txt", Format.NCCL_TESTS),
                Map.entry("hang/nccl.vm.1018.log", Format.NCCL_LOG),
                Map.entry("ras-dead/nccl.vm.2046.log", Format.NCCL_LOG),
                Map.entry("hang/torchrun-stdout.log", Format.NCCL_LOG));
        List<Path> paths = new ArrayList<>();
        expected.keySet().forEach(k -> paths.add(c.resolve(k)));
        ImportResult r = new FabricImporter().importPaths(paths, ImportProgress.NONE, Cancellation.NEVER);
        for (var e : expected.entrySet()) {
            assertEquals(e.getValue(), r.formats().get(c.resolve(e.getKey()).toString()), e.getKey());
        }
        // renamed, they are still what they are
        assertEquals(Format.FLIGHT_RECORDER, detect(c.resolve("hang/fr/nccl_trace_rank_1")));
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
                    if (n.contains("/forensics/") || n.contains("h200x2-forensics-nccl") || n.contains("/target/")
                            || n.endsWith(".gz") || n.endsWith(".zip") || n.endsWith(".png")) {
                        continue;
                    }
                    Format f = detect(p);
                    assertTrue(f == null || !FORENSICS.contains(f), p + " detected as " + f);
                    checked++;
                }
            }
        }
        assertTrue(checked > 50, "files checked: " + checked);
    }

    /** The detection FabricImporter applies: the pickle check on bytes, then Format.detect on the first lines. */
    private static Format detect(Path p) {
        byte[] head;
        try (InputStream in = Files.newInputStream(p)) {
            head = in.readNBytes(64 * 1024);
        } catch (IOException e) {
            return null;
        }
        if (FlightRecorderReader.looksLikePickle(head)) {
            return Format.FLIGHT_RECORDER;
        }
        String text = new String(head, StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>();
        int start = 0;
        while (lines.size() < 64 && start < text.length()) {
            int nl = text.indexOf('\n', start);
            if (nl < 0) {
                nl = text.length();
            }
            lines.add(text.substring(start, Math.min(nl, start + 4096)));
            start = nl + 1;
        }
        return Format.detect(lines);
    }
}
