package org.fabricscope.app.live.kube;

import org.fabricscope.app.live.source.LogLine;
import com.sun.management.OperatingSystemMXBean;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.fabricscope.importers.logs.NcclLogParser;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.training.TrainingLog;
import org.fabricscope.model.training.TrainingLogBuilder;

/**
 * Live-ingest benchmark (run by hand, not a test): a stub API server streams N pods' logs at R lines/s
 * each, and the follower + batcher + NcclLogParser take them in. Two processes, so the client's CPU is
 * its own:
 * <pre>
 *   PodLogIngestBench stub PORT PODS RATE          # the API server stand-in
 *   PodLogIngestBench ingest URL PODS SECONDS      # follower, batcher (16 ms), parser; prints the numbers
 * </pre>
 * Latency is from the stub writing a line (its kubelet timestamp, wall clock) to the parser having read it.
 */
public final class PodLogIngestBench {

    public static void main(String[] args) throws Exception {
        if (args.length == 4 && args[0].equals("stub")) {
            stub(Integer.parseInt(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
        } else if (args.length == 4 && args[0].equals("ingest")) {
            ingest(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]));
        } else {
            System.err.println("usage: PodLogIngestBench stub PORT PODS RATE | ingest URL PODS SECONDS");
            System.exit(2);
        }
    }

    // ---------------------------------------------------------------- stub side

    private static final class Writer {
        final String pod;
        final OutputStream out;
        final CountDownLatch done = new CountDownLatch(1);
        long written;
        final long start = System.nanoTime();

        Writer(String pod, OutputStream out) {
            this.pod = pod;
            this.out = out;
        }
    }

    static void stub(int port, int pods, int rate) throws Exception {
        List<String> bodies = PodLogFollowerTest.ncclBodies();
        @SuppressWarnings({"unchecked", "rawtypes"}) // an array of lists, one per group of streams: Java has no generic arrays
        List<Writer>[] groups = new List[4];
        for (int g = 0; g < groups.length; g++) {
            groups[g] = new CopyOnWriteArrayList<>();
        }
        AtomicLong requests = new AtomicLong();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 4096);
        server.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "stub");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/", ex -> {
            String path = ex.getRequestURI().getPath();
            String pod = path.replaceAll("^.*/pods/([^/]+).*$", "$1");
            if (!path.endsWith("/log")) {
                byte[] b = ("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + pod
                        + "\"},\"status\":{\"phase\":\"Running\"}}").getBytes(StandardCharsets.UTF_8);
                ex.sendResponseHeaders(200, b.length);
                ex.getResponseBody().write(b);
                ex.close();
                return;
            }
            requests.incrementAndGet();
            ex.sendResponseHeaders(200, 0);
            Writer w = new Writer(pod, ex.getResponseBody());
            groups[Math.floorMod(pod.hashCode(), groups.length)].add(w);
            try {
                w.done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            closeQuietly(ex);
        });
        server.start();
        for (List<Writer> group : groups) {
            Thread t = new Thread(() -> writeLoop(group, rate, bodies), "stub-writer");
            t.setDaemon(true);
            t.start();
        }
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        System.out.println("stub listening on " + port + " for " + pods + " pods at " + rate + " lines/s each");
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        while (true) {
            Thread.sleep(10_000);
            long lines = 0;
            int open = 0;
            for (List<Writer> g : groups) {
                for (Writer w : g) {
                    lines += w.written;
                    open++;
                }
            }
            long cpu = os.getProcessCpuTime();
            long t = System.nanoTime();
            System.out.printf(Locale.ROOT, "stub: %d streams open, %d log requests, %d lines written, cpu %.2f cores%n",
                    open, requests.get(), lines, (cpu - cpu0) / (double) (t - t0));
            cpu0 = cpu;
            t0 = t;
        }
    }

    private static void closeQuietly(HttpExchange ex) {
        try {
            ex.close();
        } catch (RuntimeException e) {
            // the client went away
        }
    }

    /** Every 20 ms, writes each pod's due lines (rate x elapsed) stamped with the current time, then flushes. */
    private static void writeLoop(List<Writer> group, int rate, List<String> bodies) {
        StringBuilder sb = new StringBuilder();
        while (true) {
            long now = System.nanoTime();
            for (Writer w : group) {
                long due = (now - w.start) * rate / 1_000_000_000L - w.written;
                if (due <= 0) {
                    continue;
                }
                sb.setLength(0);
                String ts = PodLogScript.rfc3339Nano(epochNanos(Instant.now()));
                for (long i = 0; i < due; i++) {
                    long n = w.written + i;
                    sb.append(ts).append(' ');
                    if (n % 4 == 3) {
                        sb.append(w.pod).append(" step ").append(n).append(" loss 0.").append(1000 + n % 9000)
                                .append(" throughput 1234 samples/s");
                    } else {
                        sb.append(w.pod).append(":4242:4242 [0] NCCL INFO ").append(bodies.get((int) (n % bodies.size())));
                    }
                    sb.append('\n');
                }
                try {
                    w.out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
                    w.out.flush();
                    w.written += due;
                } catch (IOException | RuntimeException e) {
                    group.remove(w);
                    w.done.countDown();
                }
            }
            long spent = System.nanoTime() - now;
            long sleep = 20_000_000L - spent;
            if (sleep > 0) {
                try {
                    Thread.sleep(sleep / 1_000_000L, (int) (sleep % 1_000_000L));
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    static long epochNanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    // ---------------------------------------------------------------- client side

    /** Latency histogram in 0.1 ms buckets up to 60 s. Written by the batcher thread only. */
    private static final class Histogram {
        final long[] buckets = new long[600_000];
        long count;
        long max;

        void add(long nanos) {
            int b = (int) Math.min(buckets.length - 1, Math.max(0, nanos / 100_000L));
            buckets[b]++;
            count++;
            max = Math.max(max, nanos);
        }

        double percentileMs(double p) {
            long want = (long) Math.ceil(count * p);
            long seen = 0;
            for (int i = 0; i < buckets.length; i++) {
                seen += buckets[i];
                if (seen >= want) {
                    return (i + 1) / 10.0;
                }
            }
            return max / 1e6;
        }
    }

    private static long gcMillis() {
        long t = 0;
        for (java.lang.management.GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            t += Math.max(0, gc.getCollectionTime());
        }
        return t;
    }

    static void ingest(String url, int pods, int seconds) throws Exception {
        Config config = new ConfigBuilder().withMasterUrl(url).withNamespace("bench").withRequestRetryBackoffLimit(0).build();
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
        TrainingLogBuilder log = new TrainingLogBuilder();
        List<Diagnostic> diagnostics = new ArrayList<>();
        NcclLogParser parser = new NcclLogParser(log, diagnostics);
        Histogram hist = new Histogram();
        AtomicLong parsed = new AtomicLong();
        AtomicLong batches = new AtomicLong();
        AtomicLong biggestBatch = new AtomicLong();
        AtomicLong consumerNanos = new AtomicLong();
        AtomicLong consumerCpu = new AtomicLong();
        java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        ConcurrentHashMap<PodLogStatus.State, AtomicLong> states = new ConcurrentHashMap<>();
        List<String> problems = new CopyOnWriteArrayList<>();
        long[] window = {Long.MAX_VALUE};   // wall-clock nanos from which latencies count
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
             LogLineBatcher batcher = new LogLineBatcher(200_000);
             PodLogFollower follower = new PodLogFollower(client, "bench", batcher)) {
            batcher.start(Duration.ofMillis(16), b -> {
                long c0 = System.nanoTime();
                long cpuStart = threads.getCurrentThreadCpuTime();
                for (LogLine l : b.lines()) {
                    parser.line(l.text(), l.source(), l.lineNumber());
                }
                long now = epochNanos(Instant.now());
                if (now >= window[0]) {
                    for (LogLine l : b.lines()) {
                        if (l.epochNanos() >= window[0]) {
                            hist.add(now - l.epochNanos());
                        }
                    }
                }
                parsed.addAndGet(b.lines().size());
                batches.incrementAndGet();
                biggestBatch.accumulateAndGet(b.lines().size(), Math::max);
                for (PodLogStatus s : b.statuses()) {
                    states.computeIfAbsent(s.state(), k -> new AtomicLong()).incrementAndGet();
                    if (s.state() != PodLogStatus.State.CONNECTED && problems.size() < 5) {
                        problems.add(s.toString());
                    }
                }
                consumerNanos.addAndGet(System.nanoTime() - c0);
                consumerCpu.addAndGet(threads.getCurrentThreadCpuTime() - cpuStart);
            });
            long t0 = System.nanoTime();
            for (int p = 0; p < pods; p++) {
                follower.follow("job-worker-" + p, "main");
            }
            while (states.getOrDefault(PodLogStatus.State.CONNECTED, new AtomicLong()).get() < pods
                    && System.nanoTime() - t0 < 60_000_000_000L) {
                Thread.sleep(10);
            }
            System.out.printf(Locale.ROOT, "%d of %d streams connected in %d ms%n",
                    states.getOrDefault(PodLogStatus.State.CONNECTED, new AtomicLong()).get(), pods,
                    (System.nanoTime() - t0) / 1_000_000);
            Thread.sleep(5_000);   // warm-up
            System.gc();
            long heapAfterWarmup = mem.getHeapMemoryUsage().getUsed();
            long lines0 = parsed.get();
            long cpu0 = os.getProcessCpuTime();
            long consumer0 = consumerNanos.get();
            long consumerCpu0 = consumerCpu.get();
            long gc0 = gcMillis();
            long batches0 = batches.get();
            long w0 = System.nanoTime();
            window[0] = epochNanos(Instant.now());
            long maxHeap = 0;
            int maxThreads = 0;
            for (int s = 0; s < seconds * 10; s++) {
                Thread.sleep(100);
                maxHeap = Math.max(maxHeap, mem.getHeapMemoryUsage().getUsed());
                maxThreads = Math.max(maxThreads, ManagementFactory.getThreadMXBean().getThreadCount());
            }
            long w = System.nanoTime() - w0;
            long lines = parsed.get() - lines0;
            long cpu = os.getProcessCpuTime() - cpu0;
            System.gc();
            long heapEnd = mem.getHeapMemoryUsage().getUsed();
            System.out.printf(Locale.ROOT, "window %.1f s: %d lines parsed = %.0f lines/s (offered %d lines/s)%n",
                    w / 1e9, lines, lines / (w / 1e9), pods * 100);
            System.out.printf(Locale.ROOT, "latency stub write -> parsed: p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d lines)%n",
                    hist.percentileMs(0.50), hist.percentileMs(0.99), hist.max / 1e6, hist.count);
            System.out.printf(Locale.ROOT, "batcher thread (parser + latency bookkeeping): %.1f%% of a core in cpu time; GC %d ms in the window%n",
                    100.0 * (consumerCpu.get() - consumerCpu0) / w, gcMillis() - gc0);
            System.out.printf(Locale.ROOT, "client process cpu %.2f cores (machine has %d); batcher thread busy %.1f%% (wall);"
                            + " %d batches (%.1f/s), biggest %d lines; batcher full %d times%n",
                    cpu / (double) w, os.getAvailableProcessors(), 100.0 * (consumerNanos.get() - consumer0) / w,
                    batches.get() - batches0, (batches.get() - batches0) / (w / 1e9), biggestBatch.get(), batcher.timesFull());
            System.out.printf(Locale.ROOT, "heap used: %.0f MB after warm-up GC, max %.0f MB during, %.0f MB after GC at end; "
                            + "threads max %d; ranks in model %d; statuses %s%n",
                    heapAfterWarmup / 1e6, maxHeap / 1e6, heapEnd / 1e6, maxThreads, log.ranks().size(), states);
            if (!problems.isEmpty()) {
                System.out.println("first non-connect statuses: " + problems);
            }
        }
    }
}
