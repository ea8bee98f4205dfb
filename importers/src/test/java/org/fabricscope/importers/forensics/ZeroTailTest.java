package org.fabricscope.importers.forensics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.importers.core.ZeroRuns;
import org.fabricscope.model.core.Diagnostic;
import org.junit.jupiter.api.Test;

/**
 * A node that lost power leaves its log ending in a few KB of zero bytes. Such a log is judged by its
 * text, read up to the zeros (and past them, when text follows), and the zeros are reported once: the
 * findings of the real hang capture are the same with and without a zero tail on a rank's NCCL log.
 */
class ZeroTailTest {
    private static final Path HANG = ForensicsFixtures.CAPTURES.resolve("hang");

    private static List<ImportSource> hangInputs(String tailed, byte[] tail) throws Exception {
        List<ImportSource> out = new ArrayList<>();
        List<Path> files = new ArrayList<>(ForensicsFixtures.files(HANG.resolve("fr")));
        for (String n : List.of("ras-status.txt", "ras-status.json", "nccl.vm.1018.log", "nccl.vm.1019.log",
                "torchrun-stdout.log")) {
            files.add(HANG.resolve(n));
        }
        for (Path p : files) {
            byte[] data = Files.readAllBytes(p);
            if (p.getFileName().toString().equals(tailed)) {
                byte[] all = Arrays.copyOf(data, data.length + tail.length);
                System.arraycopy(tail, 0, all, data.length, tail.length);
                data = all;
            }
            byte[] d = data;
            out.add(new ImportSource(p.toString(), d.length, () -> new ByteArrayInputStream(d), true));
        }
        return out;
    }

    private static ImportResult load(List<ImportSource> sources) {
        return new FabricImporter().importSources(sources, new ArrayList<>(), ImportProgress.NONE, Cancellation.NEVER);
    }

    private static List<String> findings(ImportResult r) {
        return ForensicsFixtures.diagnose(r.model()).stream().map(f -> f.id() + " " + f.title()).sorted().toList();
    }

    @Test
    void aRealNcclLogWithAZeroTailKeepsItsFindings() throws Exception {
        assumeTrue(Files.isDirectory(HANG), "captures not present");
        ImportResult plain = load(hangInputs("", new byte[0]));
        ImportResult tailed = load(hangInputs("nccl.vm.1018.log", new byte[6 * 1024]));
        String log = HANG.resolve("nccl.vm.1018.log").toString();
        assertEquals(plain.formats().get(log), tailed.formats().get(log), "detected as before, not as binary");
        assertFalse(findings(plain).isEmpty());
        assertEquals(findings(plain), findings(tailed));
        List<Diagnostic> about = tailed.model().diagnostics().stream().filter(d -> d.source().equals(log)).toList();
        assertEquals(1, about.size(), about.toString());
        assertTrue(about.get(0).message().startsWith("6144 zero bytes from byte "
                + Files.size(HANG.resolve("nccl.vm.1018.log"))), about.toString());
        long lines = Files.readAllLines(HANG.resolve("nccl.vm.1018.log")).size();
        assertEquals(lines + 1, about.get(0).line(), "the line after the last one written");
    }

    @Test
    void textAfterTheZerosIsReadToo() throws Exception {
        assumeTrue(Files.isDirectory(HANG), "captures not present");
        byte[] log = Files.readAllBytes(HANG.resolve("nccl.vm.1019.log"));
        int half = new String(log, java.nio.charset.StandardCharsets.ISO_8859_1).indexOf('\n', log.length / 2) + 1;
        byte[] zeros = new byte[4096];
        byte[] crashed = new byte[log.length + zeros.length];
        System.arraycopy(log, 0, crashed, 0, half);
        System.arraycopy(log, half, crashed, half + zeros.length, log.length - half);
        assertArrayEqualsAfterDropping(log, crashed);
    }

    private static void assertArrayEqualsAfterDropping(byte[] expected, byte[] withZeros) throws Exception {
        ZeroRuns.Dropping d = ZeroRuns.dropping(new ImportSource("x", withZeros.length,
                () -> new ByteArrayInputStream(withZeros)));
        byte[] read;
        try (InputStream in = d.source().open()) {
            read = in.readAllBytes();
        }
        assertTrue(Arrays.equals(expected, read), "the zero block alone is left out");
        assertTrue(d.report().message().startsWith("4096 zero bytes"), d.report().toString());
    }

    @Test
    void shortNulRunsArePassedOnForTheReadersToReport() throws Exception {
        byte[] data = "a\0\0b\nc\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        ZeroRuns.Dropping d = ZeroRuns.dropping(new ImportSource("x", data.length, () -> new ByteArrayInputStream(data)));
        try (InputStream in = d.source().open()) {
            assertTrue(Arrays.equals(data, in.readAllBytes()));
        }
        assertEquals(null, d.report());
    }

    @Test
    void aFileOfZerosAloneIsSkippedWithOneWarning() {
        byte[] zeros = new byte[8192];
        ImportResult r = load(List.of(new ImportSource("nccl.log", zeros.length, () -> new ByteArrayInputStream(zeros),
                true)));
        List<Diagnostic> d = r.model().diagnostics();
        assertEquals(1, d.size(), d.toString());
        assertTrue(d.get(0).message().contains("zero bytes and nothing else"), d.toString());
    }
}
