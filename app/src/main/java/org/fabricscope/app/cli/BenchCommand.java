package org.fabricscope.app.cli;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.layout.MapLayout;
import org.fabricscope.model.layout.TieredLayout;
import org.fabricscope.app.render.ColourMode;
import org.fabricscope.app.render.MapColouring;
import org.fabricscope.app.render.MapPalette;
import org.fabricscope.app.render.MapOverview;
import org.fabricscope.app.render.MapRasterizer;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code fabricscope bench}: times import and model building (then diagnosis and layout) over
 * warm-up and measured rounds. Used for BENCHMARKS.md; not a test.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Time import+model, diagnosis and layout of the given dumps (warm JVM); prints min/median/max in ms.")
final class BenchCommand implements Callable<Integer> {
    @Mixin
    InputOptions input;

    @Option(names = "--warmup", defaultValue = "10", description = "Untimed rounds first (default ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--rounds", defaultValue = "20", description = "Timed rounds (default ${DEFAULT-VALUE}).")
    int rounds;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (input.kube) {
            throw new CliFailure(2, "bench times the import of files; it does not read a live cluster (--kube)");
        }
        input.importPaths();
        long[] importNs = new long[rounds];
        long[] diagNs = new long[rounds];
        long[] layoutNs = new long[rounds];
        long[] renderNs = new long[rounds];
        long[] overviewNs = new long[rounds];
        long[] pickNs = new long[rounds];
        long[][] cpuNs = new long[6][rounds]; // the same phases' CPU time of the whole process (all threads, GC and JIT)
        long picked = 0;
        ImportResult r = null;
        MapPalette palette = MapPalette.defaults(); // app.css read as text: the window's colours, without JavaFX
        for (int i = -warmup; i < rounds; i++) {
            long t0 = System.nanoTime();
            long c0 = processCpuNs();
            r = new FabricImporter().importPaths(input.paths, ImportProgress.NONE, Cancellation.NEVER);
            long t1 = System.nanoTime();
            long c1 = processCpuNs();
            Analysis analysis = Analysis.of(r.model(), ErrorThresholds.defaults());
            long t2 = System.nanoTime();
            long c2 = processCpuNs();
            MapLayout layout = TieredLayout.compute(r.model(), java.util.Set.of(), false);
            long t3 = System.nanoTime();
            long c3 = processCpuNs();
            // one full-detail frame of the whole fabric, fitted into 1600x1000, as the map draws it
            MapColouring colours = MapColouring.compute(r.model(), layout, ColourMode.ERRORS, analysis.thresholds(), analysis.ranks(),
                    palette);
            long t4 = System.nanoTime();
            long c4 = processCpuNs();
            double scale = Math.min(1600 / Math.max(1, layout.maxX() - layout.minX()),
                    1000 / Math.max(1, layout.maxY() - layout.minY()));
            MapRasterizer.render(layout, colours, 1600, 1000, scale, -layout.minX() * scale, -layout.minY() * scale);
            long t5 = System.nanoTime();
            long c5 = processCpuNs();
            // the frame the map shows at that scale (semantic zoom): the overview where the fabric is too dense
            MapRasterizer.render(new MapOverview(layout, colours), 1600, 1000, scale, -layout.minX() * scale,
                    -layout.minY() * scale, false);
            long t6 = System.nanoTime();
            long c6 = processCpuNs();
            // 1000 cable look-ups at fixed pseudo-random points of the fitted map, 4 px of tolerance, as a hover does
            org.fabricscope.app.render.CablePicker picker = new org.fabricscope.app.render.CablePicker(layout);
            java.util.Random rnd = new java.util.Random(42);
            for (int k = 0; k < 1000; k++) {
                picked += picker.pick(layout.minX() + rnd.nextDouble() * (layout.maxX() - layout.minX()),
                        layout.minY() + rnd.nextDouble() * (layout.maxY() - layout.minY()), 4 / scale) == null ? 0 : 1;
            }
            long t7 = System.nanoTime();
            long c7 = processCpuNs();
            if (i >= 0) {
                pickNs[i] = t7 - t6;
                importNs[i] = t1 - t0;
                diagNs[i] = t2 - t1;
                layoutNs[i] = t3 - t2 + (t4 - t3);
                renderNs[i] = t5 - t4;
                overviewNs[i] = t6 - t5;
                long[] phaseCpu = {c1 - c0, c2 - c1, c4 - c2, c5 - c4, c6 - c5, c7 - c6};
                for (int p = 0; p < phaseCpu.length; p++) {
                    cpuNs[p][i] = phaseCpu[p];
                }
            }
        }
        var out = spec.commandLine().getOut();
        out.printf("input: %s (%d nodes, %d cables)%n", input.paths, r.model().nodes().size(), r.model().cables().size());
        out.printf("java %s, %d cores, max heap %d MiB; %d warm-up + %d timed rounds%n",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20, warmup, rounds);
        List<Object[]> rows = List.of(new Object[] {"import+model", importNs}, new Object[] {"analysis", diagNs},
                new Object[] {"layout+colours", layoutNs},
                new Object[] {"render 1600x1000", renderNs}, new Object[] {"map at fit", overviewNs},
                new Object[] {"1000 cable picks", pickNs});
        for (int p = 0; p < rows.size(); p++) {
            long[] v = ((long[]) rows.get(p)[1]).clone();
            Arrays.sort(v);
            long[] c = cpuNs[p].clone();
            Arrays.sort(c);
            // CPU time is the number to compare on a loaded machine: wall time there counts the waits for a core
            out.printf("%-18s min %8.1f ms   median %8.1f ms   max %8.1f ms   cpu median %8.1f ms%n", rows.get(p)[0], v[0] / 1e6,
                    v[v.length / 2] / 1e6, v[v.length - 1] / 1e6, c[c.length / 2] / 1e6);
        }
        out.printf("cable picks: %d of %d points were on a cable (picker built per round, in the time)%n", picked,
                1000L * (rounds + warmup));
        return 0;
    }

    /** CPU time of the whole process so far (every thread: ours, the collector's, the compiler's), or 0 where unknown. */
    private static long processCpuNs() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os ? Math.max(0, os.getProcessCpuTime()) : 0;
    }
}
