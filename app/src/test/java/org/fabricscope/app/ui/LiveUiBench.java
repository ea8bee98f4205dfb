package org.fabricscope.app.ui;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.app.live.source.LogLine;

import javafx.animation.AnimationTimer;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * Benchmark (run by hand, numbers in BENCHMARKS.md), not a test: is the window responsive while a
 * live job streams 1,000 pods x 100 lines/s into the log console and rebuilds the model every 2 s?
 * Drives the same entry points the live job's listener calls ({@code liveLines}, {@code liveModel})
 * from background threads, and measures the FX thread's frame intervals (AnimationTimer pulses), how
 * many lines wait for the console at each frame, the lines shown, and CPU.
 *
 * <p>Usage: {@code LiveUiBench [pods] [linesPerSecondPerPod] [seconds] fabric-files...}
 */
public final class LiveUiBench {
    public static void main(String[] args) throws Exception {
        int pods = Integer.parseInt(args[0]);
        int rate = Integer.parseInt(args[1]);
        int seconds = Integer.parseInt(args[2]);
        List<Path> files = Arrays.stream(args).skip(3).map(Path::of).toList();
        CountDownLatch started = new CountDownLatch(1);
        AtomicReference<MainView> viewRef = new AtomicReference<>();
        Platform.startup(() -> {
            MainView v = new MainView();
            Stage st = new Stage();
            st.setScene(new Scene(v, 1280, 800));
            st.show();
            viewRef.set(v);
            started.countDown();
        });
        started.await();
        MainView view = viewRef.get();
        Platform.runLater(() -> view.open(files, false));
        while (view.snapshot() == null) {
            Thread.sleep(100);
        }
        ImportResult base = new FabricImporter().importPaths(files, ImportProgress.NONE, Cancellation.NEVER);
        AtomicBoolean stop = new AtomicBoolean();
        long[] produced = new long[1];
        Thread producer = new Thread(() -> {
            long seq = 0;
            long tick = System.nanoTime();
            int perTick = Math.max(1, pods * rate / 100); // every 10 ms
            while (!stop.get()) {
                List<LogLine> batch = new ArrayList<>(perTick);
                for (int i = 0; i < perTick; i++) {
                    int pod = (int) (seq % pods);
                    String host = "job-worker-" + pod;
                    String prefix = host + ":" + (1000 + pod) + ":" + (1061 + pod) + " [" + (pod % 8) + "] NCCL INFO ";
                    String text = switch ((int) (seq % 3)) {
                        case 0 -> prefix + "Channel 03/0 : " + pod + "[" + (pod % 8) + "] -> " + (pod + 1) + "[" + ((pod + 1) % 8)
                                + "] [send] via NET/IB/3/GDRDMA";
                        case 1 -> prefix + "comm 0x55d0c0a08000 rank " + pod + " nranks 8000 cudaDev " + (pod % 8) + " nvmlDev "
                                + (pod % 8) + " busId 89000 - Init COMPLETE";
                        default -> "[rank" + pod + "]:[I1122 04:00:00.000000000 ProcessGroupNCCL.cpp:2000] step " + seq + " loss 2."
                                + (seq % 10);
                    };
                    batch.add(new LogLine(host, "pytorch", System.currentTimeMillis() * 1_000_000L, text, seq++));
                }
                view.liveLines(batch);
                produced[0] += batch.size();
                tick += 10_000_000L;
                long sleep = tick - System.nanoTime();
                if (sleep > 0) {
                    try {
                        Thread.sleep(sleep / 1_000_000L, (int) (sleep % 1_000_000L));
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }, "bench-producer");
        boolean rebuild = !Boolean.getBoolean("bench.noRebuild");
        Thread rebuilder = new Thread(() -> {
            while (!stop.get() && rebuild) {
                try {
                    Thread.sleep(2000);
                } catch (InterruptedException e) {
                    return;
                }
                ImportResult r = new FabricImporter().importPaths(files, ImportProgress.NONE, Cancellation.NEVER);
                view.liveModel(files, r);
            }
        }, "bench-rebuild");
        List<Long> frames = new ArrayList<>();
        List<Integer> waiting = new ArrayList<>();
        AnimationTimer meter = new AnimationTimer() {
            @Override
            public void handle(long now) {
                frames.add(now);
                waiting.add(view.pendingLineCount());
            }
        };
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        Thread.sleep(2000); // warm-up
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        Platform.runLater(meter::start);
        producer.start();
        rebuilder.start();
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
        stop.set(true);
        Platform.runLater(meter::stop);
        producer.join();
        rebuilder.join();
        long wall = System.nanoTime() - t0;
        long cpu = os.getProcessCpuTime() - cpu0;
        Thread.sleep(200);
        long[] gaps = new long[Math.max(0, frames.size() - 1)];
        for (int i = 1; i < frames.size(); i++) {
            gaps[i - 1] = frames.get(i) - frames.get(i - 1);
        }
        Arrays.sort(gaps);
        int[] w = waiting.stream().mapToInt(Integer::intValue).sorted().toArray();
        long over100 = Arrays.stream(gaps).filter(g -> g > 100_000_000L).count();
        System.out.printf("pods %d x %d lines/s for %d s: produced %d lines (%.0f lines/s)%n", pods, rate, seconds, produced[0],
                produced[0] / (wall / 1e9));
        System.out.printf("frames %d (%.1f/s); frame interval p50 %.1f ms, p99 %.1f ms, max %.1f ms; gaps > 100 ms: %d%n",
                frames.size(), frames.size() / (wall / 1e9), pct(gaps, 50) / 1e6, pct(gaps, 99) / 1e6,
                gaps.length == 0 ? 0 : gaps[gaps.length - 1] / 1e6, over100);
        System.out.printf("lines waiting for the console at a frame: p50 %d, p99 %d, max %d; console holds %d%n",
                w.length == 0 ? 0 : w[w.length / 2], w.length == 0 ? 0 : w[(int) (w.length * 0.99)],
                w.length == 0 ? 0 : w[w.length - 1], view.logConsole().size());
        System.out.printf("process CPU %.2f cores; heap used %d MB; model rebuilds of %d nodes every 2 s%n",
                cpu / (double) wall, (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) >> 20,
                base.model().nodes().size());
        Platform.exit();
        System.exit(0);
    }

    private static long pct(long[] sorted, int p) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) (sorted.length * p / 100.0))];
    }
}
