package org.fabricscope.app.live.kube;

import java.net.http.HttpClient;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import org.fabricscope.app.live.source.QuietAfterClose;

import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientImpl;

/**
 * fabric8's JDK HTTP client, whose executor goes quiet once the Kubernetes client is closed ({@link QuietAfterClose}).
 * fabric8's own factory shuts a plain pool down on close, and a watch or retry still in flight then throws
 * {@link java.util.concurrent.RejectedExecutionException} on a JDK client thread (it failed a window test in CI).
 */
final class ClosingHttpClients extends JdkHttpClientFactory {
    private static final AtomicInteger CLIENTS = new AtomicInteger();
    /** The executors of the JDK clients built here: one factory serves one Kubernetes client. */
    private final List<QuietAfterClose> executors = new CopyOnWriteArrayList<>();

    @Override
    protected HttpClient.Builder createNewHttpClientBuilder() {
        int client = CLIENTS.incrementAndGet();
        AtomicInteger threads = new AtomicInteger();
        QuietAfterClose executor = new QuietAfterClose(Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "fabricscope-k8s-http-" + client + "-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        }));
        executors.add(executor);
        return HttpClient.newBuilder().executor(executor);
    }

    /**
     * fabric8 calls this as the Kubernetes client closes (its stock factory shuts that client's executor down here).
     * Every executor this factory made is shut: fabric8 7.8 builds one JDK client per Kubernetes client, and the
     * clients it derives from it (other timeouts, log follows) share that JDK client and its executor, so closing
     * any of them already ends them all in the stock factory too. The JDK client that closes is not named to us
     * ({@code JdkHttpClientImpl.getHttpClient} is package-private).
     */
    @Override
    protected void closeHttpClient(JdkHttpClientImpl client) {
        executors.forEach(QuietAfterClose::shutdownNow);
    }

    List<QuietAfterClose> executors() {
        return List.copyOf(executors);
    }
}
