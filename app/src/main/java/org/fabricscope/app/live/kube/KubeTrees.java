package org.fabricscope.app.live.kube;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * fabric8 objects as the Jackson trees the Kubernetes mapping reads: converted field by field in
 * memory ({@code convertValue}), the same tree {@code kubectl get -o json} would give once parsed,
 * without printing text and parsing it back.
 */
final class KubeTrees {
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private KubeTrees() {
    }

    static JsonNode tree(Object o) {
        return SERIALIZATION.convertValue(o, JsonNode.class);
    }

    static List<JsonNode> trees(Collection<?> objects) {
        List<JsonNode> out = new ArrayList<>(objects.size());
        for (Object o : objects) {
            out.add(tree(o));
        }
        return out;
    }
}
