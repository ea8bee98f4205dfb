package org.fabricscope.app.cli;

import java.util.Arrays;
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
 * warm-up and measured rounds, each a fresh import into a collected heap (the round before's result is let
 * go and collected first, outside the clock), as a single {@code summary} starts with an empty heap.
 * Used for BENCHMARKS.md; not a test.
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
        if (rounds < 1 || warmup < 0) {
            throw new CliFailure(2, "bench needs --rounds of at least 1 and --warmup of at least 0");
        }
        input.importPaths();
        // per phase, per timed round: wall time, and the CPU time of the whole process (all threads, GC and JIT)
        long[][] wallNs = new long[PHASES][rounds];
        long[][] cpuNs = new long[PHASES][rounds];
        // the collector's work in each timed round's import: a count that the machine's speed does not move (with
        // -XX:+ExplicitGCInvokesConcurrent the cycle the round's System.gc() starts may be counted in it too)
        long[] importCollections = new long[rounds];
        long[] importPauseMs = new long[rounds];
        long[] picked = {0};
        String[] counts = {""};
        MapPalette palette = MapPalette.defaults(); // app.css read as text: the window's colours, without JavaFX
        for (int i = -warmup; i < rounds; i++) {
            // one round per call: what a round made dies with it, and is collected before the next round's
            // clock starts, so that each import starts from an empty heap as a `summary` does (held, the round
            // before's model promoted two models into the old generation; left as garbage, it still filled the
            // old generation: either way a full collection came every round, which a single import never pays)
            System.gc();
            long[][] t = round(palette, picked, counts);
            if (i >= 0) {
                for (int p = 0; p < PHASES; p++) {
                    wallNs[p][i] = t[0][p + 1] - t[0][p];
                    cpuNs[p][i] = t[1][p + 1] - t[1][p];
                }
                importCollections[i] = t[2][1] - t[2][0];
                importPauseMs[i] = t[3][1] - t[3][0];
            }
        }
        var out = spec.commandLine().getOut();
        out.printf("input: %s (%s)%n", input.paths, counts[0]);
        out.printf("java %s, %d cores, max heap %d MiB; %d warm-up + %d timed rounds%n",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20, warmup, rounds);
        String[] names = {"import+model", "analysis", "layout+colours", "render 1600x1000", "map at fit", "1000 cable picks"};
        for (int p = 0; p < PHASES; p++) {
            long[] v = wallNs[p].clone();
            Arrays.sort(v);
            long[] c = cpuNs[p].clone();
            Arrays.sort(c);
            // CPU time is the number to compare on a loaded machine: wall time there counts the waits for a core
            out.printf("%-18s min %8.1f ms   median %8.1f ms   max %8.1f ms   cpu median %8.1f ms%n", names[p], v[0] / 1e6,
                    v[v.length / 2] / 1e6, v[v.length - 1] / 1e6, c[c.length / 2] / 1e6);
        }
        out.printf("cable picks: %d of %d points were on a cable (picker built per round, in the time)%n", picked[0],
                1000L * (rounds + warmup));
        Arrays.sort(importCollections);
        Arrays.sort(importPauseMs);
        // what the import left to the collector, as the JVM counts it: on a machine whose speed drifts, the count of
        // collections is the steadier measure of the garbage an import makes
        out.printf("import collections median %d a round (min %d, max %d), %d ms of them median%n",
                importCollections[rounds / 2], importCollections[0], importCollections[rounds - 1],
                importPauseMs[rounds / 2]);
        return 0;
    }

    /** Import, analysis, layout and colours, render, overview, picks. */
    private static final int PHASES = 6;

    /**
     * One round: import, analysis, layout and colours, a full frame, the overview frame and 1000 cable picks.
     * Returns the wall ({@code [0]}) and process CPU ({@code [1]}) clock, the collections ({@code [2]}) and their time
     * in ms ({@code [3]}) so far, before each phase and after the last.
     */
    private long[][] round(MapPalette palette, long[] picked, String[] counts) {
        long[][] t = new long[4][PHASES + 1];
        mark(t, 0);
        ImportResult r = new FabricImporter().importPaths(input.paths, ImportProgress.NONE, Cancellation.NEVER);
        mark(t, 1);
        Analysis analysis = Analysis.of(r.model(), ErrorThresholds.defaults());
        mark(t, 2);
        MapLayout layout = TieredLayout.compute(r.model(), java.util.Set.of(), false);
        MapColouring colours = MapColouring.compute(r.model(), layout, ColourMode.ERRORS, analysis.thresholds(), analysis.ranks(),
                palette);
        mark(t, 3);
        // one full-detail frame of the whole fabric, fitted into 1600x1000, as the map draws it
        double scale = Math.min(1600 / Math.max(1, layout.maxX() - layout.minX()),
                1000 / Math.max(1, layout.maxY() - layout.minY()));
        MapRasterizer.render(layout, colours, 1600, 1000, scale, -layout.minX() * scale, -layout.minY() * scale);
        mark(t, 4);
        // the frame the map shows at that scale (semantic zoom): the overview where the fabric is too dense
        MapRasterizer.render(new MapOverview(layout, colours), 1600, 1000, scale, -layout.minX() * scale,
                -layout.minY() * scale, false);
        mark(t, 5);
        // 1000 cable look-ups at fixed pseudo-random points of the fitted map, 4 px of tolerance, as a hover does
        org.fabricscope.app.render.CablePicker picker = new org.fabricscope.app.render.CablePicker(layout);
        java.util.Random rnd = new java.util.Random(42);
        for (int k = 0; k < 1000; k++) {
            picked[0] += picker.pick(layout.minX() + rnd.nextDouble() * (layout.maxX() - layout.minX()),
                    layout.minY() + rnd.nextDouble() * (layout.maxY() - layout.minY()), 4 / scale) == null ? 0 : 1;
        }
        mark(t, 6);
        counts[0] = r.model().nodes().size() + " nodes, " + r.model().cables().size() + " cables";
        return t;
    }

    private static void mark(long[][] t, int at) {
        t[0][at] = System.nanoTime();
        t[1][at] = processCpuNs();
        long count = 0;
        long ms = 0;
        for (var gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, gc.getCollectionCount());
            ms += Math.max(0, gc.getCollectionTime());
        }
        t[2][at] = count;
        t[3][at] = ms;
    }

    /** CPU time of the whole process so far (every thread: ours, the collector's, the compiler's), or 0 where unknown. */
    private static long processCpuNs() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os ? Math.max(0, os.getProcessCpuTime()) : 0;
    }
}
