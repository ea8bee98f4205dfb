package org.fabricscope.app.live.prom;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import javax.net.ssl.SSLException;

import org.fabricscope.app.live.source.QuietAfterClose;

/**
 * GETs of a Prometheus server's read-only API ({@link #PATHS}), each within {@link PromLimits#REQUEST} and
 * all within the read's overall deadline. The reply's body is read on a worker thread, so a server that
 * accepts and never answers, or sends a byte a second, is cut at the deadline with one line naming the
 * URL; bodies past {@link PromLimits#MAX_REPLY_BYTES} are refused. Never follows redirects, never writes.
 */
final class PromHttp implements AutoCloseable {
    /** The only paths asked for: the query API and build information. */
    static final java.util.Set<String> PATHS = java.util.Set.of("api/v1/query", "api/v1/query_range", "api/v1/series",
            "api/v1/labels", "api/v1/status/buildinfo");

    /** A reply: its HTTP status, content type and body (at most {@link PromLimits#MAX_REPLY_BYTES}). */
    record Reply(int status, String contentType, byte[] body, String url) {
    }

    private final PromTarget target;
    private final String authorization;
    private final HttpClient client;
    private final ExecutorService readers;
    private final Duration perRequest;
    private final Instant deadline;
    private final int maxBytes;

    PromHttp(PromTarget target, Duration perRequest, Instant deadline) throws PromException {
        this(target, perRequest, deadline, PromLimits.MAX_REPLY_BYTES);
    }

    PromHttp(PromTarget target, Duration perRequest, Instant deadline, int maxBytes) throws PromException {
        this.target = target;
        this.perRequest = perRequest;
        this.deadline = deadline;
        this.maxBytes = maxBytes;
        this.authorization = PromAuth.header(target);
        this.readers = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "prometheus-reply");
            t.setDaemon(true);
            return t;
        });
        HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(PromLimits.CONNECT)
                .followRedirects(HttpClient.Redirect.NEVER).executor(new QuietAfterClose(readers));
        if (target.caFile() != null) {
            b.sslContext(PromAuth.trusting(target.caFile()));
        }
        this.client = b.build();
    }

    /** GET {@code path} with {@code params}; the reply whatever its status (the caller reads Prometheus' error). */
    Reply get(String path, Map<String, String> params) throws PromException {
        if (!PATHS.contains(path)) {
            throw new IllegalArgumentException("not a read-only Prometheus API path: " + path);
        }
        StringBuilder q = new StringBuilder();
        for (Map.Entry<String, String> e : params.entrySet()) {
            q.append(q.length() == 0 ? "?" : "&").append(e.getKey()).append('=')
                    .append(URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
        }
        URI uri = target.url().resolve(path + q);
        String shown = target.base() + "/" + path;
        if (readers.isShutdown()) {
            throw closed(shown);
        }
        long budget = Math.min(perRequest.toMillis(), Duration.between(Instant.now(), deadline).toMillis());
        if (budget <= 0) {
            throw new PromException(shown + ": no time left of the read's " + seconds(PromLimits.ONE_SHOT) + " (PromLimits.ONE_SHOT)");
        }
        long until = System.nanoTime() + budget * 1_000_000;
        HttpRequest.Builder rb = HttpRequest.newBuilder(uri).GET().timeout(Duration.ofMillis(budget))
                .header("Accept", "application/json").header("User-Agent", "FabricScope");
        if (authorization != null) {
            rb.header("Authorization", authorization);
        }
        CompletableFuture<HttpResponse<InputStream>> sent = client.sendAsync(rb.build(), HttpResponse.BodyHandlers.ofInputStream());
        HttpResponse<InputStream> response;
        try {
            response = sent.get(budget, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            sent.cancel(true);
            if (readers.isShutdown()) { // closed while it was being sent: its hand-off was dropped, not refused
                throw closed(shown);
            }
            throw new PromException(shown + " did not answer within " + millis(budget) + " (PromLimits.REQUEST)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PromException(shown + ": interrupted");
        } catch (ExecutionException e) {
            throw new PromException(failure(shown, e.getCause(), budget));
        }
        InputStream in = response.body();
        Future<byte[]> body;
        try {
            body = readers.submit(() -> readBounded(in, maxBytes));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            abandon(in);
            throw closed(shown);
        }
        try {
            byte[] bytes = body.get(Math.max(1, (until - System.nanoTime()) / 1_000_000), TimeUnit.MILLISECONDS);
            if (bytes == null) {
                throw new PromException(shown + " sent a reply larger than " + (maxBytes >> 20) + " MiB "
                        + "(PromLimits.MAX_REPLY_BYTES); narrow the window or the series");
            }
            String type = response.headers().firstValue("Content-Type").orElse("");
            return new Reply(response.statusCode(), type, bytes, shown);
        } catch (TimeoutException e) {
            body.cancel(true);
            abandon(in);
            throw new PromException(shown + " did not finish its reply within " + millis(budget)
                    + " (PromLimits.REQUEST; the server stalls or trickles)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abandon(in);
            throw new PromException(shown + ": interrupted");
        } catch (ExecutionException e) {
            closeQuietly(in);
            throw new PromException(failure(shown, e.getCause(), budget));
        }
    }

    /** The bytes of {@code in}, or null past {@code max}. */
    private static byte[] readBounded(InputStream in, int max) throws IOException {
        try (in) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(8192);
            byte[] buf = new byte[65536];
            int n;
            while ((n = in.read(buf)) >= 0) {
                if (out.size() + n > max) {
                    return null;
                }
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        }
    }

    /** One line for a failed request: refused, unreachable, unknown host, TLS. */
    static String failure(String shown, Throwable e, long budget) {
        Throwable c = e;
        while (c != null && c.getCause() != null && !(c instanceof ConnectException) && !(c instanceof SSLException)
                && !(c instanceof java.nio.channels.UnresolvedAddressException) && !(c instanceof HttpTimeoutException)) {
            c = c.getCause();
        }
        if (c instanceof HttpConnectTimeoutException) {
            return shown + " is unreachable: no connection within " + seconds(PromLimits.CONNECT) + " (PromLimits.CONNECT)";
        }
        if (c instanceof HttpTimeoutException) {
            return shown + " did not answer within " + millis(budget) + " (PromLimits.REQUEST)";
        }
        if (c instanceof java.nio.channels.UnresolvedAddressException || c instanceof java.net.UnknownHostException) {
            return shown + " is unreachable: the host name does not resolve";
        }
        if (c instanceof ConnectException) {
            String m = String.valueOf(c.getMessage());
            return shown + (m.contains("refused") || m.equals("null") ? " refused the connection (nothing listens there?)"
                    : " is unreachable: " + m);
        }
        if (c instanceof SSLException) {
            return shown + ": TLS failed (" + oneLine(c.getMessage()) + "); for a private CA give --prometheus-ca-file";
        }
        if (c instanceof IOException) {
            return shown + ": the connection failed (" + oneLine(c.getMessage()) + ")";
        }
        return shown + ": the request failed (" + oneLine(c == null ? null : c.getMessage()) + ")";
    }

    static String oneLine(String m) {
        if (m == null || m.isBlank()) {
            return "no reason given";
        }
        String s = m.strip().replaceAll("\\s+", " ");
        return s.length() > 200 ? s.substring(0, 200) + "…" : s;
    }

    static String seconds(Duration d) {
        return d.toSeconds() + " s";
    }

    /** A read asked of, or caught by, a closed connection. */
    private static PromException closed(String shown) {
        return new PromException(shown + ": not read, the connection to Prometheus is closed");
    }

    private static String millis(long ms) {
        return ms % 1000 == 0 ? ms / 1000 + " s" : String.format(java.util.Locale.ROOT, "%.1f s", ms / 1000.0);
    }

    /** Closes a reply being abandoned off this thread: closing may wait for the connection, which the deadline does not. */
    private void abandon(InputStream in) {
        try {
            readers.execute(() -> closeQuietly(in));
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            // the client is closing; its threads go with it
        }
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException ignored) {
            // the reply is abandoned either way
        }
    }

    static Map<String, String> params(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Override
    public void close() {
        readers.shutdownNow(); // HttpClient has no close before Java 21; its threads are these and its selector's
    }
}
