package org.fabricscope.app.live.kube;

import java.lang.reflect.Method;
import java.net.http.HttpClient;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import org.fabricscope.app.live.source.QuietAfterClose;

import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientImpl;

/**
 * fabric8's JDK HTTP client, whose executor goes quiet once its client is closed ({@link QuietAfterClose}).
 * fabric8's own factory shuts a plain pool down on close, and a watch or retry still in flight then throws
 * {@link java.util.concurrent.RejectedExecutionException} on a JDK client thread (it failed a window test in CI).
 *
 * <p>One factory serves one Kubernetes client, but may build more than one JDK client: an OIDC token refresh builds
 * its own from the factory and closes it when the refresh is done. So a close shuts only the closing client's
 * executor, as the stock factory does.
 */
final class ClosingHttpClients extends JdkHttpClientFactory {
    private static final AtomicInteger CLIENTS = new AtomicInteger();
    /** {@code JdkHttpClientImpl.getHttpClient()}: package-private in fabric8 7.8; null where it cannot be reached. */
    private static final Method JDK_CLIENT = jdkClientAccessor();

    private static Method jdkClientAccessor() {
        try {
            Method m = JdkHttpClientImpl.class.getDeclaredMethod("getHttpClient");
            m.setAccessible(true);
            return m;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // another fabric8: a closed client's idle threads then end on their own within a minute
        }
    }

    @Override
    protected HttpClient.Builder createNewHttpClientBuilder() {
        int client = CLIENTS.incrementAndGet();
        AtomicInteger threads = new AtomicInteger();
        QuietAfterClose executor = new QuietAfterClose(Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "fabricscope-k8s-http-" + client + "-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        }));
        return HttpClient.newBuilder().executor(executor);
    }

    /** fabric8 calls this as a JDK client built here closes (with every client derived from it, which share it). */
    @Override
    protected void closeHttpClient(JdkHttpClientImpl client) {
        QuietAfterClose executor = executorOf(client);
        if (executor != null) {
            executor.shutdownNow();
        }
        // else another fabric8 than 7.8: the closed client's idle threads end on their own (a cached pool's keep-alive)
    }

    /** The executor of a JDK client built here, or null where fabric8 does not let it be read. */
    static QuietAfterClose executorOf(JdkHttpClientImpl client) {
        if (JDK_CLIENT == null) {
            return null;
        }
        try {
            return ((HttpClient) JDK_CLIENT.invoke(client)).executor().filter(QuietAfterClose.class::isInstance)
                    .map(QuietAfterClose.class::cast).orElse(null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
