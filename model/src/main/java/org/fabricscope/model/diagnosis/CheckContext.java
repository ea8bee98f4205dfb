package org.fabricscope.model.diagnosis;

import java.util.Objects;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.ranks.RankMap;

/**
 * What a check runs over: the model, the counter thresholds, and the training ranks placed on the
 * fabric (computed once per model by whoever builds the context, and shared by every check).
 */
public record CheckContext(FabricModel model, ErrorThresholds thresholds, RankMap ranks) {
    public CheckContext {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(thresholds, "thresholds");
        Objects.requireNonNull(ranks, "ranks");
    }

    /** A context with the ranks computed here: for tests and callers that run one check. */
    public static CheckContext of(FabricModel model, ErrorThresholds thresholds) {
        return new CheckContext(model, thresholds, RankMap.of(model));
    }

    public static CheckContext of(FabricModel model) {
        return of(model, ErrorThresholds.defaults());
    }
}
