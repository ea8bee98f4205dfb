package org.fabricscope.importers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.evidence.HostEvidence;
import org.junit.jupiter.api.Test;

/**
 * A file that declares its format ({@code #fabricscope-format: <id>}) is read by that reader alone, with
 * its line numbers kept; pasted output is checked by the step's readers only ({@link PasteReaders}).
 */
class DeclaredFormatTest {
    private static ImportResult load(String name, String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        ImportSource s = new ImportSource(name, b.length, () -> new java.io.ByteArrayInputStream(b), true);
        return new FabricImporter().importSources(List.of(s), List.of(), ImportProgress.NONE, Cancellation.NEVER);
    }

    private static HostEvidence only(FabricModel m) {
        assertEquals(1, m.hostEvidence().size(), m.hostEvidence().toString());
        return m.hostEvidence().values().iterator().next();
    }

    @Test
    void aNumberDeclaredAsUlimitIsALockedMemoryLimitWithItsLineNumber() {
        ImportResult r = load("paste.txt", PasteReaders.declared("ulimit", "3"));
        assertEquals("ulimit", r.formats().get("paste.txt"));
        HostEvidence h = only(r.model());
        assertEquals(3, h.memlock().kbytes());
        assertEquals(2, h.memlock().evidence().line(), "the declaration is line 1; the output keeps its own line numbers");
    }

    @Test
    void theDeclarationWinsOverWhatDetectionWouldSay() {
        String ulimitA = "max locked memory           (kbytes, -l) 64\n";
        assertEquals("ulimit", load("a.txt", ulimitA).formats().get("a.txt"));
        ImportResult r = load("b.txt", PasteReaders.declared("ibstat", ulimitA));
        assertEquals("ibstat", r.formats().get("b.txt"), "read by the declared reader, which finds nothing in it");
        assertTrue(r.model().hostEvidence().values().stream().allMatch(h -> h.memlock() == null));
    }

    @Test
    void anIdNoReaderHasSkipsTheFileWithAWarning() {
        ImportResult r = load("c.txt", "#fabricscope-format: no-such-format\n64\n");
        assertNull(r.formats().get("c.txt"));
        assertTrue(r.model().diagnostics().stream().anyMatch(d -> d.message().contains("declares the format 'no-such-format'")),
                r.model().diagnostics().toString());
    }

    @Test
    void aPasteIsClaimedOnlyByTheStepsReadersAndReadAsThem() {
        PasteReaders readers = new PasteReaders();
        assertEquals("ulimit", readers.claim("64\n", List.of("ulimit")));
        assertNull(readers.claim("64\n", List.of("ibstat")), "ibstat's reader does not take a number");
        assertEquals("ulimit", readers.detect("max locked memory           (kbytes, -l) 64\n"));
        assertEquals(List.of("locked-memory limit 64 kB"), readers.read("64\n", "ulimit"));
        assertEquals("ulimit -a / -l", readers.label("ulimit"));
        assertEquals("no-such-format", readers.label("no-such-format"));
    }
}
