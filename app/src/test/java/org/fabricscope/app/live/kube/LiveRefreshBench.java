package org.fabricscope.app.live.kube;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.model.FabricModel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeListBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodListBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * What one refresh of a live cluster costs, from the watch's objects to a built model, when one pod of
 * {@code pods} changes (BENCHMARKS.md, "Live refresh"):
 * <ol>
 * <li>text: the old path, every object printed as kubectl JSON (indented), sniffed and parsed again;</li>
 * <li>trees: every object converted to a Jackson tree and contributed (the contract without the cache);</li>
 * <li>changed: only the changed pod converted (KubeTreeCache), every object contributed.</li>
 * </ol>
 * Run: {@code java -cp ... org.fabricscope.app.live.kube.LiveRefreshBench [pods] [rounds]}.
 */
public final class LiveRefreshBench {
    private static final KubernetesSerialization PRETTY = new KubernetesSerialization(
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT), false);

    private LiveRefreshBench() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < Math.max(1, n / 8); i++) {
            Node node = KubeFixtures.node("gpu-node-" + i, "rdma/hca", "8");
            node.getMetadata().setResourceVersion("1");
            nodes.add(node);
        }
        List<Pod> pods = KubeTreeCacheTest.pods(n);
        KubeTreeCache nodeCache = new KubeTreeCache();
        KubeTreeCache podCache = new KubeTreeCache();
        nodeCache.trees(nodes);
        podCache.trees(pods);
        int[] version = {100};
        Supplier<List<Pod>> oneChanged = () -> {
            List<Pod> next = new ArrayList<>(pods);
            int v = ++version[0];
            next.set(7, new PodBuilder(pods.get(7)).editMetadata().withResourceVersion(String.valueOf(v)).endMetadata()
                    .editStatus().withPhase(v % 2 == 0 ? "Failed" : "Running").endStatus().build());
            return next;
        };
        String prefix = "kube://bench";
        Instant now = Instant.now();
        Supplier<FabricModel> text = () -> {
            List<Pod> p = oneChanged.get();
            List<ImportSource> sources = List.of(source(prefix + "/nodes", new NodeListBuilder().withItems(nodes).build()),
                    source(prefix + "/team-a/pods", new PodListBuilder().withItems(p).build()));
            return new FabricImporter().importSources(sources, new ArrayList<>(), ImportProgress.NONE, Cancellation.NEVER)
                    .model();
        };
        Supplier<FabricModel> trees = () -> build(prefix, now, KubeTrees.trees(nodes), KubeTrees.trees(oneChanged.get()));
        Supplier<FabricModel> changed = () -> build(prefix, now, nodeCache.trees(nodes), podCache.trees(oneChanged.get()));
        System.out.printf("%d pods, %d nodes, one pod changed per refresh; median of %d rounds (after %d warm-up)%n", n,
                nodes.size(), rounds, rounds);
        for (String name : new String[] {"text", "trees", "changed"}) {
            Supplier<FabricModel> s = name.equals("text") ? text : name.equals("trees") ? trees : changed;
            long before = podCache.conversions();
            double ms = median(s, rounds);
            System.out.printf("%-8s %8.1f ms a refresh%s%n", name, ms, name.equals("changed")
                    ? String.format(" (%d pod conversions in %d refreshes)", podCache.conversions() - before, 2 * rounds) : "");
        }
        System.out.printf("conversion only: all %d pods %.1f ms, the changed one %.2f ms%n", n,
                median(() -> KubeTrees.trees(pods).size(), rounds), median(() -> podCache.trees(oneChanged.get()).size(), rounds));
    }

    private static FabricModel build(String prefix, Instant now, List<JsonNode> nodes, List<JsonNode> pods) {
        ClusterSnapshot s = new ClusterSnapshot(List.of(new KubeObjectList(prefix + "/nodes", "watch nodes", now, nodes),
                new KubeObjectList(prefix + "/team-a/pods", "watch pods in namespace team-a", now, pods)), List.of(),
                nodes.size(), pods.size(), 0, 1, now);
        return s.importAlone().model();
    }

    private static ImportSource source(String name, Object list) {
        byte[] bytes = PRETTY.asJson(list).getBytes(StandardCharsets.UTF_8);
        return new ImportSource(name, bytes.length, () -> new ByteArrayInputStream(bytes), true);
    }

    private static double median(Supplier<?> work, int rounds) {
        for (int i = 0; i < rounds; i++) {
            work.get();
        }
        double[] ms = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            long t = System.nanoTime();
            work.get();
            ms[i] = (System.nanoTime() - t) / 1e6;
        }
        Arrays.sort(ms);
        return ms[rounds / 2];
    }
}
