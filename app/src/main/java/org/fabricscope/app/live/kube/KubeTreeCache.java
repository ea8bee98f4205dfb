package org.fabricscope.app.live.kube;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * The trees of one kind's objects as a watch last saw them, keyed by namespace and name with the
 * {@code resourceVersion} they were converted at (decision 0013, "re-reads only what changed"): the
 * API server gives every change of an object a new resourceVersion, so an object whose version is the
 * one cached has not changed and keeps its tree; only added and modified objects are converted, and
 * deleted ones are dropped. One pod changing among 1,000 costs one conversion, not 1,000. Used from
 * the watch's one thread.
 */
final class KubeTreeCache {
    private record Entry(String resourceVersion, JsonNode tree) {
    }

    private Map<String, Entry> entries = new HashMap<>();
    private long conversions;

    /** The objects' trees, in the objects' order; converts only those added or changed since the last call. */
    List<JsonNode> trees(List<? extends HasMetadata> objects) {
        Map<String, Entry> next = new HashMap<>(Math.max(16, objects.size() * 2));
        List<JsonNode> out = new ArrayList<>(objects.size());
        for (HasMetadata o : objects) {
            String key = o.getMetadata().getNamespace() + "/" + o.getMetadata().getName();
            String version = o.getMetadata().getResourceVersion();
            Entry e = entries.get(key);
            if (e == null || version == null || !version.equals(e.resourceVersion())) {
                e = new Entry(version, KubeTrees.tree(o));
                conversions++;
            }
            next.put(key, e);
            out.add(e.tree());
        }
        entries = next; // objects no longer listed (deleted, or out of the job) are dropped
        return out;
    }

    /** Objects converted so far (the rest were reused). */
    long conversions() {
        return conversions;
    }
}
