package org.fabricscope.app.live.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;

/** A watch's refresh converts only the objects whose resourceVersion changed (decision 0013). */
class KubeTreeCacheTest {
    static List<Pod> pods(int n) {
        List<Pod> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Pod p = KubeFixtures.jobPod("bert", "worker", i, "gpu-node-" + (i % 125), "8");
            p.getMetadata().setResourceVersion("100");
            out.add(p);
        }
        return out;
    }

    @Test
    void onePodChangingAmongAThousandIsConvertedAlone() {
        KubeTreeCache cache = new KubeTreeCache();
        List<Pod> pods = pods(1000);
        List<JsonNode> first = cache.trees(pods);
        assertEquals(1000, cache.conversions());

        List<Pod> next = new ArrayList<>(pods);
        Pod changed = new PodBuilder(pods.get(7)).editMetadata().withResourceVersion("101").endMetadata()
                .editStatus().withPhase("Failed").endStatus().build();
        next.set(7, changed);
        next.remove(999); // deleted
        List<JsonNode> second = cache.trees(next);
        assertEquals(1001, cache.conversions(), "one conversion for the changed pod, none for the 998 unchanged");
        assertEquals(999, second.size());
        assertSame(first.get(0), second.get(0), "an unchanged pod keeps its tree");
        assertNotSame(first.get(7), second.get(7));
        assertEquals("Failed", second.get(7).path("status").path("phase").asText());

        next.add(pods.get(999)); // the deleted pod's name comes back: it was dropped, so it is converted again
        cache.trees(next);
        assertEquals(1002, cache.conversions());
    }

    @Test
    void anObjectWithoutAVersionIsAlwaysConverted() {
        KubeTreeCache cache = new KubeTreeCache();
        List<Pod> pods = pods(3);
        pods.get(1).getMetadata().setResourceVersion(null);
        cache.trees(pods);
        cache.trees(pods);
        assertEquals(4, cache.conversions());
    }
}
