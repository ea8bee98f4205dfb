package org.fabricscope.importers;

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
import java.util.TreeMap;
import java.util.stream.Stream;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.importers.bundle.BundleReader;
import org.fabricscope.model.core.Diagnostic;
import org.junit.jupiter.api.Test;

/**
 * Every real file under {@code sample-fabrics/} and this module's test resources is detected by
 * the standard {@link FormatRegistry} as the format recorded in {@code detection/expected-formats.tsv}
 * (captured from {@code Format.detect}, the detection before the reader registry, then renamed to
 * reader ids one to one, and for files added on main since, from main's {@code Format.detect};
 * {@code -} where the file is empty or binary).
 * Regenerate with {@code -Dfabricscope.detection.write=true} only when a change of detection is
 * intended, and say so in the commit.
 */
class FormatDetectionTest {
    static final Path ROOT = Path.of("..");
    static final Path SAMPLES = ROOT.resolve("sample-fabrics");
    static final Path RESOURCES = Path.of("src", "test", "resources");
    static final Path EXPECTED = RESOURCES.resolve("detection").resolve("expected-formats.tsv");

    /** Source name (relative to the repository root, archive entries with {@code !/}) to format. */
    static Map<String, String> detectAll() throws IOException {
        Map<String, String> out = new TreeMap<>();
        List<Path> files = new ArrayList<>();
        files.addAll(files(SAMPLES, List.of("src", "target")));
        // org/: ReaderFuzzTest's seeds (copies of files here) and crash reproducers, damaged on purpose
        files.addAll(files(RESOURCES, List.of("detection", "org")));
        for (Path f : files) {
            List<Diagnostic> early = new ArrayList<>();
            for (ImportSource s : new BundleReader(early).expand(f)) {
                out.put(key(s.name()), detect(s));
            }
            // the sparse-entry fixture is refused on purpose (HostileBundlesTest); every other archive expands cleanly
            assertTrue(early.stream().allMatch(d -> d.source().contains("gnu-sparse.tar.gz")), early.toString());
        }
        return out;
    }

    private static List<Path> files(Path dir, List<String> skip) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile)
                    .filter(p -> {
                        Path rel = dir.relativize(p);
                        return !skip.contains(rel.getName(0).toString()) && !rel.toString().startsWith(".");
                    })
                    .sorted().toList();
        }
    }

    private static String key(String name) {
        String n = name.replace('\\', '/');
        if (n.startsWith("../")) {
            return n.substring(3);
        }
        return "importers/" + n;
    }

    /** The format the standard registry detects in one source's head, as the importer does. */
    private static String detect(ImportSource s) throws IOException {
        byte[] head;
        try (InputStream in = s.open()) {
            head = in.readNBytes(Head.MAX_BYTES);
        }
        for (byte b : head) {
            if (b == 0) {
                return "-";
            }
        }
        if (head.length == 0) {
            return "-";
        }
        Head h = Head.of(head);
        FormatReader r = FormatRegistry.standard().detect(h);
        assertEquals(askEveryReader(h), r, s.name() + ": the same reader as asking every one");
        return r == null ? FormatRegistry.UNKNOWN : r.id();
    }

    /** Detection without skipping anyone: the highest confidence, ties to the first registered; no reader above its ceiling. */
    static FormatReader askEveryReader(Head h) {
        FormatReader best = null;
        int bestScore = FormatReader.NONE;
        for (FormatReader r : FormatRegistry.standard().readers()) {
            int c = r.confidence(h);
            assertTrue(c >= FormatReader.NONE && c <= r.maxConfidence(), r.id() + " answered " + c);
            if (c > bestScore) {
                best = r;
                bestScore = c;
            }
        }
        return best;
    }

    @Test
    void everySampleAndTestFileIsDetectedAsBefore() throws IOException {
        assumeTrue(Files.isDirectory(SAMPLES), "sample-fabrics not present");
        Map<String, String> actual = detectAll();
        StringBuilder sb = new StringBuilder();
        actual.forEach((k, v) -> sb.append(k).append('\t').append(v).append('\n'));
        if (Boolean.getBoolean("fabricscope.golden.rewrite") || Boolean.getBoolean("fabricscope.detection.write")) {
            Files.createDirectories(EXPECTED.getParent());
            Files.writeString(EXPECTED, sb.toString(), StandardCharsets.UTF_8);
        }
        Map<String, String> expected = new TreeMap<>();
        for (String l : Files.readAllLines(EXPECTED, StandardCharsets.UTF_8)) {
            if (!l.isBlank()) {
                String[] kv = l.split("\t");
                expected.put(kv[0], kv[1]);
            }
        }
        StringBuilder diff = new StringBuilder();
        java.util.Set<String> keys = new java.util.TreeSet<>(expected.keySet());
        keys.addAll(actual.keySet());
        for (String k : keys) {
            if (!java.util.Objects.equals(expected.get(k), actual.get(k))) {
                diff.append("\n  ").append(k).append(": expected ").append(expected.get(k)).append(", detected ")
                        .append(actual.get(k));
            }
        }
        assertTrue(diff.length() == 0, "detection differs from " + EXPECTED + ":" + diff);
    }
}
