package org.fabricscope.app.live.kube;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;

/** Cluster objects and kubeconfigs for the live-read tests: a two-node GPU cluster and a PyTorchJob. */
public final class KubeFixtures {
    public static final String NS = "team-a";

    private KubeFixtures() {
    }

    /** A kubeconfig with one context per name, all pointing at {@code server}; the first is current. */
    public static Path kubeconfig(Path dir, String server, String... contexts) throws IOException {
        StringBuilder sb = new StringBuilder("apiVersion: v1\nkind: Config\nclusters:\n- name: mock\n  cluster:\n    server: ")
                .append(server).append("\ncontexts:\n");
        for (String c : contexts) {
            sb.append("- name: ").append(c).append("\n  context:\n    cluster: mock\n    user: tester\n    namespace: ")
                    .append(NS).append('\n');
        }
        sb.append("current-context: ").append(contexts[0]).append("\nusers:\n- name: tester\n  user:\n    token: secret-token\n");
        Path p = dir.resolve("kubeconfig");
        Files.writeString(p, sb.toString());
        return p;
    }

    public static Node node(String name, String rdmaResource, String rdmaCount) {
        return new NodeBuilder().withNewMetadata().withName(name).withLabels(Map.of("kubernetes.io/hostname", name))
                .endMetadata()
                .withNewStatus()
                .addToAllocatable("cpu", new Quantity("32"))
                .addToAllocatable("memory", new Quantity("256Gi"))
                .addToAllocatable("nvidia.com/gpu", new Quantity("8"))
                .addToAllocatable(rdmaResource, new Quantity(rdmaCount))
                .addToAllocatable("pods", new Quantity("110"))
                .addNewCondition().withType("Ready").withStatus("True").endCondition()
                .addNewAddress().withType("InternalIP").withAddress("10.0.0." + name.charAt(name.length() - 1)).endAddress()
                .endStatus().build();
    }

    /** A pod of PyTorchJob {@code job}; {@code node} null leaves it Pending. */
    public static Pod jobPod(String job, String type, int index, String node, String gpus) {
        Map<String, String> labels = Map.of("training.kubeflow.org/job-name", job,
                "training.kubeflow.org/replica-type", type, "training.kubeflow.org/replica-index", String.valueOf(index));
        return pod(job + "-" + type + "-" + index, labels, node, gpus);
    }

    public static Pod pod(String name, Map<String, String> labels, String node, String gpus) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace(NS).withLabels(labels).endMetadata()
                .withNewSpec().withNodeName(node)
                .withContainers(new ContainerBuilder().withName("pytorch").withImage("pytorch:2.3")
                        .withNewResources().addToLimits("nvidia.com/gpu", new Quantity(gpus))
                        .addToRequests("nvidia.com/gpu", new Quantity(gpus)).addToRequests("cpu", new Quantity("4"))
                        .endResources().build())
                .endSpec()
                .withNewStatus().withPhase(node == null ? "Pending" : "Running").endStatus().build();
    }

    public static Event event(String name, String pod, String type, String reason, String message) {
        return new EventBuilder().withNewMetadata().withName(name).withNamespace(NS).endMetadata()
                .withNewInvolvedObject().withKind("Pod").withName(pod).withNamespace(NS).endInvolvedObject()
                .withType(type).withReason(reason).withMessage(message).withCount(3)
                .withNewSource().withComponent("default-scheduler").endSource().build();
    }

    static final String FAILED_SCHEDULING = "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: 0/2 "
            + "nodes are available: 2 No preemption victims found for incoming pod.";
}
