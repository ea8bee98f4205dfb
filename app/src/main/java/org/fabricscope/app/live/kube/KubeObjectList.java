package org.fabricscope.app.live.kube;

import java.time.Instant;
import java.util.List;

import org.fabricscope.importers.k8s.KubeObjectImporter;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Evidence;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The objects of one kind a read or a watch holds: the name they are cited by
 * ({@code kube://<context>/<namespace>/pods}), the query that read them ({@code list pods -l app=bert},
 * {@code watch pods}), when, and the objects as Jackson trees converted in memory from fabric8's
 * (never printed as text). The trees are not changed after they are made.
 */
public record KubeObjectList(String source, String query, Instant read, List<JsonNode> items) {
    public KubeObjectList {
        items = List.copyOf(items);
    }

    /**
     * Adds the lists' objects to a model being built, through the kubectl reader's own mapping
     * ({@link KubeObjectImporter#contribute}), each fact cited by the list's query and time.
     */
    static void contribute(List<KubeObjectList> lists, FabricModelBuilder builder) {
        KubeObjectImporter mapping = new KubeObjectImporter();
        for (KubeObjectList l : lists) {
            builder.source(l.source());
            for (JsonNode item : l.items()) {
                mapping.contribute(item, l.source(), l::cite, builder);
            }
        }
    }

    /** The evidence of one fact read by this list. */
    Evidence cite(String text) {
        return Evidence.query(source, query, read, text);
    }
}
