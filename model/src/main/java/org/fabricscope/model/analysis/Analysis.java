package org.fabricscope.model.analysis;

import java.util.List;
import java.util.Objects;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.diagnosis.CheckContext;
import org.fabricscope.model.diagnosis.Diagnosis;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.ranks.RankMap;

/**
 * One analysis of one model: the model, the thresholds it was judged by, the ranks placed on the
 * fabric, the findings and the summary. Built once per load and shared by the CLI, the app and
 * {@code bench}, so they cannot disagree. Immutable.
 */
public record Analysis(FabricModel model, ErrorThresholds thresholds, RankMap ranks, List<Finding> findings,
                       FabricSummary summary) {
    public Analysis {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(thresholds, "thresholds");
        Objects.requireNonNull(ranks, "ranks");
        findings = List.copyOf(findings);
        Objects.requireNonNull(summary, "summary");
    }

    /** Runs the standard checks; {@code thresholds} null means the defaults. */
    public static Analysis of(FabricModel model, ErrorThresholds thresholds) {
        return of(model, thresholds, null);
    }

    /** As {@link #of(FabricModel, ErrorThresholds)} with another set of checks (null: the standard ones). */
    public static Analysis of(FabricModel model, ErrorThresholds thresholds, Diagnosis diagnosis) {
        ErrorThresholds t = thresholds == null ? ErrorThresholds.defaults() : thresholds;
        CheckContext ctx = new CheckContext(model, t, RankMap.of(model));
        List<Finding> findings = (diagnosis == null ? Diagnosis.standard(t) : diagnosis).run(ctx);
        return new Analysis(model, t, ctx.ranks(), findings, FabricSummary.of(model, t));
    }
}
