package org.fabricscope.importers.forensics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.code_intelligence.jazzer.junit.FuzzTest;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.forensics.FlightRecorderAnalysis;
import org.fabricscope.model.forensics.FlightRecorderDump;
import org.junit.jupiter.api.Timeout;

/**
 * Coverage-guided fuzzing (Jazzer, {@code docs/decisions/0009-jazzer-fuzzing.md}) of a flight recorder dump
 * read beside the real dumps of a hang (2x H200: rank 1 never joined all_reduce 4), in its JSON form and as
 * a pickle. Seeds: real dumps, under {@code ForensicsFuzzTestInputs/<target>/}; the normal test run replays
 * them (and any {@code crash-*} reproducer). The contract: the import never throws; every diagnostic names
 * a file; reading twice gives the same model and diagnostics; and unless the fuzzed dump is the one the
 * analysis uses for a rank (it may legitimately stand for rank 0 or 1: the stated rule for two dumps of a
 * rank), the hang is still found, naming rank 1. Whatever the dump holds, it cannot take the others down.
 */
class ForensicsFuzzTest {
    private static final Path HANG = ForensicsFixtures.CAPTURES.resolve("hang/fr");
    private static final int TIMEOUT_SECONDS = 20;

    @FuzzTest(maxDuration = "15s")
    @Timeout(value = TIMEOUT_SECONDS, unit = TimeUnit.SECONDS)
    void flightRecorderJson(byte[] input) throws Exception {
        besideTheRealHang("fr/fuzz/nccl_trace_rank_1.json", input);
    }

    @FuzzTest(maxDuration = "15s")
    @Timeout(value = TIMEOUT_SECONDS, unit = TimeUnit.SECONDS)
    void flightRecorderPickle(byte[] input) throws Exception {
        besideTheRealHang("fr/fuzz/nccl_trace_rank_1", input);
    }

    private static void besideTheRealHang(String name, byte[] input) throws Exception {
        if (!Files.isDirectory(HANG)) {
            return;
        }
        Map<String, byte[]> files = new LinkedHashMap<>();
        for (Path p : ForensicsFixtures.files(HANG)) {
            files.put("fr/" + p.getFileName(), Files.readAllBytes(p));
        }
        files.put(name, input);
        FabricModel m = FrPickles.load(files);
        FabricModel again = FrPickles.load(files);
        assertEquals(m.diagnostics(), again.diagnostics());
        assertEquals(m.forensics().flightRecorder(), again.forensics().flightRecorder());
        for (Diagnostic d : m.diagnostics()) {
            assertTrue(files.containsKey(d.source()), d.toString());
            // a message may quote the file's own bad token ("Unrecognized token 'Exception05…'"): a word the
            // input itself holds proves nothing, as in ReaderFuzzTest; the reader drops runs of NUL bytes (a dump cut
            // short by a crash) before the parser sees the text, so "E<NULs>xception" is quoted as "Exception"
            String raw = new String(input, java.nio.charset.StandardCharsets.ISO_8859_1);
            String in = raw + "\n" + raw.replace("\0", "");
            for (String javaWord : List.of("Exception", "java.")) {
                assertFalse(d.message().contains(javaWord) && !in.contains(javaWord), d.toString());
            }
        }
        List<Finding> hang = ForensicsFixtures.findings(m, "collective-hang");
        boolean fuzzedIsUsed = FlightRecorderAnalysis.byRank(m.forensics().flightRecorder()).values().stream()
                .map(FlightRecorderDump::source).anyMatch(name::equals);
        if (!fuzzedIsUsed) {
            assertEquals(1, hang.size(), () -> ForensicsFixtures.diagnostics(m));
            assertTrue(hang.get(0).title().startsWith(
                    "Process group 0 (default_pg) hangs in all_reduce (seq 4): rank 1 never joined it"), hang.get(0).title());
        }
    }
}
