import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.ToLongFunction;

import org.fabricscope.importers.logs.NcclLogParser;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.training.TrainingLogBuilder;

/**
 * Two builds' NCCL log parsers timed in one JVM, round by round in turn, for a machine whose speed drifts from one
 * minute to the next (BENCHMARKS.md, issue 27, sixth session): each build is loaded by a class loader of its own
 * from its folder (the app jar and its lib/), the log's lines are read into memory once, and each pair of
 * adjacent rounds gives a ratio. The median ratio is what to compare; the two builds see the same drift.
 * The signature scan is not run (the parser alone, as NcclLogParser(builder, diagnostics) reads).
 * <pre>
 * javac -cp "app/target/fabricscope-app.jar:app/target/lib/*" -d /tmp/ppb sample-fabrics/tools/ParsePairBench.java
 * java -XX:+UseSerialGC -Xmx8g -Xmn3g -cp /tmp/ppb ParsePairBench LOG BEFORE_DIR AFTER_DIR PAIRS
 * </pre>
 * where each DIR holds a fabricscope-app.jar and its lib/ (copies of app/target from each build).
 */
public class ParsePairBench {
    /** One build's parser over all lines; loaded by that build's class loader. */
    public static final class Round implements ToLongFunction<List<String>> {
        @Override
        public long applyAsLong(List<String> lines) {
            long t = System.nanoTime();
            NcclLogParser p = new NcclLogParser(new TrainingLogBuilder(), new ArrayList<Diagnostic>());
            int n = 0;
            for (String l : lines) {
                p.line(l, "bench.log", ++n);
            }
            p.finish();
            return System.nanoTime() - t;
        }
    }

    @SuppressWarnings("unchecked")
    private static ToLongFunction<List<String>> load(Path dir) throws Exception {
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
        return (ToLongFunction<List<String>>) cl.loadClass(Round.class.getName()).getConstructor().newInstance();
    }

    public static void main(String[] a) throws Exception {
        List<String> lines = new ArrayList<>();
        // as the app decodes: UTF-8, a bad byte becomes U+FFFD (InputStreamReader replaces; readAllLines would throw)
        try (var r = new java.io.BufferedReader(new java.io.InputStreamReader(Files.newInputStream(Path.of(a[0])),
                java.nio.charset.StandardCharsets.UTF_8))) {
            for (String l = r.readLine(); l != null; l = r.readLine()) {
                lines.add(l);
            }
        }
        ToLongFunction<List<String>> before = load(Path.of(a[1]));
        ToLongFunction<List<String>> after = load(Path.of(a[2]));
        int pairs = Integer.parseInt(a[3]);
        int warmup = 3;
        List<Double> ratios = new ArrayList<>();
        List<Long> bs = new ArrayList<>();
        List<Long> as = new ArrayList<>();
        for (int k = 0; k < warmup + pairs; k++) {
            boolean beforeFirst = (k & 1) == 0; // each build goes first in every other pair
            System.gc();
            long x = (beforeFirst ? before : after).applyAsLong(lines);
            System.gc();
            long y = (beforeFirst ? after : before).applyAsLong(lines);
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
        System.out.printf("%d lines; before min %d, median %d ms; after min %d, median %d ms; after/before median %.3f"
                        + " (quartiles %.3f-%.3f)%n", lines.size(), bs.get(0) / 1_000_000, bs.get(m) / 1_000_000,
                as.get(0) / 1_000_000, as.get(m) / 1_000_000, ratios.get(m), ratios.get(pairs / 4), ratios.get(3 * pairs / 4));
    }
}
