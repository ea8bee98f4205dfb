package org.fabricscope.app.live.kube;

import java.net.http.HttpClient;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientImpl;

/**
 * fabric8's JDK HTTP client, with an executor that goes quiet once the client is closed.
 *
 * <p>fabric8 shuts the {@link HttpClient}'s executor down when the Kubernetes client closes. Work still in flight
 * at that moment (a watch being torn down, an informer's retry, the JDK client's own hand-offs such as
 * {@code MultiExchange.responseAsync}'s {@code completeAsync}) then hands the dead executor a task, and the
 * {@link RejectedExecutionException} escapes on whatever thread did it: a stack trace on the terminal after a clean
 * disconnect (fabric8 issues 6215, 6747, 6863 report the same race in its other clients). Here a task refused
 * because the client is closed is dropped and counted: the client is gone and nothing may start again through it
 * (running the task elsewhere could reopen a watch after the user disconnected). A task refused while the client is
 * open still throws.
 */
final class ClosingHttpClients extends JdkHttpClientFactory {
    /** The executors of the JDK clients built here: one factory serves one Kubernetes client. */
    private final List<QuietAfterClose> executors = new CopyOnWriteArrayList<>();

    @Override
    protected HttpClient.Builder createNewHttpClientBuilder() {
        QuietAfterClose executor = new QuietAfterClose();
        executors.add(executor);
        return HttpClient.newBuilder().executor(executor);
    }

    /** fabric8 calls this as the Kubernetes client closes (the stock factory shuts its one executor down here). */
    @Override
    protected void closeHttpClient(JdkHttpClientImpl client) {
        executors.forEach(QuietAfterClose::shutdownNow);
    }

    List<QuietAfterClose> executors() {
        return List.copyOf(executors);
    }

    /** A cached pool of daemon threads that drops, rather than refuses, tasks handed to it after shutdown. */
    static final class QuietAfterClose implements Executor {
        private static final AtomicInteger CLIENTS = new AtomicInteger();
        private final AtomicInteger threads = new AtomicInteger();
        private final AtomicLong dropped = new AtomicLong();
        private final ExecutorService pool;

        QuietAfterClose() {
            int client = CLIENTS.incrementAndGet();
            pool = Executors.newCachedThreadPool(r -> {
                Thread t = new Thread(r, "fabricscope-k8s-http-" + client + "-" + threads.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        }

        @Override
        public void execute(Runnable task) {
            try {
                pool.execute(task);
            } catch (RejectedExecutionException e) {
                if (!pool.isShutdown()) {
                    throw e;
                }
                dropped.incrementAndGet();
            }
        }

        void shutdownNow() {
            pool.shutdownNow();
        }

        boolean isShutdown() {
            return pool.isShutdown();
        }

        /** Tasks handed over after shutdown and dropped. */
        long dropped() {
            return dropped.get();
        }
    }
}
