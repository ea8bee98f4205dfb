package org.fabricscope.importers;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.model.core.Diagnostic;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Mutation fuzzing of every reader family and of the bundle reader, deterministic and fast enough
 * for every build: each seed under {@code ReaderFuzzTestInputs/<family>/} (and any crash reproducer
 * committed there) is read as is, then {@value #ROUNDS} times mutated with a {@link Random} seeded
 * from the file's name (byte flips, truncations, insertions of hostile tokens, duplicated and deleted
 * slices). The invariant: no exception escapes, every diagnostic names a source, and no diagnostic
 * message contains a Java class name ("Exception", "java.").
 *
 * <p>For a longer session raise the rounds: {@code -Dfabricscope.fuzz.rounds=10000}. A failure
 * prints the mutated input in hex; save it as a new file under the family's folder to keep it as a
 * regression test.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ReaderFuzzTest {
    static final int ROUNDS = 40;

    private static final byte[][] TOKENS = {
        "-1".getBytes(StandardCharsets.US_ASCII), "0".getBytes(StandardCharsets.US_ASCII),
        "99999999999999999999999".getBytes(StandardCharsets.US_ASCII), "0x".getBytes(StandardCharsets.US_ASCII),
        "\"".getBytes(StandardCharsets.US_ASCII), "[".getBytes(StandardCharsets.US_ASCII),
        "{".getBytes(StandardCharsets.US_ASCII), "<".getBytes(StandardCharsets.US_ASCII),
        "</".getBytes(StandardCharsets.US_ASCII), "\n".getBytes(StandardCharsets.US_ASCII),
        "\t".getBytes(StandardCharsets.US_ASCII), ":".getBytes(StandardCharsets.US_ASCII),
        "NaN".getBytes(StandardCharsets.US_ASCII), "-9223372036854775808".getBytes(StandardCharsets.US_ASCII),
        {0}, {(byte) 0xff}, {(byte) 0xc3}, {(byte) 0x80},
    };

    @TempDir
    Path tmp;

    private static int rounds() {
        return Integer.getInteger("fabricscope.fuzz.rounds", ROUNDS);
    }

    /** Text and binary readers, one file at a time through format detection. */
    @ParameterizedTest
    @ValueSource(strings = {"ibnet", "nccl", "k8s", "forensics", "host"})
    void readerFamily(String family) throws IOException {
        for (Path seed : seeds(family)) {
            byte[] data = Files.readAllBytes(seed);
            String name = seed.getFileName().toString();
            Random random = new Random(name.hashCode());
            check(name, data);
            for (int i = 0; i < rounds(); i++) {
                check(name, mutate(data, random));
            }
        }
    }

    /** Archives: tar, tar.gz and zip through the bundle reader, then their entries through the readers. */
    @ParameterizedTest
    @ValueSource(strings = {"bundle"})
    void bundleReader(String family) throws IOException {
        for (Path seed : seeds(family)) {
            byte[] data = Files.readAllBytes(seed);
            String name = seed.getFileName().toString();
            Random random = new Random(name.hashCode());
            checkPath(name, data);
            byte[] inner = name.endsWith(".gz") ? gunzip(data) : null;
            for (int i = 0; i < rounds(); i++) {
                if (inner != null && random.nextBoolean()) {
                    checkPath(name, gzip(mutate(inner, random))); // mutate the tar inside the gzip
                } else {
                    checkPath(name, mutate(data, random));
                }
            }
        }
    }

    static List<Path> seeds(String family) throws IOException {
        URL url = ReaderFuzzTest.class.getResource("ReaderFuzzTestInputs/" + family);
        assertNotNull(url, family);
        try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
            List<Path> seeds = files.filter(Files::isRegularFile).sorted().toList();
            assertTrue(!seeds.isEmpty(), family);
            return seeds;
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
    }

    static byte[] mutate(byte[] seed, Random random) {
        byte[] data = seed;
        int steps = 1 + random.nextInt(4);
        for (int s = 0; s < steps; s++) {
            int n = data.length;
            int at = n == 0 ? 0 : random.nextInt(n);
            switch (random.nextInt(7)) {
                case 0 -> { // flip a few bits
                    data = data.clone();
                    for (int k = 0; k < 1 + random.nextInt(8) && n > 0; k++) {
                        data[random.nextInt(n)] ^= (byte) (1 << random.nextInt(8));
                    }
                }
                case 1 -> data = Arrays.copyOf(data, at); // truncate
                case 2 -> data = insert(data, at, TOKENS[random.nextInt(TOKENS.length)]);
                case 3 -> { // random bytes
                    byte[] junk = new byte[1 + random.nextInt(16)];
                    random.nextBytes(junk);
                    data = insert(data, at, junk);
                }
                case 4 -> { // duplicate a slice
                    int len = Math.min(n - at, 1 + random.nextInt(256));
                    data = insert(data, at, Arrays.copyOfRange(data, at, at + len));
                }
                case 5 -> { // delete a slice
                    int len = Math.min(n - at, 1 + random.nextInt(64));
                    byte[] out = new byte[n - len];
                    System.arraycopy(data, 0, out, 0, at);
                    System.arraycopy(data, at + len, out, at, n - at - len);
                    data = out;
                }
                default -> { // overwrite a byte with an interesting one
                    if (n > 0) {
                        data = data.clone();
                        byte[] t = TOKENS[random.nextInt(TOKENS.length)];
                        data[at] = t[0];
                    }
                }
            }
        }
        return data;
    }

    private static byte[] insert(byte[] data, int at, byte[] what) {
        byte[] out = new byte[data.length + what.length];
        System.arraycopy(data, 0, out, 0, at);
        System.arraycopy(what, 0, out, at, what.length);
        System.arraycopy(data, at, out, at + what.length, data.length - at);
        return out;
    }

    private static void check(String name, byte[] data) {
        ImportSource source = new ImportSource(name, data.length, () -> new ByteArrayInputStream(data));
        ImportResult r;
        try {
            r = new FabricImporter().importSources(List.of(source), new ArrayList<>(), ImportProgress.NONE,
                    Cancellation.NEVER);
        } catch (ImportCancelledException e) {
            return;
        } catch (RuntimeException | Error e) {
            throw new AssertionError(name + ": " + e + "\ninput (hex): " + HexFormat.of().formatHex(data), e);
        }
        verify(name, data, r.model().diagnostics());
    }

    private void checkPath(String name, byte[] data) throws IOException {
        Path file = Files.write(tmp.resolve(name), data);
        ImportResult r;
        try {
            r = new FabricImporter().importPaths(List.of(file), ImportProgress.NONE, Cancellation.NEVER);
        } catch (ImportCancelledException e) {
            return;
        } catch (RuntimeException | Error e) {
            throw new AssertionError(name + ": " + e + "\ninput (hex): " + HexFormat.of().formatHex(data), e);
        } finally {
            Files.delete(file);
        }
        verify(name, data, r.model().diagnostics());
    }

    private static void verify(String name, byte[] data, List<Diagnostic> diagnostics) {
        for (Diagnostic d : diagnostics) {
            if (d.source() == null || d.source().isBlank() || d.message().contains("Exception")
                    || d.message().contains("java.")) {
                fail(name + ": " + d + "\ninput (hex): " + HexFormat.of().formatHex(data));
            }
        }
    }

    private static byte[] gunzip(byte[] gz) throws IOException {
        try (var in = new java.util.zip.GZIPInputStream(new ByteArrayInputStream(gz))) {
            return in.readAllBytes();
        }
    }

    private static byte[] gzip(byte[] raw) throws IOException {
        var bytes = new java.io.ByteArrayOutputStream();
        try (var out = new java.util.zip.GZIPOutputStream(bytes)) {
            out.write(raw);
        }
        return bytes.toByteArray();
    }
}
