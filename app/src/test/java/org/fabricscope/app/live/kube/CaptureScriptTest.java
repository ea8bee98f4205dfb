package org.fabricscope.app.live.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;

import org.fabricscope.app.cli.FabricScopeCommand;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/**
 * {@code packaging/fabricscope-capture} run with the real kubectl against fabric8's mock API server (CRUD mode)
 * holding a job's nodes, pods (with secrets planted in their environment), events, a Secret and the pods' logs:
 * the bundle's manifest, that no planted secret value is in any file of the bundle, that {@code diagnose} on the
 * bundle finds what the live read ({@code --kube}) of the same server finds, and {@code --dry-run}.
 */
@EnableKubernetesMockClient(crud = true, https = false)
class CaptureScriptTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> SECRETS = List.of("hf_PlantedTokenValue42", "Pl4ntedDbPassw0rd", "AKIAPLANTEDSECRET99",
            "c2VjcmV0LW9iamVjdC1kYXRh", "secret-token");
    private static final String LOG = "2026-11-27T03:00:00.000000000Z NCCL INFO NCCL_IB_HCA set by environment to mlx5\n"
            + "2026-11-27T03:00:01.000000000Z using token hf_PlantedTokenValue42 to download the model\n";

    KubernetesMockServer server;
    KubernetesClient client;

    @TempDir
    Path dir;
    Path kubeconfig;

    static Path script() {
        Path p = Path.of("").toAbsolutePath();
        for (int i = 0; i < 3 && p != null; i++, p = p.getParent()) {
            Path s = p.resolve("packaging/fabricscope-capture");
            if (Files.isRegularFile(s)) {
                return s;
            }
        }
        throw new AssertionError("packaging/fabricscope-capture not found above " + Path.of("").toAbsolutePath());
    }

    static boolean onPath(String tool) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, tool))) {
                return true;
            }
        }
        return false;
    }

    @BeforeEach
    void cluster() throws IOException {
        client.nodes().resource(KubeFixtures.node("gpu-node-1", "rdma/rdma", "1k")).create();
        client.nodes().resource(KubeFixtures.node("gpu-node-2", "rdma/rdma", "1k")).create();
        var pods = client.pods().inNamespace(KubeFixtures.NS);
        pods.resource(withSecrets(KubeFixtures.jobPod("bert", "master", 0, "gpu-node-1", "8"))).create();
        pods.resource(withSecrets(KubeFixtures.jobPod("bert", "worker", 0, "gpu-node-2", "8"))).create();
        pods.resource(KubeFixtures.jobPod("bert", "worker", 1, null, "8")).create();
        pods.resource(KubeFixtures.pod("web-5d8f", Map.of("app", "web"), "gpu-node-1", "0")).create();
        client.v1().events().inNamespace(KubeFixtures.NS).resource(KubeFixtures.event("bert-worker-1.1", "bert-worker-1", "Warning",
                "FailedScheduling", KubeFixtures.FAILED_SCHEDULING)).create();
        client.secrets().inNamespace(KubeFixtures.NS).resource(new SecretBuilder().withNewMetadata().withName("hf")
                .endMetadata().addToData("token", "c2VjcmV0LW9iamVjdC1kYXRh").build()).create();
        for (String pod : List.of("bert-master-0", "bert-worker-0")) {
            String base = "/api/v1/namespaces/" + KubeFixtures.NS + "/pods/" + pod + "/log";
            // what kubectl logs asks (Go sorts the query) and what the live read asks
            server.expect().get().withPath(base + "?container=pytorch&tailLines=20000&timestamps=true").andReturn(200, LOG).always();
            server.expect().get().withPath(base + "?container=pytorch&previous=true&tailLines=20000&timestamps=true")
                    .andReturn(400, "{\"kind\":\"Status\",\"status\":\"Failure\",\"message\":\"previous terminated container "
                            + "\\\"pytorch\\\" in pod \\\"" + pod + "\\\" not found\",\"code\":400}").always();
            server.expect().get().withPath(base + "?container=pytorch&timestamps=true&tailLines=20000&limitBytes=16777216")
                    .andReturn(200, LOG).always();
        }
        discovery();
        kubeconfig = KubeFixtures.kubeconfig(dir, server.url("/").replaceAll("/$", ""), "mock");
    }

    /** The legacy discovery documents kubectl asks first (the mock's CRUD mode serves only the objects). */
    private void discovery() {
        server.expect().get().withPath("/api?timeout=32s").andReturn(200, "{\"kind\":\"APIVersions\",\"versions\":[\"v1\"],"
                + "\"serverAddressByClientCIDRs\":[{\"clientCIDR\":\"0.0.0.0/0\",\"serverAddress\":\"127.0.0.1\"}]}").always();
        server.expect().get().withPath("/apis?timeout=32s").andReturn(200, "{\"kind\":\"APIGroupList\",\"apiVersion\":\"v1\",\"groups\":[]}")
                .always();
        StringBuilder r = new StringBuilder("{\"kind\":\"APIResourceList\",\"groupVersion\":\"v1\",\"resources\":[");
        String[][] kinds = {{"nodes", "Node", "false"}, {"pods", "Pod", "true"}, {"events", "Event", "true"},
                {"namespaces", "Namespace", "false"}, {"pods/log", "Pod", "true"}, {"pods/exec", "PodExecOptions", "true"}};
        for (int i = 0; i < kinds.length; i++) {
            r.append(i == 0 ? "" : ",").append("{\"name\":\"").append(kinds[i][0]).append("\",\"singularName\":\"\",\"namespaced\":")
                    .append(kinds[i][2]).append(",\"kind\":\"").append(kinds[i][1]).append("\",\"verbs\":[\"get\",\"list\",\"create\"]}");
        }
        server.expect().get().withPath("/api/v1?timeout=32s").andReturn(200, r.append("]}").toString()).always();
    }

    /** The pod with secrets in its environment, in the last-applied annotation too, and an NCCL variable to keep. */
    private static Pod withSecrets(Pod p) {
        var c = p.getSpec().getContainers().get(0);
        c.setEnv(new ArrayList<>(List.of(new EnvVar("NCCL_IB_HCA", "mlx5", null), new EnvVar("HF_TOKEN", "hf_PlantedTokenValue42", null),
                new EnvVar("db_password", "Pl4ntedDbPassw0rd", null), new EnvVar("AWS_SECRET_ACCESS_KEY", "AKIAPLANTEDSECRET99", null))));
        p.getMetadata().setAnnotations(Map.of("kubectl.kubernetes.io/last-applied-configuration",
                "{\"spec\":{\"containers\":[{\"env\":[{\"name\":\"HF_TOKEN\",\"value\":\"hf_PlantedTokenValue42\"},"
                        + "{\"name\":\"db_password\",\"value\":\"Pl4ntedDbPassw0rd\"}],\"name\":\"pytorch\"}]}}"));
        return p;
    }

    record Run(int status, String out, String err) {
    }

    private Run capture(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("sh", script().toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        pb.environment().put("KUBECONFIG", kubeconfig.toString());
        pb.environment().put("HOME", dir.toString());
        Path err = dir.resolve("stderr.txt");
        pb.redirectError(err.toFile());
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(240, TimeUnit.SECONDS), "the script did not end");
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8), Files.readString(err));
    }

    @Test
    void bundleHasManifestNoSecretsAndTheLiveReadsFindings() throws Exception {
        assumeTrue(onPath("kubectl"), "kubectl is not installed (apt-get install kubernetes-client, or .ci/install-tools.sh)");
        Path bundle = dir.resolve("incident.tar.gz");
        Run r = capture("-n", KubeFixtures.NS, "--job", "bert", "--out", bundle.toString(), "--timeout", "15", "--no-fabric");
        assertEquals(0, r.status(), r.err());
        assertEquals(bundle.toString(), r.out().strip());
        assertTrue(r.err().contains("done: "), r.err());

        Map<String, byte[]> files = untar(bundle);
        String root = files.keySet().iterator().next().split("/")[0];
        assertTrue(root.startsWith("fabricscope-capture-"), root);
        for (String want : List.of("manifest.json", "cluster/nodes.json", "cluster/pods.json", "cluster/events.json",
                "logs/bert-master-0.pytorch.log", "logs/bert-worker-0.pytorch.log")) {
            assertTrue(files.containsKey(root + "/" + want), want + " not in " + files.keySet() + "\n" + r.err() + "\n"
                    + new String(files.get(root + "/manifest.json"), StandardCharsets.UTF_8));
        }
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            String text = new String(f.getValue(), StandardCharsets.ISO_8859_1);
            for (String s : SECRETS) {
                assertFalse(text.contains(s), "secret " + s + " in " + f.getKey() + ":\n" + text);
            }
            assertFalse(f.getKey().contains("kubeconfig") || f.getKey().contains("secret"), f.getKey());
        }
        String pods = new String(files.get(root + "/cluster/pods.json"), StandardCharsets.UTF_8);
        assertTrue(pods.contains("\"NCCL_IB_HCA\"") && pods.contains("\"mlx5\""), "a harmless variable stays");
        assertTrue(pods.contains("\"***\""), "masked values are marked");
        assertFalse(pods.contains("web-5d8f"), "only the job's pods");
        assertTrue(new String(files.get(root + "/logs/bert-master-0.pytorch.log"), StandardCharsets.UTF_8).contains("using token ***"));

        JsonNode manifest = JSON.readTree(files.get(root + "/manifest.json"));
        assertEquals("fabricscope-capture", manifest.get("format").asText());
        assertEquals("team-a", manifest.get("namespace").asText());
        assertEquals("bert", manifest.get("job").asText());
        assertTrue(manifest.get("kubectl").asText().contains("Client Version"), manifest.get("kubectl").toString());
        Map<String, JsonNode> steps = new TreeMap<>();
        manifest.get("steps").forEach(s -> steps.put(s.get("step").asText(), s));
        assertEquals("ok", steps.get("nodes").get("status").asText());
        assertEquals(0, steps.get("nodes").get("exitCode").asInt());
        assertTrue(steps.get("nodes").get("command").asText().startsWith("kubectl get nodes -o json"), steps.get("nodes").toString());
        assertEquals("skipped", steps.get("pytorchjobs").get("status").asText());
        assertTrue(steps.get("pytorchjobs").get("detail").asText().contains("not installed"));
        JsonNode previous = steps.get("previous log bert-master-0/pytorch");
        assertEquals("failed", previous.get("status").asText(), previous.toString());
        assertTrue(previous.get("exitCode").asInt() != 0);
        assertEquals("skipped", steps.get("ibnetdiscover").get("status").asText());
        assertEquals("skipped", steps.get("log bert-worker-1/pytorch").get("status").asText(), "pending: no log");
        assertFalse(files.containsKey(root + "/logs/bert-worker-1.pytorch.log"));
        // the pending pod is described; the mock cannot answer kubectl describe (it asks for protobuf), so that
        // step is recorded as failed with kubectl's words, and nothing half-written is kept
        JsonNode describe = steps.get("describe bert-worker-1");
        assertEquals("kubectl describe pod -n team-a bert-worker-1", describe.get("command").asText());
        assertTrue(describe.get("status").asText().equals("ok") ? files.containsKey(root + "/describe/bert-worker-1.txt")
                : !describe.get("detail").asText().isEmpty() && describe.get("exitCode").asInt() != 0, describe.toString());
        assertFalse(steps.containsKey("describe bert-master-0"), "a running pod is not described");
        // kubectl exec cannot reach a container through the mock: each per-node step is recorded, the run went on
        JsonNode ibstat = steps.get("ibstat on gpu-node-1");
        assertEquals("failed", ibstat.get("status").asText(), ibstat.toString());
        assertTrue(ibstat.get("where").asText().contains("pod bert-master-0"), ibstat.toString());
        assertTrue(steps.containsKey("lldpctl on gpu-node-2"), steps.keySet().toString());
        assertEquals("skipped", steps.get("node diagnostics via bert-worker-1").get("status").asText());
        for (JsonNode s : manifest.get("steps")) {
            assertTrue(s.hasNonNull("started") && s.hasNonNull("ended") && s.has("exitCode") && s.has("where"), s.toString());
        }

        List<String> fromBundle = findings(List.of("diagnose", "--json", bundle.toString()));
        List<String> live = findings(List.of("diagnose", "--json", "--kube", "--kubeconfig", kubeconfig.toString(), "--job", "bert"));
        assertFalse(live.isEmpty());
        assertEquals(live, fromBundle);
    }

    @Test
    void dryRunListsAndRunsNothing() throws Exception {
        int before = server.getRequestCount();
        Run r = capture("-n", "team-a", "--job", "bert", "--since", "2h", "--dry-run", "--out", dir.resolve("out").toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("run: nodes: kubectl get nodes -o json > cluster/nodes.json"), r.out());
        assertTrue(r.out().contains("--since=2h"), r.out());
        assertTrue(r.out().contains("ibv_devinfo -v") && r.out().contains("lldpctl") && r.out().contains("ibnetdiscover"), r.out());
        assertTrue(r.out().contains("write: manifest.json"), r.out());
        assertFalse(Files.exists(dir.resolve("out")), "a dry run writes nothing");
        assertEquals(before, server.getRequestCount(), "a dry run asks the server nothing");
    }

    @Test
    void badOptionsAreUsageErrors() throws Exception {
        Run both = capture("--job", "a", "--selector", "x=y", "--dry-run");
        assertEquals(2, both.status());
        assertTrue(both.err().contains("--job and --selector exclude each other"), both.err());
        Run timeout = capture("--timeout", "soon", "--dry-run");
        assertEquals(2, timeout.status());
        assertTrue(timeout.err().contains("--timeout takes whole seconds"), timeout.err());
        Run unknown = capture("--bogus");
        assertEquals(2, unknown.status());
        assertTrue(unknown.err().contains("unknown argument '--bogus'"), unknown.err());
    }

    /**
     * The paths the mock cannot serve (exec, describe), through a stand-in kubectl on PATH that answers as a cluster
     * would: a pod whose container is not ready is described, each per-node command runs once per node (its output
     * kept, a tool the pod lacks skipped), a command that hangs is stopped at --timeout, and secrets in describe
     * and env output are masked, in other files too.
     */
    @Test
    void execDescribeTimeoutsAndMaskingThroughAStandInKubectl() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path kubectl = bin.resolve("kubectl");
        Files.writeString(kubectl, """
                #!/bin/sh
                case "$*" in
                  *"get pods"*jsonpath*) printf 'p0 node-a Running false |main\np1 node-a Running true |main\np2 node-b Running true |main\n' ;;
                  *"get pods"*|*"get nodes"*|*"get events"*) echo '{"apiVersion": "v1", "kind": "List", "items": []}' ;;
                  *"get crd"*) exit 1 ;;
                  *"describe pod"*) printf 'Name: p0\nContainers:\n  main:\n    Environment:\n      NCCL_IB_HCA:  mlx5\n      WANDB_API_KEY:  wandb-s3cr3t-value\n      GH_TOKEN:  (v1:secret)\n' ;;
                  logs*--previous*) echo 'previous terminated container not found' >&2; exit 1 ;;
                  logs*) echo "2026-11-27T03:00:00Z logged in with wandb-s3cr3t-value" ;;
                  *"exec"*"ibv_devinfo"*) sleep 30 ;;
                  *"exec"*"lldpctl"*) exit 127 ;;
                  *"exec"*"HOSTNAME"*) printf 'HOSTNAME=p0\nNCCL_DEBUG=INFO\nMY_PASSWORD=hunter2-long\n' ;;
                  *"exec"*) echo "output of $*" ;;
                  *"version"*) echo "Client Version: stand-in" ;;
                  *) echo "unexpected: $*" >&2; exit 3 ;;
                esac
                """);
        kubectl.toFile().setExecutable(true);
        List<String> cmd = List.of("sh", script().toString(), "-n", "ns", "-l", "app=x", "--timeout", "2", "--no-fabric",
                "--out", dir.resolve("b.tar.gz").toString());
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("PATH", bin + java.io.File.pathSeparator + System.getenv("PATH"));
        Process p = pb.start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), log);
        Map<String, byte[]> files = untar(dir.resolve("b.tar.gz"));
        String root = files.keySet().iterator().next().split("/")[0];
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            String text = new String(f.getValue(), StandardCharsets.UTF_8);
            assertFalse(text.contains("wandb-s3cr3t-value") || text.contains("hunter2-long"), f.getKey() + ":\n" + text);
        }
        assertTrue(files.containsKey(root + "/describe/p0.txt"), files.keySet() + "\n" + log);
        String describe = new String(files.get(root + "/describe/p0.txt"), StandardCharsets.UTF_8);
        assertTrue(describe.contains("WANDB_API_KEY:  ***") && describe.contains("NCCL_IB_HCA:  mlx5")
                && describe.contains("GH_TOKEN:  (v1:secret)"), describe);
        assertFalse(files.containsKey(root + "/describe/p1.txt"), "ready pods are not described");
        String env = new String(files.get(root + "/nodes/node-a/env.txt"), StandardCharsets.UTF_8);
        assertTrue(env.contains("MY_PASSWORD=***") && env.contains("NCCL_DEBUG=INFO"), env);
        assertTrue(new String(files.get(root + "/logs/p0.main.log"), StandardCharsets.UTF_8).contains("logged in with ***"));
        assertTrue(files.containsKey(root + "/nodes/node-b/ibstat.txt"));
        assertFalse(files.containsKey(root + "/nodes/node-a/lldpctl.txt"));
        Map<String, JsonNode> steps = new TreeMap<>();
        JSON.readTree(files.get(root + "/manifest.json")).get("steps").forEach(s -> steps.put(s.get("step").asText(), s));
        assertEquals(2, steps.keySet().stream().filter(k -> k.startsWith("ibstat on ")).count(), "once per node: " + steps.keySet());
        assertTrue(steps.get("ibstat on node-a").get("where").asText().contains("pod p0"));
        JsonNode hung = steps.get("ibv_devinfo-v on node-a");
        assertEquals(124, hung.get("exitCode").asInt(), hung.toString());
        assertTrue(hung.get("detail").asText().startsWith("timed out after 2s"), hung.toString());
        assertEquals("skipped", steps.get("lldpctl on node-a").get("status").asText());
        assertTrue(log.contains("ibstat on node-b"), "progress on stderr: " + log);
    }

    /** Each finding as "id: title", sorted. */
    private static List<String> findings(List<String> args) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = FabricScopeCommand.run(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, args + ": " + err.toString(StandardCharsets.UTF_8));
        TreeSet<String> s = new TreeSet<>();
        JSON.readTree(out.toByteArray()).get("findings").forEach(f -> s.add(f.get("id").asText() + ": " + f.get("title").asText()));
        return new ArrayList<>(s);
    }

    /** The regular files of a .tar.gz (ustar, GNU long names) by path. */
    static Map<String, byte[]> untar(Path tgz) throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        try (InputStream in = new GZIPInputStream(Files.newInputStream(tgz))) {
            String longName = null;
            while (true) {
                byte[] h = in.readNBytes(512);
                if (h.length < 512 || h[0] == 0) {
                    break;
                }
                String name = field(h, 0, 100);
                String prefix = field(h, 345, 155);
                long size = Long.parseLong(field(h, 124, 12).trim().isEmpty() ? "0" : field(h, 124, 12).trim(), 8);
                byte[] data = in.readNBytes((int) size);
                in.readNBytes((int) ((512 - size % 512) % 512));
                char type = (char) h[156];
                if (type == 'L') {
                    longName = new String(data, StandardCharsets.UTF_8).replace("\0", "");
                    continue;
                }
                String path = longName != null ? longName : prefix.isEmpty() ? name : prefix + "/" + name;
                longName = null;
                if (type == '0' || type == 0) {
                    out.put(path.startsWith("./") ? path.substring(2) : path, data);
                }
            }
        }
        return out;
    }

    private static String field(byte[] h, int at, int len) {
        int end = at;
        while (end < at + len && h[end] != 0) {
            end++;
        }
        return new String(h, at, end - at, StandardCharsets.UTF_8);
    }
}
