package org.fabricscope.importers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Severity;
import org.junit.jupiter.api.Test;

/**
 * Running out of memory or stack while reading one input is that input's failure: a diagnostic naming
 * it, and the other files of the import are read. Each path is tried: a reader reading on the import's
 * thread, a parse ahead on the parse threads and its adding to the model, format detection on the
 * sniffing threads, and listing the named paths.
 */
class ReaderGuardTest {
    private static final String OOM_TEXT = "ran out of memory reading this file";

    /** Claims files starting with {@code GUARD}; the phase it fails in is named by the second line. */
    private record Failing(Supplier<? extends Error> failure) implements FormatReader {
        @Override
        public String id() {
            return "guard";
        }

        @Override
        public String label() {
            return "guard test format";
        }

        @Override
        public ImportPhase phase() {
            return ImportPhase.TOPOLOGY;
        }

        @Override
        public int confidence(Head head) {
            if (head.lines().get(0).equals("GUARD")) {
                if (head.lines().size() > 1 && head.lines().get(1).equals("detect")) {
                    throw failure.get();
                }
                return CERTAIN;
            }
            return NONE;
        }

        @Override
        public void read(InputStream in, ReadContext ctx) throws IOException {
            in.readAllBytes();
            throw failure.get();
        }

        @Override
        public Parse parallelParse(ReadContext ctx) {
            return (in, source, size, cancel) -> {
                String text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                if (text.contains("parse")) {
                    throw failure.get();
                }
                if (text.contains("apply")) {
                    return c -> {
                        throw failure.get();
                    };
                }
                return c -> {
                    throw failure.get();
                };
            };
        }
    }

    /** Reads without parsing ahead (only {@link FormatReader#read}). */
    private record Serial(Failing inner) implements FormatReader {
        @Override
        public String id() {
            return inner.id();
        }

        @Override
        public String label() {
            return inner.label();
        }

        @Override
        public ImportPhase phase() {
            return inner.phase();
        }

        @Override
        public int confidence(Head head) {
            return inner.confidence(head);
        }

        @Override
        public void read(InputStream in, ReadContext ctx) throws IOException {
            inner.read(in, ctx);
        }
    }

    private static ImportResult importWith(FormatReader reader, ImportSource... sources) {
        List<FormatReader> readers = new ArrayList<>(FormatRegistry.standard().readers());
        readers.add(reader);
        return new FabricImporter(FormatRegistry.of(readers)).importSources(List.of(sources), new ArrayList<>(),
                ImportProgress.NONE, Cancellation.NEVER);
    }

    private static List<Diagnostic> errorsOf(ImportResult r, String source) {
        return r.model().diagnostics().stream().filter(d -> d.severity() == Severity.ERROR && d.source().equals(source))
                .toList();
    }

    private static ImportSource[] files(String guard) {
        return new ImportSource[] {TestSupport.source("before.txt", ReaderIsolationTest.TOPO),
            TestSupport.source("guard.txt", guard), TestSupport.source("after.txt", ReaderIsolationTest.TOPO
                    .replace("leaf-1", "leaf-9").replace("2c90200400000", "2c90200400900"))};
    }

    private static void otherFilesRead(ImportResult r) {
        assertNotNull(r.model().node(ReaderIsolationTest.SW1), "the file before is kept");
        assertNotNull(r.model().node(0x0002c90200400900L), "the file after is read");
    }

    /** A real OutOfMemoryError: an array the VM cannot give, as a reader sized by a hostile count would ask for. */
    private static Error realOom() {
        try {
            long[] huge = new long[Integer.MAX_VALUE - 2];
            return new AssertionError("allocated " + huge.length);
        } catch (OutOfMemoryError e) {
            return e;
        }
    }

    @Test
    void outOfMemoryInAReaderIsThatFilesDiagnostic() {
        ImportResult r = importWith(new Serial(new Failing(ReaderGuardTest::realOom)), files("GUARD\nread\n"));
        List<Diagnostic> e = errorsOf(r, "guard.txt");
        assertEquals(1, e.size(), r.model().diagnostics().toString());
        assertTrue(e.get(0).message().startsWith(OOM_TEXT), e.toString());
        assertTrue(e.get(0).message().contains("kept what was read before"), e.toString());
        otherFilesRead(r);
    }

    @Test
    void stackOverflowInAReaderIsThatFilesDiagnostic() {
        ImportResult r = importWith(new Serial(new Failing(StackOverflowError::new)), files("GUARD\nread\n"));
        List<Diagnostic> e = errorsOf(r, "guard.txt");
        assertEquals(1, e.size(), r.model().diagnostics().toString());
        assertTrue(e.get(0).message().contains("input nested too deeply"), e.toString());
        otherFilesRead(r);
    }

    @Test
    void eachFailureOnTheParseThreadsIsThatFilesDiagnostic() {
        for (Supplier<? extends Error> f : List.<Supplier<? extends Error>>of(ReaderGuardTest::realOom,
                StackOverflowError::new)) {
            for (String where : List.of("parse", "apply")) {
                ImportResult r = importWith(new Failing(f), files("GUARD\n" + where + "\n"));
                List<Diagnostic> e = errorsOf(r, "guard.txt");
                assertEquals(1, e.size(), where + ": " + r.model().diagnostics());
                assertTrue(e.get(0).message().startsWith(OOM_TEXT) || e.get(0).message().contains("nested too deeply"),
                        e.toString());
                otherFilesRead(r);
            }
        }
    }

    @Test
    void eachFailureInFormatDetectionIsThatFilesDiagnostic() {
        for (Supplier<? extends Error> f : List.<Supplier<? extends Error>>of(ReaderGuardTest::realOom,
                StackOverflowError::new)) {
            ImportResult r = importWith(new Failing(f), files("GUARD\ndetect\n"));
            List<Diagnostic> e = errorsOf(r, "guard.txt");
            assertEquals(1, e.size(), r.model().diagnostics().toString());
            assertTrue(e.get(0).message().contains("telling this file's format"), e.toString());
            otherFilesRead(r);
        }
    }
}
