package org.fabricscope.app.live.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

import org.fabricscope.app.live.source.QuietAfterClose;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientImpl;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/**
 * Work handed to the JDK HTTP client after the Kubernetes client closed (a watch's reconnect, an informer's retry
 * racing a disconnect) must not throw on the thread that hands it over.
 */
@EnableKubernetesMockClient(crud = true, https = false)
class ClosingHttpClientsTest {
    KubernetesMockServer server;
    KubernetesClient client;

    private HttpRequest version() {
        return HttpRequest.newBuilder(URI.create(server.url("/version"))).build();
    }

    private KubernetesClient kube(ClosingHttpClients factory) {
        return new KubernetesClientBuilder().withConfig(client.getConfiguration()).withHttpClientFactory(factory).build();
    }

    private static QuietAfterClose executorOf(Object fabric8Client) {
        QuietAfterClose e = ClosingHttpClients.executorOf((JdkHttpClientImpl) fabric8Client);
        assertNotNull(e, "fabric8's JDK client is readable and runs on our executor");
        return e;
    }

    @Test
    void theClientWorksAndClosingItStopsItsThreads() {
        KubernetesClient k = kube(new ClosingHttpClients());
        assertEquals(0, k.nodes().list().getItems().size());
        QuietAfterClose open = executorOf(k.getHttpClient());
        assertFalse(open.isShutdown());
        k.close();
        assertTrue(open.isShutdown());
    }

    @Test
    void anotherClientOfTheFactoryClosingLeavesTheFirstWorking() {
        // what an OIDC token refresh does: a client of its own from the factory, closed once the token is read
        ClosingHttpClients factory = new ClosingHttpClients();
        KubernetesClient k = kube(factory);
        assertEquals(0, k.nodes().list().getItems().size());
        io.fabric8.kubernetes.client.http.HttpClient.Builder b = factory.newBuilder();
        io.fabric8.kubernetes.client.http.HttpClient refresh = b.build();
        QuietAfterClose main = executorOf(k.getHttpClient());
        QuietAfterClose own = executorOf(refresh);
        assertNotSame(main, own);
        refresh.close();
        assertTrue(own.isShutdown() && !main.isShutdown(), "only the closed client's threads stop");
        client.nodes().resource(KubeFixtures.node("gpu-01", "rdma/rdma", "4")).create();
        assertEquals(1, k.nodes().list().getItems().size(), "the Kubernetes client still answers");
        k.close();
        assertTrue(main.isShutdown());
    }

    @Test
    void aRequestAfterCloseIsDroppedNotThrown() {
        ClosingHttpClients factory = new ClosingHttpClients();
        HttpClient jdk = factory.createNewHttpClientBuilder().build();
        QuietAfterClose executor = (QuietAfterClose) jdk.executor().orElseThrow();
        executor.shutdownNow();
        var late = jdk.sendAsync(version(), HttpResponse.BodyHandlers.discarding());
        assertTrue(executor.dropped() >= 1, "the request's first hand-off was dropped");
        assertFalse(late.isDone() && !late.isCompletedExceptionally(), "nothing answered through the closed client");
    }

    @Test
    void aPlainPoolThrowsThere() {
        // what the stock factory's executor does with the same late request: the exception the class exists for
        ExecutorService pool = Executors.newCachedThreadPool();
        HttpClient jdk = HttpClient.newBuilder().executor(pool).build();
        pool.shutdownNow();
        assertThrows(RejectedExecutionException.class, () -> jdk.sendAsync(version(), HttpResponse.BodyHandlers.discarding()));
    }
}
