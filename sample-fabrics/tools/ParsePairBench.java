import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.ToLongFunction;

import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.core.TextLines;
import org.fabricscope.importers.logs.NcclLogParser;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.incident.SignatureCatalogue;
import org.fabricscope.model.incident.Target;
import org.fabricscope.model.training.TrainingLogBuilder;

/**
 * Two builds' NCCL log parsers timed in one JVM, round by round in turn, for a machine whose speed drifts from one
 * minute to the next (BENCHMARKS.md, issue 27, sixth and tenth sessions): each build is loaded by a class loader of
 * its own from its folder (the app jar and its lib/), the log's bytes are read into memory once, and each pair of
 * adjacent rounds gives a ratio. The median ratio is what to compare; the two builds see the same drift.
 * {@code import}: the whole import of the file, as {@code bench} times it. {@code parse} (the default): the parser
 * alone, reading the bytes through {@code TextLines} as a file is read, without
 * the signature scan (NcclLogParser(builder, diagnostics)); {@code scan}: the bundled catalogue's log matcher over
 * every line, as the signature scan runs it.
 * <pre>
 * javac -cp "app/target/fabricscope-app.jar:app/target/lib/*" -d /tmp/ppb sample-fabrics/tools/ParsePairBench.java
 * java -XX:+UseSerialGC -Xmx8g -Xmn3g -cp /tmp/ppb ParsePairBench LOG BEFORE_DIR AFTER_DIR PAIRS [parse|scan|import]
 * </pre>
 * where each DIR holds a fabricscope-app.jar and its lib/ (copies of app/target from each build).
 */
public class ParsePairBench {
    /** One build's parser over the log's bytes, read as a file is; loaded by that build's class loader. */
    public static final class Round implements ToLongFunction<byte[]> {
        @Override
        public long applyAsLong(byte[] log) {
            long t = now();
            NcclLogParser p = new NcclLogParser(new TrainingLogBuilder(), new ArrayList<Diagnostic>());
            try {
                p.read(new TextLines(new ByteArrayInputStream(log)), "bench.log", () -> false);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            p.finish();
            return now() - t;
        }
    }

    /** One build's signature matcher over every line of the log (decoded first, outside the time). */
    public static final class ScanRound implements ToLongFunction<byte[]> {
        /** The last round's count of lines a signature recognised. */
        static volatile long found;
        private List<String> lines;

        @Override
        public long applyAsLong(byte[] log) {
            if (lines == null) {
                lines = new String(log, StandardCharsets.UTF_8).lines().toList();
            }
            long t = System.nanoTime();
            SignatureCatalogue.Matcher m = SignatureCatalogue.bundled().matcher(Target.LOG);
            long hits = 0;
            for (String l : lines) {
                hits += m.first(l) == null ? 0 : 1;
            }
            long dt = System.nanoTime() - t;
            found = hits; // kept where the compiler cannot tell it is never read
            return dt;
        }
    }

    /**
     * The clock a {@code parse} round is timed by: wall time, or with {@code -Dppb.cpu=true} the thread's CPU time
     * (the parser runs on the caller's thread alone). {@code import} and {@code scan} rounds take wall time always: an
     * import runs on two threads.
     */
    static long now() {
        return Boolean.getBoolean("ppb.cpu") ? java.lang.management.ManagementFactory.getThreadMXBean()
                .getCurrentThreadCpuTime() : System.nanoTime();
    }

    /**
     * One build's whole import of the log's file ({@code FabricImporter}, the signature scan included), read from the
     * file each round (its bytes, read once before, are in the page cache), as {@code bench} imports it.
     */
    public static final class ImportRound implements ToLongFunction<byte[]> {
        @Override
        public long applyAsLong(byte[] log) {
            long t = System.nanoTime();
            new FabricImporter().importPaths(List.of(Path.of(System.getProperty("ppb.file"))), ImportProgress.NONE,
                    () -> false);
            return System.nanoTime() - t;
        }
    }

    @SuppressWarnings("unchecked")
    private static ToLongFunction<byte[]> load(Path dir, Class<?> round) throws Exception {
        List<URL> urls = new ArrayList<>();
        urls.add(dir.resolve("fabricscope-app.jar").toUri().toURL());
        try (var jars = Files.list(dir.resolve("lib"))) {
            for (Path j : (Iterable<Path>) jars::iterator) {
                urls.add(j.toUri().toURL());
            }
        }
        // this class's own folder, so that the build's loader (not the one that loaded this class) defines Round
        urls.add(ParsePairBench.class.getProtectionDomain().getCodeSource().getLocation());
        URLClassLoader cl = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
        return (ToLongFunction<byte[]>) cl.loadClass(round.getName()).getConstructor().newInstance();
    }

    public static void main(String[] a) throws Exception {
        byte[] log = Files.readAllBytes(Path.of(a[0]));
        String mode = a.length > 4 ? a[4] : "parse";
        Class<?> round = mode.equals("scan") ? ScanRound.class
                : mode.equals("import") ? ImportRound.class : Round.class;
        System.setProperty("ppb.file", a[0]);
        ToLongFunction<byte[]> before = load(Path.of(a[1]), round);
        ToLongFunction<byte[]> after = load(Path.of(a[2]), round);
        int pairs = Integer.parseInt(a[3]);
        int warmup = 3;
        List<Double> ratios = new ArrayList<>();
        List<Long> bs = new ArrayList<>();
        List<Long> as = new ArrayList<>();
        for (int k = 0; k < warmup + pairs; k++) {
            boolean beforeFirst = (k & 1) == 0; // each build goes first in every other pair
            System.gc();
            long x = (beforeFirst ? before : after).applyAsLong(log);
            System.gc();
            long y = (beforeFirst ? after : before).applyAsLong(log);
            long tb = beforeFirst ? x : y;
            long ta = beforeFirst ? y : x;
            if (k < warmup) {
                continue;
            }
            bs.add(tb);
            as.add(ta);
            ratios.add(ta / (double) tb);
            System.out.printf("pair %d: before %d ms, after %d ms, after/before %.3f%n", k - warmup, tb / 1_000_000,
                    ta / 1_000_000, ta / (double) tb);
        }
        Collections.sort(ratios);
        Collections.sort(bs);
        Collections.sort(as);
        int m = pairs / 2;
        System.out.printf("%d bytes; before min %d, median %d ms; after min %d, median %d ms; after/before median %.3f"
                        + " (quartiles %.3f-%.3f)%n", log.length, bs.get(0) / 1_000_000, bs.get(m) / 1_000_000,
                as.get(0) / 1_000_000, as.get(m) / 1_000_000, ratios.get(m), ratios.get(pairs / 4), ratios.get(3 * pairs / 4));
    }
}
