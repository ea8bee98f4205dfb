package org.fabricscope.app.ui;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import javafx.animation.AnimationTimer;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * Benchmark (run by hand, numbers in BENCHMARKS.md), not a test: how long from launch until the
 * map is drawn, against the window's own start-up floor, and the frame intervals while panning and
 * zooming. One fresh JVM per run: times are from the JVM's start (RuntimeMXBean), so class loading
 * and JIT warm-up are in them as a user sees them.
 *
 * <p>Usage: {@code MapUiBench [--pan SECONDS] [--no-early] fabric-files...}; with no files it measures the floor
 * (the window shown, empty, and its first pulse). With {@code --pan}, after the map is drawn it pans
 * and zooms for that many seconds in gestures of 300 ms (a drag, a zoom in about the centre down to
 * full detail and back out) with 150 ms pauses in which the view settles and re-renders, and
 * reports the FX thread's pulse intervals. The import starts before the toolkit, as the app's launch
 * starts it ({@code Loader.openEarly}); {@code --no-early} starts it from the shown window instead.
 */
public final class MapUiBench {
    public static void main(String[] args) throws Exception {
        List<String> rest = new ArrayList<>(Arrays.asList(args));
        int pan = 0;
        if (!rest.isEmpty() && rest.get(0).equals("--pan")) {
            pan = Integer.parseInt(rest.get(1));
            rest = rest.subList(2, rest.size());
        }
        List<Path> files = rest.stream().filter(a -> !a.equals("--no-early")).map(Path::of).toList();
        long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
        AtomicLong shown = new AtomicLong();
        AtomicLong drawn = new AtomicLong();
        AtomicLong applied = new AtomicLong();
        CountDownLatch firstPulse = new CountDownLatch(1);
        CountDownLatch mapDrawn = new CountDownLatch(1);
        AtomicReference<MainView> viewRef = new AtomicReference<>();
        FabricScopeApp.leaveACoreForTheWindow(); // as FabricScopeApp.launchWith does
        if (!rest.contains("--no-early")) {
            Loader.openEarly(files); // as FabricScopeApp.launchWith does: the import runs while the toolkit starts
        }
        Platform.startup(() -> {
            MainView v = new MainView();
            Stage st = new Stage();
            Scene scene = new Scene(v, 1600, 1000);
            scene.getStylesheets().add(FabricScopeApp.class.getResource("app.css").toExternalForm());
            st.setScene(scene);
            st.show();
            viewRef.set(v);
            if (!files.isEmpty()) {
                v.open(files, false);
            }
            new AnimationTimer() {
                @Override
                public void handle(long now) {
                    if (shown.get() == 0) {
                        shown.set(System.currentTimeMillis());
                        firstPulse.countDown();
                    }
                    if (applied.get() == 0 && v.snapshot() != null) {
                        applied.set(System.currentTimeMillis());
                    }
                    // the map is drawn when a rendered frame of the loaded layout is on the canvas
                    if (!files.isEmpty() && drawn.get() == 0 && v.snapshot() != null && v.map().frameImage() != null) {
                        drawn.set(System.currentTimeMillis());
                        mapDrawn.countDown();
                        stop();
                    } else if (files.isEmpty()) {
                        stop();
                    }
                }
            }.start();
        });
        firstPulse.await();
        MainView view = viewRef.get();
        if (files.isEmpty()) {
            System.out.printf("floor: window shown (first pulse) %d ms after JVM start%n", shown.get() - jvmStart);
            Platform.exit();
            System.exit(0);
        }
        mapDrawn.await();
        System.out.printf("window shown %d ms, model on screen %d ms, map drawn %d ms after JVM start (%d ms after the window);"
                + " %d nodes, %d cables%n", shown.get() - jvmStart, applied.get() - jvmStart, drawn.get() - jvmStart,
                drawn.get() - shown.get(),
                view.snapshot().model().nodes().size(), view.snapshot().model().cables().size());
        if (pan > 0) {
            panAndZoom(view, pan);
        }
        Platform.exit();
        System.exit(0);
    }

    private static void panAndZoom(MainView view, int seconds) throws Exception {
        Thread.sleep(1000);
        List<Long> pulses = new ArrayList<>();
        AnimationTimer meter = new AnimationTimer() {
            @Override
            public void handle(long now) {
                pulses.add(now);
            }
        };
        Platform.runLater(meter::start);
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        int gesture = 0;
        double[] zoomDir = {1.1};
        long renders = 0;
        long renderMax = 0;
        List<Long> renderTimes = new ArrayList<>();
        while (System.nanoTime() < end) {
            int g = gesture++ % 4;
            long gEnd = System.nanoTime() + 300_000_000L;
            while (System.nanoTime() < gEnd) {
                CountDownLatch step = new CountDownLatch(1);
                Platform.runLater(() -> {
                    FabricMapView m = view.map();
                    switch (g) {
                        case 0 -> m.panBy(-12, 0);
                        case 1 -> m.panBy(0, 8);
                        default -> {
                            if (m.scale() > 3) {
                                zoomDir[0] = 1 / 1.1;
                            } else if (m.scale() < 0.01) {
                                zoomDir[0] = 1.1;
                            }
                            m.zoomAt(zoomDir[0], m.getWidth() / 2, m.getHeight() / 2);
                        }
                    }
                    step.countDown();
                });
                step.await();
                Thread.sleep(16);
            }
            Thread.sleep(150); // settles: the render thread draws a new frame
            long r = view.map().lastRenderMillis();
            renderTimes.add(r);
            renders++;
            renderMax = Math.max(renderMax, r);
        }
        Platform.runLater(meter::stop);
        Thread.sleep(100);
        long[] gaps = new long[Math.max(0, pulses.size() - 1)];
        for (int i = 1; i < pulses.size(); i++) {
            gaps[i - 1] = pulses.get(i) - pulses.get(i - 1);
        }
        Arrays.sort(gaps);
        long[] rt = renderTimes.stream().mapToLong(Long::longValue).sorted().toArray();
        System.out.printf("pan/zoom %d s: %d pulses (%.1f/s); interval p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                seconds, pulses.size(), pulses.size() / (double) seconds, pct(gaps, 50) / 1e6, pct(gaps, 95) / 1e6,
                pct(gaps, 99) / 1e6, gaps.length == 0 ? 0 : gaps[gaps.length - 1] / 1e6);
        System.out.printf("frames rendered off the FX thread after %d gestures: median %d ms, max %d ms; final scale %.4f%n",
                renders, rt.length == 0 ? 0 : rt[rt.length / 2], renderMax, view.map().scale());
    }

    private static long pct(long[] sorted, int p) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) (sorted.length * p / 100.0))];
    }
}
