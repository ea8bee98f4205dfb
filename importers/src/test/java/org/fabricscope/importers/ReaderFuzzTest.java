package org.fabricscope.importers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

import com.code_intelligence.jazzer.junit.FuzzTest;

import org.fabricscope.importers.bundle.BundleReader;
import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.diagnosis.Diagnosis;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Coverage-guided fuzzing (Jazzer, {@code docs/decisions/0009-jazzer-fuzzing.md}) of every reader in
 * {@link FormatRegistry#standard()} and of the {@link BundleReader}.
 *
 * <p>Two fuzz targets. {@link #everyReader} takes {@code <reader id>\n<file content>}: the named
 * reader reads the content directly (so every reader meets every input, not only the ones detection
 * would give it), twice, and then the content goes through detection and import as a user's file
 * would; an input whose first line names no reader goes through detection and import only. Its seeds
 * are real files of each format under {@code ReaderFuzzTestInputs/everyReader/<reader id>/}, with the
 * id line in front ({@link #everyReaderHasItsOwnSeeds} keeps one per reader). {@link #bundleReader}
 * takes an archive (tar, tar.gz, zip, by magic bytes as the bundle reader tells them); an uncompressed
 * input is also gzipped and read from a folder, as a {@code .tar.gz} in a capture directory (the fuzzer
 * cannot forge gzip's checksum, so this is how it reaches a tar inside gzip). Seeds: small real
 * bundles under {@code ReaderFuzzTestInputs/bundleReader/}.
 *
 * <p>The contract checked: a reader never throws (input problems are diagnostics; the importer's guard
 * is for what a reader did not foresee, so its "internal error" diagnostic counts as a finding too);
 * every diagnostic names its file, a line inside it and says in words what is wrong (no Java class
 * names); the model builds and the checks run over it; reading the same bytes twice gives the same
 * diagnostics and model (and, for bundles, findings). Out of memory and stack overflow are findings (Jazzer reports any
 * {@link Throwable}); an input that takes longer than the {@link Timeout} is one as well.
 *
 * <p>{@code ./mvnw verify} replays every seed and reproducer (regression mode, in the normal test run)
 * and then fuzzes each target for a short fixed time in its own JVM (the {@code fuzz-*} surefire
 * executions in {@code importers/pom.xml}: Jazzer fuzzes one target per JVM). A finding is saved as
 * {@code ReaderFuzzTestInputs/<target>/crash-<sha1>} and replayed by every build from then on. A longer
 * session: README, "Fuzzing".
 */
class ReaderFuzzTest {
    /**
     * Inputs a long session found reaching new code (a sample of its corpus, at most 8 per reader and 2 KB
     * each, 40 bundles up to 4 KB): replayed by every build, and where each build's fuzzing starts.
     */
    static final String CORPUS = "corpus";
    /** The longest an input may take (libFuzzer's {@code -timeout} when fuzzing, JUnit's in regression). */
    private static final int TIMEOUT_SECONDS = 20;

    @TempDir
    Path tmp;

    /** {@code <reader id>\n<content>}: that reader, directly; then the content as a user's file. */
    @FuzzTest(maxDuration = "15s")
    @Timeout(value = TIMEOUT_SECONDS, unit = TimeUnit.SECONDS)
    void everyReader(byte[] input) {
        int nl = indexOf(input, (byte) '\n', 64);
        FormatReader reader = nl < 0 ? null
                : FormatRegistry.standard().byId(new String(input, 0, nl, StandardCharsets.ISO_8859_1));
        byte[] content = reader == null ? input : Arrays.copyOfRange(input, nl + 1, input.length);
        fuzzOne(reader, content);
    }

    /**
     * The readers added since {@link #everyReader} was written (NCCL RAS text and JSON, nccl-tests, NCCL
     * Inspector, perftest, the host-evidence readers with lspci, and the NCCL log reader that reads
     * step-time and training log lines): fuzzed on their own so that the budget is not spread over the
     * whole registry. The input is {@code <reader id>\n<content>} as for {@link #everyReader}; when its
     * first line names none of them, its first byte picks one and the whole input is its content, so every
     * input reaches one of these readers. Seeds: real files of each, under
     * {@code ReaderFuzzTestInputs/forensicsAndHostReaders/<id>--<file>}.
     */
    @FuzzTest(maxDuration = "15s")
    @Timeout(value = TIMEOUT_SECONDS, unit = TimeUnit.SECONDS)
    void forensicsAndHostReaders(byte[] input) {
        if (input.length == 0) {
            return;
        }
        int nl = indexOf(input, (byte) '\n', 64);
        String id = nl < 0 ? "" : new String(input, 0, nl, StandardCharsets.ISO_8859_1);
        if (NEWER_READERS.contains(id)) {
            fuzzOne(FormatRegistry.standard().byId(id), Arrays.copyOfRange(input, nl + 1, input.length));
        } else {
            fuzzOne(FormatRegistry.standard().byId(NEWER_READERS.get((input[0] & 0xff) % NEWER_READERS.size())), input);
        }
    }

    /** The readers {@link #forensicsAndHostReaders} fuzzes. */
    static final List<String> NEWER_READERS = List.of("nccl-ras", "nccl-tests", "nccl-inspector", "perftest", "ibstat",
            "ibstatus", "ibv-devinfo", "gid-table", "ulimit", "dev-infiniband", "ip-addr", "df-shm", "env", "lspci",
            "eadm-stat", "kernel-log", "nccl-log");

    /** {@code reader} (when not null) reads {@code content} directly, twice; then the content is imported as a user's file. */
    private static void fuzzOne(FormatReader reader, byte[] content) {
        String name = reader == null ? "fuzz.txt" : "fuzz." + reader.id();
        if (reader != null) {
            Outcome first = readDirectly(reader, name, content);
            Outcome second = readDirectly(reader, name, content);
            assertEquals(first, second, () -> "reading the same bytes twice differs\n" + hex(content));
        }
        ImportSource source = new ImportSource(name, content.length, () -> new ByteArrayInputStream(content));
        ImportResult r = new FabricImporter().importSources(List.of(source), new ArrayList<>(), ImportProgress.NONE,
                Cancellation.NEVER);
        Outcome imported = outcome(r.model(), r.thresholds());
        checkDiagnostics(imported.diagnostics(), content, List.of(name));
    }

    /** An archive (tar, tar.gz, zip) named on its own; an uncompressed input also gzipped, in a folder. */
    @FuzzTest(maxDuration = "15s")
    @Timeout(value = TIMEOUT_SECONDS, unit = TimeUnit.SECONDS)
    void bundleReader(byte[] input) throws IOException {
        Path file = Files.write(tmp.resolve("bundle"), input);
        try {
            Outcome first = importPath(file, input);
            assertEquals(first, importPath(file, input), () -> "importing the same bundle twice differs\n" + hex(input));
        } finally {
            Files.delete(file);
        }
        if (!compressed(input)) {
            Path folder = Files.createDirectories(tmp.resolve("capture"));
            Path tgz = Files.write(folder.resolve("bundle.tar.gz"), gzip(input));
            try {
                importPath(folder, input);
            } finally {
                Files.delete(tgz);
                Files.delete(folder);
            }
        }
    }

    /** Each reader {@link #forensicsAndHostReaders} fuzzes has a real file of its own format among its seeds. */
    @Test
    void newerReadersHaveRealSeeds() throws IOException {
        Path root = inputs("forensicsAndHostReaders");
        for (String id : NEWER_READERS) {
            assertNotNull(FormatRegistry.standard().byId(id), id);
            boolean found = false;
            try (Stream<Path> files = Files.list(root)) {
                for (Path seed : files.filter(f -> f.getFileName().toString().startsWith(id + "--")).toList()) {
                    byte[] input = Files.readAllBytes(seed);
                    assertTrue(new String(input, 0, Math.min(input.length, id.length() + 1), StandardCharsets.ISO_8859_1)
                            .equals(id + "\n"), seed + " must start with the line " + id);
                    byte[] content = Arrays.copyOfRange(input, id.length() + 1, input.length);
                    String name = seed.getFileName().toString();
                    ImportResult r = new FabricImporter().importSources(
                            List.of(new ImportSource(name, content.length, () -> new ByteArrayInputStream(content))),
                            new ArrayList<>(), ImportProgress.NONE, Cancellation.NEVER);
                    assertEquals(id, r.formats().get(name), seed + " is not detected as its reader's format");
                    found = true;
                }
            }
            assertTrue(found, "no seed for " + id + " under " + root);
        }
    }

    /** Every reader has seeds of its own format: each seed's content is detected as the reader it names. */
    @Test
    void everyReaderHasItsOwnSeeds() throws IOException {
        Map<String, List<String>> seeds = new TreeMap<>();
        Path root = inputs("everyReader");
        for (FormatReader reader : FormatRegistry.standard().readers()) {
            Path dir = root.resolve(reader.id());
            assertTrue(Files.isDirectory(dir), "no seeds for reader " + reader.id() + " under " + dir);
            try (Stream<Path> files = Files.list(dir)) {
                for (Path seed : files.filter(Files::isRegularFile).sorted().toList()) {
                    byte[] input = Files.readAllBytes(seed);
                    String head = (reader.id() + "\n");
                    assertTrue(new String(input, 0, Math.min(input.length, head.length()), StandardCharsets.ISO_8859_1)
                            .equals(head), seed + " must start with the line " + reader.id());
                    byte[] content = Arrays.copyOfRange(input, head.length(), input.length);
                    String name = seed.getFileName().toString();
                    ImportResult r = new FabricImporter().importSources(
                            List.of(new ImportSource(name, content.length, () -> new ByteArrayInputStream(content))),
                            new ArrayList<>(), ImportProgress.NONE, Cancellation.NEVER);
                    assertEquals(reader.id(), r.formats().get(name), seed + " is not detected as its reader's format");
                    seeds.computeIfAbsent(reader.id(), k -> new ArrayList<>()).add(name);
                }
            }
            assertFalse(seeds.getOrDefault(reader.id(), List.of()).isEmpty(), "no seeds for reader " + reader.id());
        }
        try (Stream<Path> dirs = Files.list(root)) { // files here are Jazzer's crash reproducers
            dirs.filter(Files::isDirectory).filter(d -> !d.getFileName().toString().equals(CORPUS)).forEach(d -> assertNotNull(FormatRegistry.standard().byId(d.getFileName().toString()),
                    "seed folder " + d + " names no reader"));
        }
    }

    /** The checks can fail: a fuzz target whose assertions never fire would find nothing and say so. */
    @Test
    void theContractChecksCatchWhatTheyShould() {
        byte[] in = "line one\nline two\n".getBytes(StandardCharsets.US_ASCII);
        List<String> names = List.of("f.txt");
        assertThrows(AssertionError.class, () -> checkDiagnostics(List.of(Diagnostic.error("f.txt", 2,
                "internal error reading this file at line 2 (index out of range); stopped there, kept what was read before")),
                in, names));
        assertThrows(AssertionError.class, () -> checkDiagnostics(List.of(Diagnostic.warning("f.txt", 1,
                "bad value: java.lang.NumberFormatException")), in, names));
        assertThrows(AssertionError.class, () -> checkDiagnostics(List.of(Diagnostic.warning("other.txt", 1, "bad")),
                in, names));
        assertThrows(AssertionError.class, () -> checkDiagnostics(List.of(Diagnostic.warning("f.txt", 9, "bad")),
                in, names));
        // a message quoting the input's own words is no finding
        byte[] quoting = "CA 60internal error Exception\n".getBytes(StandardCharsets.US_ASCII);
        checkDiagnostics(List.of(Diagnostic.warning("f.txt", 1, "expected a port line; got: CA 60internal error Exception")),
                quoting, names);
        FormatReader throwing = new FormatReader() {
            @Override
            public String id() {
                return "throwing";
            }

            @Override
            public String label() {
                return "a reader that throws";
            }

            @Override
            public int confidence(Head head) {
                return CERTAIN;
            }

            @Override
            public ImportPhase phase() {
                return ImportPhase.TOPOLOGY;
            }

            @Override
            public void read(InputStream stream, ReadContext ctx) {
                throw new IllegalStateException("boom");
            }
        };
        assertThrows(IllegalStateException.class, () -> readDirectly(throwing, "f.txt", in));
    }

    /** What a read gave: everything a second read of the same bytes must give again. */
    record Outcome(List<Diagnostic> diagnostics, int nodes, int cables, int hosts, List<String> sources,
                   List<String> findings) {
    }

    private static Outcome readDirectly(FormatReader reader, String name, byte[] content) {
        FabricModelBuilder builder = new FabricModelBuilder();
        ReadContext ctx = new ReadContext(builder, Cancellation.NEVER).file(name);
        if (reader.phase() != ImportPhase.SKIPPED) {
            builder.source(name);
        }
        try (InputStream in = new ByteArrayInputStream(content)) {
            reader.read(in, ctx);
        } catch (IOException e) {
            // the stream is in memory: only the reader itself could have thrown this, and readers report
            throw new AssertionError(reader.id() + " threw instead of reporting\n" + hex(content), e);
        }
        ctx.applyStates();
        FabricModel model = builder.build();
        checkDiagnostics(model.diagnostics(), content, List.of(name));
        return new Outcome(model.diagnostics(), model.nodes().size(), model.cables().size(), model.hosts().size(),
                model.sources(), List.of()); // the checks run once, on the import below
    }

    private Outcome importPath(Path path, byte[] input) {
        ImportResult r = new FabricImporter().importPaths(List.of(path), ImportProgress.NONE, Cancellation.NEVER);
        Outcome o = outcome(r.model(), r.thresholds());
        // archive entries are named <archive>!/<entry>; lines are counted in the entry, not checked here
        for (Diagnostic d : o.diagnostics()) {
            assertTrue(d.source() != null && d.source().startsWith(path.toString()), () -> "diagnostic names "
                    + d.source() + ", not the bundle: " + d + "\n" + hex(input));
            checkWords(d, input);
        }
        return o;
    }

    private static Outcome outcome(FabricModel model, ErrorThresholds found) {
        ErrorThresholds thresholds = found != null ? found : ErrorThresholds.defaults();
        List<String> findings = Diagnosis.standard(thresholds).run(model, thresholds).stream()
                .map(ReaderFuzzTest::describe).toList();
        return new Outcome(model.diagnostics(), model.nodes().size(), model.cables().size(), model.hosts().size(),
                model.sources(), findings);
    }

    private static String describe(Finding f) {
        assertNotNull(f.id(), "finding without id");
        return f.id() + " " + f.severity() + " " + f.title() + " " + f.refs();
    }

    /** Names its file, a line in it (0: the whole file; one past the end: end of input), and words. */
    private static void checkDiagnostics(List<Diagnostic> diagnostics, byte[] content, List<String> names) {
        int lines = 1;
        for (byte b : content) {
            if (b == '\n' || b == '\r') {
                lines++; // CR alone ends a line for some readers; an upper bound either way
            }
        }
        for (Diagnostic d : diagnostics) {
            assertTrue(names.contains(d.source()), () -> "diagnostic names " + d.source() + ": " + d + "\n" + hex(content));
            int max = lines;
            assertTrue(d.line() >= 0 && d.line() <= max + 1,
                    () -> "diagnostic line " + d.line() + " outside the input's " + max + " lines: " + d + "\n" + hex(content));
            checkWords(d, content);
        }
    }

    /**
     * Says in words what is wrong. Messages quote the input ("got: ..."), so a word that the input itself
     * holds proves nothing: only what the reader added counts.
     */
    private static void checkWords(Diagnostic d, byte[] input) {
        String m = d.message();
        assertTrue(m != null && !m.isBlank(), () -> "diagnostic without a message: " + d + "\n" + hex(input));
        assertFalse(m.startsWith("internal error"), () -> "a reader threw (the importer's guard caught it): " + d
                + "\n" + hex(input));
        assertFalse(m.startsWith("ran out of memory"), () -> "a reader ran out of memory (the importer's guard caught it): "
                + d + "\n" + hex(input));
        // runs of NUL bytes (a file cut short by a crash) are dropped before some readers see the text: a word they
        // split ("E<NULs>xception") is the input's too
        String latin = new String(input, StandardCharsets.ISO_8859_1);
        String in = new String(input, StandardCharsets.UTF_8) + "\n" + latin + "\n" + latin.replace("\0", "");
        for (String javaWord : List.of("Exception", "java.", "Error:")) {
            assertFalse(m.contains(javaWord) && !in.contains(javaWord),
                    () -> "diagnostic names a Java class: " + d + "\n" + hex(input));
        }
    }

    private static int indexOf(byte[] data, byte b, int within) {
        for (int i = 0; i < Math.min(data.length, within); i++) {
            if (data[i] == b) {
                return i;
            }
        }
        return -1;
    }

    /** Already gzip or zip: gzipping it again would only test the gzip layer twice. */
    private static boolean compressed(byte[] data) {
        return data.length >= 2 && ((data[0] == 0x1f && (data[1] & 0xff) == 0x8b) || (data[0] == 'P' && data[1] == 'K'));
    }

    private static byte[] gzip(byte[] raw) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(raw);
        }
        return bytes.toByteArray();
    }

    /** The head of the input, enough to recognise it; the whole input is in the crash file Jazzer writes. */
    private static String hex(byte[] data) {
        int shown = Math.min(data.length, 256);
        return "input (" + data.length + " bytes, hex): " + HexFormat.of().formatHex(data, 0, shown)
                + (data.length > shown ? "..." : "");
    }

    static Path inputs(String method) throws IOException {
        URL url = ReaderFuzzTest.class.getResource("ReaderFuzzTestInputs/" + method);
        assertNotNull(url, method);
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
    }
}
