package org.fabricscope.importers.k8s;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.importers.core.Numbers;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.JsonTrees;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.k8s.ContainerStatus;
import org.fabricscope.model.k8s.JobIdentity;
import org.fabricscope.model.k8s.K8sEvent;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.k8s.PodSpecSummary;
import org.fabricscope.model.k8s.Quantity;
import org.fabricscope.model.k8s.Taint;
import org.fabricscope.model.k8s.TrainingJob;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Reads Kubernetes objects as kubectl prints them with {@code -o json} or {@code -o yaml}: a
 * {@code List} (or NodeList, PodList, EventList) of items or a single object, several YAML
 * documents separated by {@code ---}, and training-job manifests. Kinds: Node, Pod, Event
 * (core/v1 and events.k8s.io/v1), PyTorchJob, MPIJob, TFJob; others are skipped with a note.
 * Each object is cited by the line it starts on (from Jackson's token location). Malformed input
 * becomes a diagnostic with its line; what was read before it is kept.
 */
public final class KubeObjectImporter {
    private String source;
    private FabricModelBuilder builder;
    private final Set<String> skippedKinds = new LinkedHashSet<>();
    private byte[] bytes;
    private int[] lineStarts;
    private boolean json;
    /** Objects read so far (items of a List each count), for "kept the N object(s) read before". */
    private int objects;
    /** For objects that come from a live source: what cites each of them (null when reading a file). */
    private Function<String, Evidence> live;

    /**
     * Contributes one object a live source holds (a Node, Pod, Event or Kubeflow job as a Jackson tree,
     * converted in memory, never printed) to the model, as reading it from {@code kubectl get -o json}
     * would: the same mapping, with {@code cite} making the evidence of each fact (the query and the
     * time it was read) instead of a line of a file. Diagnostics name {@code source} without a line.
     * Whole objects only: the settings a file cites by their own line are cited by the query too.
     */
    public void contribute(JsonNode object, String source, Function<String, Evidence> cite, FabricModelBuilder builder) {
        this.source = source;
        this.builder = builder;
        this.live = cite;
        this.json = true;
        object(object, 0, 0);
    }

    /** The evidence of a fact about the object at {@code line}: that line of the file, or the live source's citation. */
    private Evidence cite(int line, String text) {
        return live != null ? live.apply(text) : Evidence.at(source, line, text);
    }

    public void read(InputStream in, String source, FabricModelBuilder builder, Cancellation cancel) throws IOException {
        this.source = source;
        this.builder = builder;
        byte[] bytes = in.readNBytes(KubeMappers.MAX_BYTES + 1);
        if (bytes.length > KubeMappers.MAX_BYTES) {
            builder.diagnostic(Diagnostic.error(source, 0, "larger than " + (KubeMappers.MAX_BYTES >> 20)
                    + " MiB; not read"));
            return;
        }
        this.bytes = bytes;
        this.lineStarts = lineStarts(bytes);
        this.json = looksLikeJson(bytes);
        JsonFactory factory = json ? KubeMappers.jsonFactory() : KubeMappers.yamlFactory();
        this.objects = 0;
        JsonParser p = null;
        try {
            p = factory.createParser(bytes);
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                if (cancel.isCancelled()) {
                    throw new ImportCancelledException();
                }
                if (t == JsonToken.VALUE_NULL) {
                    continue; // an empty YAML document
                }
                int line = line(p.currentTokenLocation());
                if (t != JsonToken.START_OBJECT) {
                    builder.diagnostic(Diagnostic.warning(source, line, "expected a Kubernetes object ({apiVersion, kind, "
                            + "metadata, ...}); got " + t.asString() + "; skipped"));
                    p.skipChildren();
                    continue;
                }
                readTop(p, line, cancel);
            }
        } catch (ImportCancelledException e) {
            throw e;
        } catch (IOException | RuntimeException | StackOverflowError e) {
            // malformed text, and SnakeYAML's and Jackson's limits (aliases, nesting, string length)
            YamlProblems.Problem problem = YamlProblems.describe(e, bytes, p == null ? null : p.currentLocation());
            builder.diagnostic(Diagnostic.error(source, problem.line(), (json ? "malformed JSON: " : "malformed YAML: ")
                    + problem.text() + "; kept the " + objects + " object(s) read before"));
        } finally {
            if (p != null) {
                try {
                    p.close();
                } catch (IOException | RuntimeException ignored) {
                    // nothing more to read
                }
            }
        }
        if (!skippedKinds.isEmpty()) {
            builder.diagnostic(Diagnostic.info(source, 0, "kinds FabricScope does not use were skipped: "
                    + String.join(", ", skippedKinds)));
        }
    }

    private static boolean looksLikeJson(byte[] b) {
        for (byte x : b) {
            if (x == ' ' || x == '\t' || x == '\r' || x == '\n' || x == (byte) 0xEF || x == (byte) 0xBB || x == (byte) 0xBF) {
                continue;
            }
            return x == '{' || x == '[';
        }
        return false;
    }

    private static int line(JsonLocation l) {
        return l == null ? 0 : Math.max(0, l.getLineNr());
    }

    /**
     * Reads one top-level object, streaming its {@code items} so that each item keeps its line and
     * is kept even when a later item is malformed.
     */
    private void readTop(JsonParser p, int line, Cancellation cancel) throws IOException {
        ObjectNode top = JsonNodeFactory.instance.objectNode();
        boolean hasItems = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            if ("items".equals(field) && v == JsonToken.START_ARRAY) {
                hasItems = true;
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    if (cancel.isCancelled()) {
                        throw new ImportCancelledException();
                    }
                    int itemLine = line(p.currentTokenLocation());
                    JsonNode item = JsonTrees.value(p, p.currentToken());
                    object(item, itemLine, line(p.currentLocation()));
                }
            } else {
                JsonNode value = JsonTrees.value(p, p.currentToken());
                top.set(field, value);
            }
        }
        String kind = top.path("kind").asText("");
        if (hasItems || kind.endsWith("List")) {
            return;
        }
        object(top, line, line(p.currentLocation()));
    }

    private static int[] lineStarts(byte[] b) {
        int n = 1;
        for (byte x : b) {
            if (x == '\n') {
                n++;
            }
        }
        int[] starts = new int[n];
        int k = 1;
        for (int i = 0; i < b.length; i++) {
            if (b[i] == '\n') {
                starts[k++] = i + 1;
            }
        }
        return starts;
    }

    /**
     * The first line in {@code from..to} (1-based, inclusive) holding all the needles, cited; null
     * when none does. Jackson's trees carry no locations, so settings are found in the object's lines.
     */
    private Evidence find(int from, int to, String... needles) {
        for (int l = Math.max(1, from); l <= Math.min(to, lineStarts.length); l++) {
            int start = lineStarts[l - 1];
            int end = l < lineStarts.length ? lineStarts[l] : bytes.length;
            String text = new String(bytes, start, Math.min(end - start, 64 * 1024), java.nio.charset.StandardCharsets.UTF_8);
            boolean all = true;
            for (String n : needles) {
                all &= text.contains(n);
            }
            if (all) {
                String t = text.strip();
                return Evidence.at(source, l, t.length() > 200 ? t.substring(0, 197) + "..." : t);
            }
        }
        return null;
    }

    /** The spec with the lines of its NCCL_SOCKET_IFNAME entry, /dev/shm mount and sizeLimit cited. */
    private PodSpecSummary cited(PodSpecSummary spec, int from, int to) {
        Map<String, Evidence> cites = new java.util.LinkedHashMap<>();
        if (live != null) {
            // a live object has no lines: the query that read it cites each setting, named
            if (spec.env().containsKey("NCCL_SOCKET_IFNAME")) {
                cites.put("NCCL_SOCKET_IFNAME", live.apply("env NCCL_SOCKET_IFNAME=" + spec.env().get("NCCL_SOCKET_IFNAME")));
            }
            if (spec.devShm() != null) {
                cites.put("/dev/shm", live.apply("volume mounted at /dev/shm"));
                if (spec.devShm().sizeLimit() != null) {
                    cites.put("sizeLimit", live.apply("/dev/shm sizeLimit: " + spec.devShm().sizeLimit().text()));
                }
            }
            return cites.isEmpty() ? spec : spec.withCitations(cites);
        }
        if (spec.env().containsKey("NCCL_SOCKET_IFNAME")) {
            Evidence e = find(from, to, "NCCL_SOCKET_IFNAME");
            if (e != null && !json && !e.text().contains("value")) {
                // YAML: "- name: NCCL_SOCKET_IFNAME" with "  value: net1" on the next line
                Evidence v = find(e.line() + 1, e.line() + 1, "value");
                e = v != null ? Evidence.at(source, e.line(), e.text() + " " + v.text()) : e;
            }
            if (e != null) {
                cites.put("NCCL_SOCKET_IFNAME", e);
            }
        }
        if (spec.devShm() != null) {
            Evidence e = find(from, to, "/dev/shm");
            if (e != null) {
                cites.put("/dev/shm", e);
            }
            if (spec.devShm().sizeLimit() != null) {
                Evidence l = find(from, to, "sizeLimit", spec.devShm().sizeLimit().text());
                if (l != null) {
                    cites.put("sizeLimit", l);
                }
            }
        }
        return cites.isEmpty() ? spec : spec.withCitations(cites);
    }

    private void object(JsonNode o, int line, int endLine) {
        objects++;
        try {
            read(o, line, endLine);
        } catch (Numbers.OutOfRange e) {
            builder.diagnostic(Diagnostic.warning(source, line, e.getMessage() + "; object skipped"));
        }
    }

    private void read(JsonNode o, int line, int endLine) {
        if (!o.isObject()) {
            builder.diagnostic(Diagnostic.warning(source, line, "list item is not an object; skipped"));
            return;
        }
        String kind = o.path("kind").asText("");
        String name = o.path("metadata").path("name").asText("");
        if (name.isEmpty() && !kind.equals("Event")) {
            builder.diagnostic(Diagnostic.warning(source, line, kind + " without metadata.name; skipped"));
            return;
        }
        switch (kind) {
            case "Node" -> node(o, name, line);
            case "Pod" -> pod(o, name, line, endLine);
            case "Event" -> event(o, line);
            case "PyTorchJob", "MPIJob", "TFJob", "XGBoostJob", "PaddleJob" -> job(o, kind, name, line);
            case "" -> builder.diagnostic(Diagnostic.warning(source, line, "object without kind; skipped"));
            default -> skippedKinds.add(kind);
        }
    }

    private void node(JsonNode o, String name, int line) {
        JsonNode status = o.path("status");
        List<Taint> taints = new ArrayList<>();
        for (JsonNode t : KubeSpecs.iterable(o.path("spec").path("taints"))) {
            taints.add(new Taint(t.path("key").asText(""), t.path("value").asText(""), t.path("effect").asText("")));
        }
        Boolean ready = null;
        for (JsonNode c : KubeSpecs.iterable(status.path("conditions"))) {
            if ("Ready".equals(c.path("type").asText())) {
                ready = "True".equals(c.path("status").asText());
            }
        }
        String ip = null;
        for (JsonNode a : KubeSpecs.iterable(status.path("addresses"))) {
            if ("InternalIP".equals(a.path("type").asText()) && ip == null) {
                ip = a.path("address").asText(null);
            }
        }
        Map<String, Quantity> alloc = KubeSpecs.quantities(status.path("allocatable"), source, line,
                "node " + name + " allocatable", builder);
        Map<String, Quantity> cap = KubeSpecs.quantities(status.path("capacity"), source, line,
                "node " + name + " capacity", builder);
        Evidence ev = cite(line, "node " + name + (ready == null ? "" : ready ? " Ready" : " NotReady")
                + " allocatable " + compact(alloc));
        builder.k8s().node(new K8sNode(name, KubeSpecs.strings(o.path("metadata").path("labels")), taints, alloc, cap,
                ready, ip, o.path("spec").path("unschedulable").asBoolean(false), ev, ev));
    }

    /**
     * A count (an event's, a replica spec's): 1 when absent or not a number, as before; a number
     * that is negative or past 32 bits is {@link Numbers.OutOfRange}, never wrapped.
     */
    private static int count(JsonNode n, String field) {
        if (n.isMissingNode() || n.isNull()) {
            return 1;
        }
        if (n.isFloatingPointNumber()) {
            double d = n.doubleValue();
            if (d == Math.rint(d) && d >= 0 && d <= Integer.MAX_VALUE) {
                return (int) d;
            }
            throw new Numbers.OutOfRange(field, n.asText(), "0.." + Integer.MAX_VALUE);
        }
        String text = n.isIntegralNumber() ? n.bigIntegerValue().toString() : n.isTextual() ? n.textValue().strip() : null;
        if (text == null || !Numbers.isDecimal(text)) {
            return 1;
        }
        return Numbers.nonNegativeInt(text, field);
    }

    static String compact(Map<String, Quantity> m) {
        StringBuilder sb = new StringBuilder("{");
        m.forEach((k, v) -> sb.append(sb.length() > 1 ? "," : "").append('"').append(k).append("\":\"").append(v.text()).append('"'));
        return sb.append('}').toString();
    }

    private void pod(JsonNode o, String name, int line, int endLine) {
        JsonNode meta = o.path("metadata");
        String ns = meta.path("namespace").asText("default");
        Map<String, String> labels = KubeSpecs.strings(meta.path("labels"));
        String node = o.path("spec").path("nodeName").asText(null);
        if (node != null && node.isBlank()) {
            node = null;
        }
        String phase = o.path("status").path("phase").asText("Unknown");
        String indexProblem = JobIdentity.indexProblem(name, labels);
        if (indexProblem != null) {
            builder.diagnostic(Diagnostic.warning(source, line, indexProblem));
        }
        PodSpecSummary spec = cited(KubeSpecs.podSpec(meta, o.path("spec"), source, line, builder), line, endLine);
        Evidence ev = cite(line, "pod " + ns + "/" + name + " " + phase + (node == null ? "" : " on " + node)
                + " requests " + compact(spec.effectiveRequests()));
        builder.k8s().pod(new K8sPod(name, ns, node, phase, labels, JobIdentity.of(name, labels), spec, ev,
                containerStatuses(o.path("status"))), false);
        containerTerminations(o.path("status"), ns, name, line);
    }

    /** {@code status.initContainerStatuses[]} and {@code containerStatuses[]}: restarts, state, exit codes. */
    private static List<ContainerStatus> containerStatuses(JsonNode status) {
        List<ContainerStatus> out = new ArrayList<>();
        for (String list : new String[] {"initContainerStatuses", "containerStatuses"}) {
            for (JsonNode c : status.path(list)) {
                JsonNode state = c.path("state");
                String now = state.has("terminated") ? "terminated" : state.has("waiting") ? "waiting"
                        : state.has("running") ? "running" : "";
                JsonNode detail = now.isEmpty() ? state.path("none") : state.path(now);
                JsonNode last = c.path("lastState").path("terminated");
                int restarts = c.path("restartCount").canConvertToInt() ? Math.max(0, c.path("restartCount").asInt()) : 0;
                out.add(new ContainerStatus(c.path("name").asText("?"), list.startsWith("init"), restarts, now,
                        detail.path("reason").asText(""), exit(detail.path("exitCode")), last.path("reason").asText(""),
                        exit(last.path("exitCode"))));
            }
        }
        return out;
    }

    private static Integer exit(JsonNode n) {
        return n.isIntegralNumber() && n.canConvertToInt() ? n.intValue() : null;
    }

    /**
     * A container the kubelet killed for memory shows in the pod's status, not always as an event:
     * {@code containerStatuses[].state.terminated} or {@code .lastState.terminated} with reason
     * {@code OOMKilled}. Each becomes an OOMKilled event of the pod, cited at the pod, so the
     * training checks see it whether the cluster's events were read or had expired.
     */
    private void containerTerminations(JsonNode status, String ns, String pod, int line) {
        for (String list : new String[] {"initContainerStatuses", "containerStatuses"}) {
            for (JsonNode c : status.path(list)) {
                for (String when : new String[] {"state", "lastState"}) {
                    JsonNode t = c.path(when).path("terminated");
                    if (!"OOMKilled".equals(t.path("reason").asText(""))) {
                        continue;
                    }
                    String container = c.path("name").asText("?");
                    String exit = t.path("exitCode").isIntegralNumber() ? t.path("exitCode").asText() : "?";
                    String message = "container " + container + " terminated: OOMKilled, exit code " + exit
                            + ("lastState".equals(when) ? " (its previous run; restarts " + c.path("restartCount").asText("0") + ")" : "");
                    builder.k8s().event(K8sEvent.of(ns, "Pod", pod, "Warning", "OOMKilled", message, 1, "pod status",
                            cite(line, "pod " + ns + "/" + pod + " " + message)));
                }
            }
        }
    }

    private void event(JsonNode o, int line) {
        JsonNode involved = o.has("regarding") ? o.path("regarding") : o.path("involvedObject");
        String ns = involved.path("namespace").asText(o.path("metadata").path("namespace").asText("default"));
        String message = o.has("note") ? o.path("note").asText("") : o.path("message").asText("");
        int count = o.has("count") ? count(o.path("count"), "event count") : count(o.path("deprecatedCount"), "event count");
        String reporter = o.path("source").path("component").asText(null);
        if (reporter == null) {
            reporter = o.path("reportingController").asText(o.path("reportingComponent").asText(null));
        }
        String reason = o.path("reason").asText("");
        K8sEvent e = K8sEvent.of(ns, involved.path("kind").asText("Pod"), involved.path("name").asText(""),
                o.path("type").asText(""), reason, message, Math.max(1, count), reporter,
                cite(line, o.path("type").asText("") + " " + reason + " "
                        + involved.path("kind").asText("") + "/" + involved.path("name").asText("") + ": " + message),
                lastSeen(o));
        if ("FailedScheduling".equals(reason) && e.scheduling() == null) {
            builder.diagnostic(Diagnostic.info(source, line, "FailedScheduling message does not follow kube-scheduler's "
                    + "\"0/N nodes are available: ...\" grammar; kept as text"));
        }
        builder.k8s().event(e);
    }

    /** When an event was last seen: core/v1's lastTimestamp, events.k8s.io's series or eventTime, else when it was made. */
    private static String lastSeen(JsonNode o) {
        for (JsonNode n : new JsonNode[] {o.path("lastTimestamp"), o.path("series").path("lastObservedTime"),
                o.path("deprecatedLastTimestamp"), o.path("eventTime"), o.path("firstTimestamp"),
                o.path("metadata").path("creationTimestamp")}) {
            if (n.isTextual() && !n.textValue().isBlank()) {
                return n.textValue().strip();
            }
        }
        return "";
    }

    private void job(JsonNode o, String kind, String name, int line) {
        JsonNode meta = o.path("metadata");
        String ns = meta.path("namespace").asText("default");
        List<TrainingJob.Replica> replicas = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> specs = o.path("spec").properties().iterator();
        Evidence ev = cite(line, kind + " " + ns + "/" + name);
        while (specs.hasNext()) {
            Map.Entry<String, JsonNode> s = specs.next();
            if (!s.getKey().endsWith("ReplicaSpecs") || !s.getValue().isObject()) {
                continue;
            }
            s.getValue().properties().forEach(r -> {
                int n;
                try {
                    n = count(r.getValue().path("replicas"), r.getKey() + " replicas");
                } catch (Numbers.OutOfRange e) {
                    builder.diagnostic(Diagnostic.warning(source, line, e.getMessage() + "; replica spec skipped"));
                    return;
                }
                JsonNode template = r.getValue().path("template");
                PodSpecSummary spec = KubeSpecs.podSpec(template.path("metadata"), template.path("spec"), source, line, builder);
                replicas.add(new TrainingJob.Replica(r.getKey(), n, spec,
                        cite(line, kind + " " + ns + "/" + name + " " + r.getKey() + " x"
                                + n + " requests " + compact(spec.effectiveRequests()))));
            });
        }
        if (replicas.isEmpty()) {
            builder.diagnostic(Diagnostic.warning(source, line, kind + " " + name + " has no spec.*ReplicaSpecs"));
        }
        List<TrainingJob.Condition> conditions = new ArrayList<>();
        for (JsonNode c : o.path("status").path("conditions")) {
            if (c.isObject() && conditions.size() < 64) {
                conditions.add(new TrainingJob.Condition(c.path("type").asText(""), c.path("status").asText(""),
                        c.path("reason").asText(""), c.path("message").asText(""), c.path("lastTransitionTime").asText("")));
            }
        }
        builder.k8s().job(new TrainingJob(name, ns, kind, replicas, List.of(), ev, conditions));
    }
}
