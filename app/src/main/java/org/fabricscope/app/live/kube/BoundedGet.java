package org.fabricscope.app.live.kube;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;

/**
 * One GET of a one-shot read, through the connection's authenticated HTTP client, with bounds the
 * client's own timeouts lack: the whole answer (headers and body) within a deadline, and at most
 * a number of body bytes. fabric8's request timeout covers the headers only, so a server that sends
 * them and then stalls, or trickles the body a byte at a time, held a read forever; and a reply of
 * any size was read into memory.
 */
final class BoundedGet {
    private BoundedGet() {
    }

    /** An answer: the status code and the body (complete, within the cap). */
    record Answer(int code, byte[] body) {
        boolean successful() {
            return code >= 200 && code < 300;
        }
    }

    /** The read took longer than its deadline; {@code headers} says whether the headers had come. */
    static final class DeadlineExceeded extends Exception {
        private static final long serialVersionUID = 1L;
        final boolean headers;
        final long bytes;

        DeadlineExceeded(boolean headers, long bytes) {
            super(headers ? "the reply body did not finish in time" : "no reply in time", null, false, false);
            this.headers = headers;
            this.bytes = bytes;
        }
    }

    /** The body grew past the cap. */
    static final class TooLarge extends Exception {
        private static final long serialVersionUID = 1L;

        TooLarge() {
            super("reply too large", null, false, false);
        }
    }

    /**
     * GETs {@code uri}. Transport failures come as the client reports them (the {@link ExecutionException}'s
     * cause), for {@link KubeErrors#describe} to name.
     */
    static Answer get(HttpClient http, URI uri, long requestTimeoutMillis, long deadlineMillis, long maxBytes)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(deadlineMillis);
        HttpRequest req = http.newHttpRequestBuilder().uri(uri).timeout(requestTimeoutMillis, TimeUnit.MILLISECONDS)
                .header("Accept", "application/json").build();
        Collector body = new Collector(maxBytes);
        CompletableFuture<HttpResponse<AsyncBody>> answer = http.consumeBytes(req, body);
        HttpResponse<AsyncBody> response;
        try {
            response = answer.get(left(deadline), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            answer.thenAccept(r -> r.body().cancel());
            throw new DeadlineExceeded(false, 0);
        } catch (ExecutionException e) {
            throw unwrap(e);
        }
        AsyncBody b = response.body();
        b.consume();
        try {
            b.done().get(left(deadline), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            b.cancel();
            throw new DeadlineExceeded(true, body.size());
        } catch (CancellationException | ExecutionException e) {
            if (body.tooLarge) {
                throw new TooLarge();
            }
            throw e instanceof ExecutionException x ? unwrap(x) : e;
        }
        if (body.tooLarge) {
            throw new TooLarge();
        }
        return new Answer(response.code(), body.bytes());
    }

    private static Exception unwrap(ExecutionException e) {
        Throwable c = e.getCause();
        if (c instanceof Error err) {
            throw err;
        }
        return c instanceof Exception x ? x : e;
    }

    private static long left(long deadline) {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
    }

    /** Collects the body, cancelling the answer once it passes the cap. */
    private static final class Collector implements AsyncBody.Consumer<List<ByteBuffer>> {
        private final long max;
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private volatile boolean tooLarge;

        Collector(long max) {
            this.max = max;
        }

        @Override
        public synchronized void consume(List<ByteBuffer> chunk, AsyncBody b) {
            if (tooLarge) {
                return;
            }
            for (ByteBuffer bb : chunk) {
                int n = bb.remaining();
                if (out.size() + (long) n > max) {
                    tooLarge = true;
                    b.cancel();
                    return;
                }
                byte[] bytes = new byte[n];
                bb.get(bytes);
                out.write(bytes, 0, n);
            }
            b.consume();
        }

        synchronized long size() {
            return out.size();
        }

        synchronized byte[] bytes() {
            return out.toByteArray();
        }
    }
}
