package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/** {@code summary}/{@code diagnose --kube}: one read of a cluster (fabric8's mock API server), alone or with files. */
@EnableKubernetesMockClient(crud = true, https = false)
class KubeCliTest {
    KubernetesMockServer server;
    KubernetesClient client;

    @TempDir
    Path dir;

    @BeforeEach
    void cluster() {
        for (String n : List.of("gpu-node-1", "gpu-node-2")) {
            client.nodes().resource(new NodeBuilder().withNewMetadata().withName(n).endMetadata().withNewStatus()
                    .addToAllocatable("cpu", new Quantity("15890m")).addToAllocatable("nvidia.com/gpu", new Quantity("8"))
                    .addToAllocatable("aliyun/erdma", new Quantity("200")).addToAllocatable("memory", new Quantity("128Gi"))
                    .addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build()).create();
        }
        pod("bert-master-0", "bert", "gpu-node-1");
        pod("bert-worker-0", "bert", null);
        pod("gpt-worker-0", "gpt", "gpu-node-2");
        client.v1().events().inNamespace("ml").resource(new EventBuilder().withNewMetadata().withName("e1").endMetadata()
                .withNewInvolvedObject().withKind("Pod").withName("bert-worker-0").withNamespace("ml").endInvolvedObject()
                .withType("Warning").withReason("FailedScheduling")
                .withMessage("0/2 nodes are available: 2 Insufficient nvidia.com/gpu.").build()).create();
    }

    private void pod(String name, String job, String node) {
        client.pods().inNamespace("ml").resource(new PodBuilder().withNewMetadata().withName(name).withNamespace("ml")
                .withLabels(Map.of("training.kubeflow.org/job-name", job)).endMetadata()
                .withNewSpec().withNodeName(node).withContainers(new ContainerBuilder().withName("pytorch").withImage("x")
                        .withNewResources().addToLimits("nvidia.com/gpu", new Quantity("8")).endResources().build())
                .endSpec().withNewStatus().withPhase(node == null ? "Pending" : "Running").endStatus().build()).create();
    }

    private Path kubeconfig(String server) throws IOException {
        Path p = dir.resolve("kubeconfig");
        Files.writeString(p, "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: " + server
                + "\ncontexts:\n- name: lab\n  context:\n    cluster: c\n    user: u\n- name: prod\n  context:\n    cluster: c\n"
                + "    user: u\n    namespace: ml\ncurrent-context: lab\nusers:\n- name: u\n  user:\n    token: t\n");
        return p;
    }

    private String mockUrl() {
        return server.url("/").replaceAll("/$", "");
    }

    @Test
    void summaryJsonReadsTheJobFromTheCluster() throws IOException {
        // --no-logs: the CRUD mock answers .../pods/P/log with a pod list (pod logs are tested against a stub in importers)
        CliTest.Run r = CliTest.run("summary", "--json", "--kube", "--kubeconfig", kubeconfig(mockUrl()).toString(),
                "--namespace", "ml", "--job", "bert", "--no-logs");
        assertEquals(0, r.status(), r.err());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals(2, j.get("k8sNodes").asInt());
        assertEquals(2, j.get("pods").asInt(), "bert's two pods, not gpt's");
        assertEquals(16, j.get("allocatable").get("nvidia.com/gpu").asInt());
        assertEquals(400, j.get("allocatable").get("aliyun/erdma").asInt());
        assertEquals(31.78, j.get("allocatable").get("cpu").asDouble(), 1e-9);
    }

    @Test
    void diagnoseFindsThePendingPodAndFilesCombine() throws IOException {
        Path fabric = dir.resolve("two-tier.ibnetdiscover.txt");
        try (InputStream in = KubeCliTest.class.getResourceAsStream("/fabrics/two-tier.ibnetdiscover.txt")) {
            Files.copy(in, fabric);
        }
        CliTest.Run r = CliTest.run("diagnose", "--json", "--kube", "--kubeconfig", kubeconfig(mockUrl()).toString(),
                "--context", "prod", "--job", "bert", "--no-logs", fabric.toString());
        assertEquals(0, r.status(), r.err());
        JsonNode j = new ObjectMapper().readTree(r.out());
        List<String> ids = new ArrayList<>();
        j.get("findings").forEach(f -> ids.add(f.get("id").asText()));
        assertTrue(ids.contains("insufficient-resources"), ids.toString());
        assertTrue(ids.contains("rdma-resource-not-requested"), ids.toString());
        CliTest.Run s = CliTest.run("summary", "--json", "--kube", "--kubeconfig", kubeconfig(mockUrl()).toString(),
                "--context", "prod", "--job", "bert", "--no-logs", fabric.toString());
        JsonNode sj = new ObjectMapper().readTree(s.out());
        assertEquals(4, sj.get("switches").asInt(), "the file's fabric is there too");
        assertEquals(2, sj.get("pods").asInt(), "namespace ml from the prod context");
    }

    @Test
    void unknownContextExitsOneWithTheList() throws IOException {
        CliTest.Run r = CliTest.run("summary", "--kube", "--kubeconfig", kubeconfig(mockUrl()).toString(), "--context", "dev");
        assertEquals(1, r.status());
        assertEquals("fabricscope: context 'dev' is not in " + dir.resolve("kubeconfig") + "; available: lab (current), prod",
                r.err().strip());
        assertEquals("", r.out());
    }

    @Test
    void forbiddenExitsOneNamingVerbAndResource() throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/", ex -> {
            String path = ex.getRequestURI().getPath();
            String res = path.substring(path.lastIndexOf('/') + 1);
            byte[] b = ("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"Forbidden\",\"code\":403,"
                    + "\"message\":\"" + res + " is forbidden: User \\\"dave\\\" cannot list resource \\\"" + res
                    + "\\\" in API group \\\"\\\"\"}").getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(403, b.length);
            try (OutputStream o = ex.getResponseBody()) {
                o.write(b);
            }
        });
        http.start();
        try {
            String url = "http://127.0.0.1:" + http.getAddress().getPort();
            CliTest.Run r = CliTest.run("diagnose", "--kube", "--kubeconfig", kubeconfig(url).toString(), "--job", "bert");
            assertEquals(1, r.status(), r.err());
            assertTrue(r.err().startsWith("fabricscope: forbidden: cannot list nodes (cluster-wide) (user \"dave\"); grant "
                    + "get/list/watch on nodes (README 'Live clusters' has a ClusterRole)"), r.err());
            assertEquals(1, r.err().strip().lines().count(), "one line, no stack trace: " + r.err());
        } finally {
            http.stop(0);
        }
    }

    @Test
    void usageErrors() {
        assertEquals(2, CliTest.run("summary", "--job", "bert").status(), "--job needs --kube");
        CliTest.Run both = CliTest.run("summary", "--kube", "--job", "a", "--selector", "app=b");
        assertEquals(2, both.status());
        assertTrue(both.err().contains("give a job name or a label selector, not both"), both.err());
        assertEquals(2, CliTest.run("summary").status(), "a path or --kube is required");
    }
}
