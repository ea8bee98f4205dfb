package org.fabricscope.importers.forensics;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.model.FabricModel;
import org.junit.jupiter.api.Test;

/**
 * Every real forensics capture, cut short at many points and with bytes flipped at random (a fixed
 * seed), goes through detection, the readers and the checks without an exception: bad input is a
 * diagnostic, never a crash.
 */
class ForensicsHostileInputTest {
    @Test
    void truncatedAndCorruptedCapturesNeverThrow() throws Exception {
        assumeTrue(Files.isDirectory(ForensicsFixtures.CAPTURES), "captures not present");
        List<Path> files = new ArrayList<>();
        for (String dir : List.of("hang", "hang/fr", "hang-timing", "mismatch", "ras-dead", "nccl-tests")) {
            for (Path p : ForensicsFixtures.files(ForensicsFixtures.CAPTURES.resolve(dir))) {
                String n = p.getFileName().toString();
                if (!n.startsWith("nccl.") && !n.startsWith("expected-") && !n.endsWith(".log")) {
                    files.add(p);
                }
            }
        }
        files.add(ForensicsFixtures.resource("nvrx/gpu_error_1st/_dump_12"));
        files.add(ForensicsFixtures.resource("ras-doc/mismatch.txt"));
        assertTrue(files.size() > 30, files.toString());
        Random random = new Random(20261123);
        int runs = 0;
        for (Path p : files) {
            byte[] data = Files.readAllBytes(p);
            String name = p.getFileName().toString();
            for (int cut : new int[] {1, 2, 3, 7, data.length / 3, data.length / 2, data.length - 1}) {
                if (cut > 0 && cut < data.length) {
                    runs += load(name, java.util.Arrays.copyOf(data, cut));
                }
            }
            for (int i = 0; i < 8; i++) {
                byte[] bad = data.clone();
                for (int j = 0; j < 1 + bad.length / 200; j++) {
                    bad[random.nextInt(bad.length)] = (byte) random.nextInt(256);
                }
                runs += load(name, bad);
            }
        }
        assertTrue(runs > 300, "runs " + runs);
    }

    private static int load(String name, byte[] data) {
        assertDoesNotThrow(() -> {
            var sources = List.of(new ImportSource(name, data.length, () -> new ByteArrayInputStream(data), true));
            FabricModel m = new FabricImporter().importSources(sources, new ArrayList<>(), ImportProgress.NONE,
                    Cancellation.NEVER).model();
            ForensicsFixtures.diagnose(m);
        }, name);
        return 1;
    }
}
