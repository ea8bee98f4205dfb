package org.fabricscope.app.live.prom;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.fabricscope.app.live.source.LiveSources;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.NodeKind;

/**
 * The window's queries against a large store (BENCHMARKS.md, "Prometheus window read"); not a test.
 * Reads the window through the registry's source, joins it to a fabric of the store's HCAs (hosts
 * {@code h00001..} with {@code mlx5_0..7}, as {@code gen-prom-bench.py} writes them), builds the model and
 * runs the checks; prints each step's time per round and the median.
 *
 * <pre>java -cp app/target/test-classes:app/target/classes:... org.fabricscope.app.live.prom.PromWindowBench URL AT WINDOW PORTS ROUNDS</pre>
 */
public final class PromWindowBench {
    private PromWindowBench() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        Instant at = PromTimes.instant(args[1]);
        Duration window = PromTimes.duration(args[2]);
        int ports = Integer.parseInt(args[3]);
        int rounds = Integer.parseInt(args[4]);
        PromTarget target = PromTarget.of(url).withWindow(at, window);
        List<long[]> times = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            System.gc();
            long t0 = System.nanoTime();
            PromSnapshot s;
            try (var source = new PromSourceKind().open(target, LiveSources.Hints.CLI)) {
                s = (PromSnapshot) source.readOnce(Cancellation.NEVER);
            }
            long t1 = System.nanoTime();
            ImportResult built = new FabricImporter().importSources(List.of(), new ArrayList<>(s.diagnostics()),
                    ImportProgress.NONE, Cancellation.NEVER, b -> {
                        for (int p = 0; p < ports; p++) {
                            FabricNode n = b.node(0x0002c90300000000L + p, NodeKind.CA);
                            b.setDescription(n, String.format(Locale.ROOT, "h%05d mlx5_%d", p / 8 + 1, p % 8));
                            b.port(n, 1);
                        }
                        s.contribute(b);
                    });
            long t2 = System.nanoTime();
            Analysis a = Analysis.of(built.model(), ErrorThresholds.defaults());
            long t3 = System.nanoTime();
            long rising = a.findings().stream().filter(f -> f.id().equals("link-errors")).count();
            long used = (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) >> 20;
            int series = s.series().values().stream().mapToInt(List::size).sum();
            System.out.printf(Locale.ROOT, "round %d: read %d ms (%,d series, step %d s), model %d ms, checks %d ms; "
                    + "%d link-errors findings; heap in use %d MiB%n", r + 1, (t1 - t0) / 1_000_000, series,
                    s.step().toSeconds(), (t2 - t1) / 1_000_000, (t3 - t2) / 1_000_000, rising, used);
            times.add(new long[] {(t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, (t3 - t2) / 1_000_000});
        }
        for (int k = 0; k < 3; k++) {
            int col = k;
            List<Long> v = times.stream().map(x -> x[col]).sorted().toList();
            System.out.printf(Locale.ROOT, "median %s: %d ms%n", new String[] {"read", "model", "checks"}[k], v.get(v.size() / 2));
        }
    }
}
