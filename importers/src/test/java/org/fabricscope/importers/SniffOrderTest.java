package org.fabricscope.importers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.model.core.Diagnostic;
import org.junit.jupiter.api.Test;

/**
 * File heads are read on several threads: what each file's head says (its format, or why it is skipped)
 * still reaches the model in file order, the same as when each file is imported alone.
 */
class SniffOrderTest {
    private static final String IBNET = """
            vendid=0x2c9
            devid=0xd2f0
            switchguid=0x2c90200400000(2c90200400000)
            Switch\t41 "S-0002c90200400000"\t\t# "leaf-1" enhanced port 0 lid 2 lmc 0
            [1]\t"H-0002c90300001000"[1](2c90300001001) \t\t# "node-01 mlx5_0" lid 10 4xHDR
            """;

    private static ImportSource source(int i, int kind) {
        String name = "f" + i + "-" + kind;
        return switch (kind) {
            case 0 -> new ImportSource(name, 0, () -> new ByteArrayInputStream(new byte[0]), true); // empty
            case 1 -> { // binary junk, no reader claims it
                byte[] b = new byte[4096];
                new Random(i).nextBytes(b);
                yield new ImportSource(name, b.length, () -> new ByteArrayInputStream(b), true);
            }
            case 2 -> new ImportSource(name, 20, () -> new ByteArrayInputStream(
                    ("nothing anyone reads " + i + "\n").getBytes(StandardCharsets.UTF_8)), true); // unknown text
            case 3 -> new ImportSource(name, 10, () -> {
                if (i % 2 == 0) {
                    throw new IOException("disk went away " + i); // cannot be opened
                }
                throw new java.io.UncheckedIOException(new IOException("archive entry gone " + i));
            }, true);
            default -> new ImportSource(name, IBNET.length(), () -> new ByteArrayInputStream(
                    IBNET.getBytes(StandardCharsets.UTF_8)), true);
        };
    }

    private static List<String> sniffMessages(ImportResult r) {
        List<String> out = new ArrayList<>();
        for (Diagnostic d : r.model().diagnostics()) {
            String m = d.message();
            if (m.contains("file is empty") || m.contains("binary file") || m.contains("cannot read")
                    || m.contains("not a format")) {
                out.add(d.source() + ": " + m);
            }
        }
        return out;
    }

    @Test
    void headsReadTogetherReportInFileOrderAsEachFileAlone() {
        Random r = new Random(7);
        List<ImportSource> sources = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            sources.add(source(i, r.nextInt(5)));
        }
        ImportResult together = new FabricImporter().importSources(sources, new ArrayList<>(), ImportProgress.NONE,
                Cancellation.NEVER);
        List<String> expected = new ArrayList<>();
        List<Map.Entry<String, String>> expectedFormats = new ArrayList<>();
        for (ImportSource s : sources) {
            ImportResult alone = new FabricImporter().importSources(List.of(s), new ArrayList<>(), ImportProgress.NONE,
                    Cancellation.NEVER);
            expected.addAll(sniffMessages(alone));
            expectedFormats.addAll(alone.formats().entrySet());
        }
        assertEquals(expected, sniffMessages(together));
        assertEquals(expectedFormats, new ArrayList<>(together.formats().entrySet()));
    }
}
