package org.fabricscope.importers.k8s;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.k8s.PodSpecSummary;
import org.fabricscope.model.k8s.Quantity;
import org.fabricscope.model.k8s.Resources;
import org.fabricscope.model.k8s.ShmVolume;
import org.fabricscope.model.k8s.Toleration;

import com.fasterxml.jackson.databind.JsonNode;

/** Reads the parts of Kubernetes objects the model keeps: string maps, quantity maps, pod specs. */
final class KubeSpecs {
    private KubeSpecs() {
    }

    static Map<String, String> strings(JsonNode obj) {
        Map<String, String> out = new LinkedHashMap<>();
        if (obj != null && obj.isObject()) {
            obj.properties().forEach(e -> {
                if (e.getValue().isValueNode() && !e.getValue().isNull()) {
                    out.put(e.getKey(), e.getValue().asText());
                }
            });
        }
        return out;
    }

    /** A resource map; values that are not quantities become warnings at {@code line}. */
    static Map<String, Quantity> quantities(JsonNode obj, String source, int line, String what, FabricModelBuilder b) {
        Map<String, Quantity> out = new TreeMap<>();
        if (obj == null || !obj.isObject()) {
            return out;
        }
        obj.properties().forEach(e -> {
            String text = e.getValue().isValueNode() ? e.getValue().asText() : null;
            Quantity q = Quantity.tryParse(text);
            if (q == null) {
                b.diagnostic(Diagnostic.warning(source, line, what + " " + e.getKey() + ": expected a quantity such as "
                        + "\"8\", \"15890m\" or \"128290128Ki\"; got " + e.getValue() + "; ignored"));
            } else {
                out.put(e.getKey(), q);
            }
        });
        return out;
    }

    /** The summary of a pod spec ({@code spec} of a Pod or of a template) with its metadata's annotations. */
    static PodSpecSummary podSpec(JsonNode metadata, JsonNode spec, String source, int line, FabricModelBuilder b) {
        Map<String, Quantity> requests = new TreeMap<>();
        Map<String, Quantity> limits = new TreeMap<>();
        Map<String, String> env = new LinkedHashMap<>();
        String shmVolumeName = null;
        for (JsonNode c : iterable(spec.path("containers"))) {
            Resources.addAll(requests, quantities(c.path("resources").path("requests"), source, line,
                    "container " + c.path("name").asText() + " request", b));
            Resources.addAll(limits, quantities(c.path("resources").path("limits"), source, line,
                    "container " + c.path("name").asText() + " limit", b));
            for (JsonNode e : iterable(c.path("env"))) {
                String name = e.path("name").asText(null);
                if (name != null && e.has("value")) {
                    env.putIfAbsent(name, e.path("value").asText());
                }
            }
            for (JsonNode m : iterable(c.path("volumeMounts"))) {
                if ("/dev/shm".equals(m.path("mountPath").asText()) && shmVolumeName == null) {
                    shmVolumeName = m.path("name").asText(null);
                }
            }
        }
        ShmVolume shm = null;
        if (shmVolumeName != null) {
            shm = new ShmVolume(shmVolumeName, "unknown", null, null);
            for (JsonNode v : iterable(spec.path("volumes"))) {
                if (!shmVolumeName.equals(v.path("name").asText())) {
                    continue;
                }
                if (v.has("emptyDir")) {
                    JsonNode ed = v.path("emptyDir");
                    String medium = ed.path("medium").asText("");
                    Quantity limit = null;
                    if (ed.hasNonNull("sizeLimit")) {
                        limit = Quantity.tryParse(ed.path("sizeLimit").asText());
                        if (limit == null) {
                            b.diagnostic(Diagnostic.warning(source, line, "volume " + shmVolumeName
                                    + " sizeLimit: expected a quantity; got " + ed.path("sizeLimit")));
                        }
                    }
                    shm = new ShmVolume(shmVolumeName, "emptyDir", medium, limit);
                } else {
                    String type = "unknown";
                    var names = v.fieldNames();
                    while (names.hasNext()) {
                        String n = names.next();
                        if (!n.equals("name")) {
                            type = n;
                            break;
                        }
                    }
                    shm = new ShmVolume(shmVolumeName, type, null, null);
                }
            }
        }
        String networks = metadata == null ? null
                : metadata.path("annotations").path(PodSpecSummary.NETWORKS_ANNOTATION).asText(null);
        List<Toleration> tolerations = new java.util.ArrayList<>();
        for (JsonNode t : iterable(spec.path("tolerations"))) {
            tolerations.add(new Toleration(t.path("key").asText(""), t.path("operator").asText(""),
                    t.path("value").asText(""), t.path("effect").asText("")));
        }
        return new PodSpecSummary(requests, limits, env, networks, shm, strings(spec.path("nodeSelector")), Map.of(),
                tolerations);
    }

    static Iterable<JsonNode> iterable(JsonNode n) {
        return n != null && n.isArray() ? n : List.of();
    }
}
