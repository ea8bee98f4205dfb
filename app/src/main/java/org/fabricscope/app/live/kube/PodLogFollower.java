package org.fabricscope.app.live.kube;

import org.fabricscope.app.live.source.LogLine;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Follows the logs of pods' containers live, like {@code kubectl logs -f --timestamps} for many pods at
 * once, and hands every line exactly once to a {@link PodLogSink}, across disconnects.
 *
 * <p>Each stream is one {@code GET /api/v1/namespaces/NS/pods/POD/log?container=C&follow=true&timestamps=true[&sinceTime=T]}
 * sent through the {@link KubernetesClient}'s own HTTP client (so the kubeconfig's TLS, tokens and
 * exec credential plugins apply). Not {@code PodResource.watchLog()}: in fabric8 7.8.0 it writes an error
 * answer's {@code Status} JSON into the log output and completes normally, so a 403 or a 404 cannot be
 * told from log text, and it lists the pod before every (re)connect. Bytes are pushed by the HTTP client
 * ({@code consumeBytes}) and pulled one chunk at a time, so there is no thread per stream and a full
 * sink slows the stream down through TCP instead of dropping lines.
 *
 * <p>Threads: at most {@code maxConcurrentConnects} requests are being opened at once (so following a
 * 1,000-pod job does not stampede the API server), on the follower's own daemon threads; reconnects wait
 * an exponential backoff with jitter (from {@code initialBackoff}, doubling, capped at {@code maxBackoff});
 * a stream that stays silent longer than {@code idleTimeout} is reopened (a half-open TCP connection looks
 * the same as a quiet pod; reopening a quiet one costs one request and replays at most a second).
 *
 * <p>Outcomes: a normal end of the stream (the container exited, or the API server closed it) is checked
 * against the pod: deleted, {@code Succeeded}/{@code Failed}, or its container terminated under
 * {@code restartPolicy: Never} ends the follow; otherwise it is reopened. 404 ends the follow (pod gone);
 * 400 "is waiting to start" / "PodInitializing" / "ContainerCreating", 429, 5xx and I/O errors are
 * retried; 401, 403 and other 4xx fail it with one line of text ({@code 403: pods "p" is forbidden: ...}).
 */
public final class PodLogFollower implements AutoCloseable {

    /**
     * Tuning. {@link #defaults()} suits a real cluster.
     *
     * @param maxConcurrentConnects requests being opened at once (not streams open at once, which is unbounded)
     * @param initialBackoff        first reconnect delay (then doubling, with jitter: each delay is drawn from [d/2, d])
     * @param maxBackoff            longest reconnect delay
     * @param idleTimeout           reopen a stream silent this long; {@link Duration#ZERO} turns it off
     * @param openTimeout           longest wait for the answer's headers
     */
    public record Options(int maxConcurrentConnects, Duration initialBackoff, Duration maxBackoff,
                          Duration idleTimeout, Duration openTimeout) {
        public Options {
            if (maxConcurrentConnects < 1) {
                throw new IllegalArgumentException("maxConcurrentConnects must be at least 1");
            }
            Objects.requireNonNull(initialBackoff);
            Objects.requireNonNull(maxBackoff);
            Objects.requireNonNull(idleTimeout);
            Objects.requireNonNull(openTimeout);
        }

        /** 16 connects at once, backoff 500 ms to 10 s, idle timeout 5 min, open timeout 30 s. */
        public static Options defaults() {
            return new Options(16, Duration.ofMillis(500), Duration.ofSeconds(10), Duration.ofMinutes(5),
                    Duration.ofSeconds(30));
        }
    }

    private static final int MAX_ERROR_BODY = 16 * 1024;

    private final KubernetesClient client;
    private final HttpClient http;
    private final String namespace;
    private final PodLogSink sink;
    private final Options options;
    private final ExecutorService connector;
    private final ScheduledThreadPoolExecutor timer;
    private final Map<String, Stream> streams = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Stream> paused = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean resumeScheduled = new AtomicBoolean();
    private volatile boolean closed;

    /** A follower with {@link Options#defaults()}. */
    public PodLogFollower(KubernetesClient client, String namespace, PodLogSink sink) {
        this(client, namespace, sink, Options.defaults());
    }

    /**
     * @param client    a connected client; the follower uses it but does not close it
     * @param namespace namespace of the pods
     * @param sink      receives lines and status changes (see {@link PodLogSink} for the threads)
     */
    public PodLogFollower(KubernetesClient client, String namespace, PodLogSink sink, Options options) {
        this.client = Objects.requireNonNull(client);
        this.http = client.getHttpClient();
        this.namespace = Objects.requireNonNull(namespace);
        this.sink = Objects.requireNonNull(sink);
        this.options = Objects.requireNonNull(options);
        AtomicInteger n = new AtomicInteger();
        this.connector = new ThreadPoolExecutor(options.maxConcurrentConnects(), options.maxConcurrentConnects(),
                30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> daemon(r, "podlog-connect-" + n.incrementAndGet()));
        ((ThreadPoolExecutor) connector).allowCoreThreadTimeOut(true);
        this.timer = new ScheduledThreadPoolExecutor(1, r -> daemon(r, "podlog-timer"));
        timer.setRemoveOnCancelPolicy(true);
        if (!options.idleTimeout().isZero()) {
            long every = Math.max(100, Math.min(1000, options.idleTimeout().toMillis() / 4));
            timer.scheduleWithFixedDelay(this::checkIdle, every, every, TimeUnit.MILLISECONDS);
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /** Follows a container's log from its beginning. Following a stream that is already followed does nothing. */
    public void follow(String pod, String container) {
        follow(pod, container, null);
    }

    /**
     * Follows a container's log from {@code since} (truncated to the second, as the API takes it), or from
     * its beginning when {@code since} is null. Returns at once; lines and statuses arrive on the sink.
     */
    public void follow(String pod, String container, Instant since) {
        if (closed) {
            throw new IllegalStateException("follower closed");
        }
        Stream s = new Stream(pod, container, since);
        if (streams.putIfAbsent(s.key, s) == null) {
            connector.execute(s::open);
        }
    }

    /** Stops following every container of a pod; each gets an {@link PodLogStatus.State#ENDED} "stopped". */
    public void stop(String pod) {
        for (Stream s : List.copyOf(streams.values())) {
            if (s.pod.equals(pod)) {
                s.stop("stopped");
            }
        }
    }

    /** Stops following one container. */
    public void stop(String pod, String container) {
        Stream s = streams.get(key(pod, container));
        if (s != null) {
            s.stop("stopped");
        }
    }

    /** Streams being followed (connected, connecting or waiting to retry), as {@code pod/container}. */
    public List<String> following() {
        return List.copyOf(streams.keySet());
    }

    /** Stops every stream and the follower's threads. Does not close the client. */
    @Override
    public void close() {
        closed = true;
        for (Stream s : List.copyOf(streams.values())) {
            s.stop("stopped");
        }
        connector.shutdownNow();
        timer.shutdownNow();
    }

    private static String key(String pod, String container) {
        return pod + "/" + container;
    }

    private void checkIdle() {
        long now = System.nanoTime();
        long limit = options.idleTimeout().toNanos();
        for (Stream s : streams.values()) {
            s.checkIdle(now, limit);
        }
    }

    private void scheduleResume() {
        if (resumeScheduled.compareAndSet(false, true) && !closed) {
            timer.schedule(this::resumePaused, 2, TimeUnit.MILLISECONDS);
        }
    }

    private void resumePaused() {
        resumeScheduled.set(false);
        Stream s;
        while (!sink.full() && (s = paused.poll()) != null) {
            s.resume();
        }
        if (!paused.isEmpty()) {
            scheduleResume();
        }
    }

    private String logUrl(String pod, String container, long sinceSecond) {
        String base = client.getMasterUrl().toString();
        StringBuilder u = new StringBuilder(base);
        if (!base.endsWith("/")) {
            u.append('/');
        }
        u.append("api/v1/namespaces/").append(enc(namespace)).append("/pods/").append(enc(pod))
                .append("/log?container=").append(enc(container)).append("&follow=true&timestamps=true");
        if (sinceSecond != PodLogDecoder.NONE) {
            u.append("&sinceTime=").append(Instant.ofEpochSecond(sinceSecond));
        }
        return u.toString();
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** One followed container: its decoder, its current connection and its retry state. */
    private final class Stream implements AsyncBody.Consumer<List<ByteBuffer>> {
        final String pod;
        final String container;
        final String key;
        final PodLogDecoder decoder;
        private final long initialSince;
        private volatile boolean stopped;
        private volatile AsyncBody body;
        private volatile long lastData;
        private volatile String cancelReason;
        private volatile boolean isPaused;
        private int attempt;
        private long deliveredAtOpen;
        /** When the current answer is an error, its body is collected here instead of being decoded. */
        private ByteArrayOutputStream errorBody;

        Stream(String pod, String container, Instant since) {
            this.pod = pod;
            this.container = container;
            this.key = key(pod, container);
            this.decoder = new PodLogDecoder(pod, container);
            this.initialSince = since == null ? PodLogDecoder.NONE : since.getEpochSecond();
        }

        /** Runs on a connector thread: opens the stream and waits for the answer's headers. */
        void open() {
            if (stopped) {
                return;
            }
            long since;
            synchronized (this) {
                since = decoder.reconnect();
                if (since == PodLogDecoder.NONE && decoder.delivered() == 0) {
                    since = initialSince;
                }
                errorBody = null;
                cancelReason = null;
                deliveredAtOpen = decoder.delivered();
            }
            HttpRequest request = http.newHttpRequestBuilder().uri(logUrl(pod, container, since)).forStreaming().build();
            CompletableFuture<HttpResponse<AsyncBody>> answer = http.consumeBytes(request, this);
            HttpResponse<AsyncBody> response;
            try {
                response = answer.get(options.openTimeout().toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                answer.cancel(true);
                answer.thenAccept(r -> r.body().cancel());
                retry("no answer from the API server in " + options.openTimeout().toSeconds() + " s", false);
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException | CompletionException e) {
                retry("cannot connect: " + KubeErrors.oneLine(e), false);
                return;
            }
            AsyncBody b = response.body();
            if (stopped) {
                b.cancel();
                return;
            }
            if (response.isSuccessful()) {
                body = b;
                lastData = System.nanoTime();
                sink.status(new PodLogStatus(pod, container, PodLogStatus.State.CONNECTED,
                        since == PodLogDecoder.NONE ? "" : "from " + Instant.ofEpochSecond(since), Duration.ZERO));
                b.done().whenComplete((v, t) -> connector.execute(() -> ended(b, t)));
                b.consume();
            } else {
                synchronized (this) {
                    errorBody = new ByteArrayOutputStream();
                }
                b.consume();
                String message;
                try {
                    b.done().get(options.openTimeout().toMillis(), TimeUnit.MILLISECONDS);
                    message = KubeErrors.replyMessage(response.code(), errorBody.toByteArray());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (ExecutionException | TimeoutException e) {
                    b.cancel();
                    message = response.code() + ": " + response.message();
                }
                failed(response.code(), message);
            }
        }

        /** Called by the HTTP client with the next chunk of the body. */
        @Override
        public void consume(List<ByteBuffer> chunk, AsyncBody b) {
            List<LogLine> lines = new ArrayList<>();
            synchronized (this) {
                if (errorBody != null) {
                    for (ByteBuffer bb : chunk) {
                        byte[] bytes = new byte[bb.remaining()];
                        bb.get(bytes);
                        if (errorBody.size() < MAX_ERROR_BODY) {
                            errorBody.write(bytes, 0, Math.min(bytes.length, MAX_ERROR_BODY - errorBody.size()));
                        }
                    }
                    b.consume();
                    return;
                }
                if (stopped || b != body) {
                    return;
                }
                lastData = System.nanoTime();
                for (ByteBuffer bb : chunk) {
                    decoder.feed(bb, lines);
                }
            }
            if (!lines.isEmpty()) {
                sink.lines(lines);
            }
            if (sink.full()) {
                isPaused = true;
                paused.add(this);
                scheduleResume();
            } else {
                b.consume();
            }
        }

        void resume() {
            isPaused = false;
            AsyncBody b = body;
            if (b != null && !stopped) {
                lastData = System.nanoTime();
                b.consume();
            }
        }

        void checkIdle(long now, long limit) {
            AsyncBody b = body;
            if (b != null && !stopped && !isPaused && now - lastData > limit) {
                cancelReason = "no data for " + TimeUnit.NANOSECONDS.toSeconds(limit) + " s";
                b.cancel();
            }
        }

        /** The body of a successful answer is over: normal end, I/O error, or our own cancel. Connector thread. */
        private void ended(AsyncBody b, Throwable error) {
            if (b != body) {
                return;
            }
            body = null;
            if (stopped) {
                return;
            }
            boolean productive = decoder.delivered() > deliveredAtOpen;
            String reason = cancelReason;
            if (reason == null && error != null) {
                reason = "connection lost: " + KubeErrors.oneLine(error);
            }
            if (reason == null) {
                String end = podEnded();
                if (end != null) {
                    finish(PodLogStatus.State.ENDED, end);
                    return;
                }
                reason = "stream closed by the server";
            }
            retry(reason, productive);
        }

        /** Why the pod's log will not grow any more, or null if it may. Asked after a normal end of stream. */
        private String podEnded() {
            Pod p;
            try {
                p = client.pods().inNamespace(namespace).withName(pod).get();
            } catch (KubernetesClientException e) {
                return null;   // cannot tell (e.g. no "get pods" right): keep following
            }
            if (p == null) {
                return "pod deleted";
            }
            String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
            if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
                return "pod " + phase;
            }
            String restart = p.getSpec() == null ? null : p.getSpec().getRestartPolicy();
            if (p.getStatus() != null && p.getStatus().getContainerStatuses() != null) {
                for (ContainerStatus cs : p.getStatus().getContainerStatuses()) {
                    if (container.equals(cs.getName()) && cs.getState() != null && cs.getState().getTerminated() != null
                            && ("Never".equals(restart) || ("OnFailure".equals(restart)
                            && Integer.valueOf(0).equals(cs.getState().getTerminated().getExitCode())))) {
                        return "container exited with code " + cs.getState().getTerminated().getExitCode();
                    }
                }
            }
            return null;
        }

        private void failed(int code, String message) {
            if (code == 404) {
                finish(PodLogStatus.State.ENDED, message);
            } else if (code == 429 || code >= 500 || (code == 400 && transientBadRequest(message))) {
                retry(message, false);
            } else {
                finish(PodLogStatus.State.FAILED, message);
            }
        }

        private void retry(String reason, boolean productive) {
            if (stopped || closed) {
                return;
            }
            if (productive) {
                attempt = 0;
            }
            long base = options.initialBackoff().toMillis();
            long ceiling = Math.min(options.maxBackoff().toMillis(), base << Math.min(attempt, 20));
            long delay = ceiling <= 1 ? ceiling : ThreadLocalRandom.current().nextLong(ceiling / 2, ceiling + 1);
            attempt++;
            sink.status(new PodLogStatus(pod, container, PodLogStatus.State.RETRYING, reason, Duration.ofMillis(delay)));
            try {
                timer.schedule(() -> {
                    if (!stopped && !closed) {
                        connector.execute(this::open);
                    }
                }, delay, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // closing
            }
        }

        private void finish(PodLogStatus.State state, String message) {
            if (stopped) {
                return;
            }
            stopped = true;
            streams.remove(key, this);
            sink.status(new PodLogStatus(pod, container, state, message, Duration.ZERO));
        }

        void stop(String message) {
            if (stopped) {
                return;
            }
            stopped = true;
            streams.remove(key, this);
            AsyncBody b = body;
            body = null;
            if (b != null) {
                b.cancel();
            }
            sink.status(new PodLogStatus(pod, container, PodLogStatus.State.ENDED, message, Duration.ZERO));
        }
    }

    private static boolean transientBadRequest(String message) {
        String m = message.toLowerCase(java.util.Locale.ROOT);
        return m.contains("waiting to start") || m.contains("podinitializing") || m.contains("containercreating")
                || m.contains("is not available");
    }
}
