package org.fabricscope.app.ui;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.fabricscope.app.render.ColourMode;
import org.fabricscope.app.render.MapColouring;
import org.fabricscope.app.render.MapPalette;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.analysis.FabricSummary;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.layout.MapLayout;
import org.fabricscope.model.layout.TieredLayout;
import org.fabricscope.model.ranks.RankMap;

/**
 * Everything the window shows for one load, built off the FX thread and handed over whole:
 * the model's one {@link Analysis} (thresholds, ranks, findings, summary), the layout and the
 * colours. Never changed after construction; a restyle shares the analysis. No JavaFX types; it
 * stays with the window because it is the window's hand-over (the CLI has {@code Analysis}).
 * Colours come from the stylesheet's palette ({@link UiPalette#current()}) unless one is given.
 */
public record Snapshot(List<Path> paths, ImportResult result, Analysis analysis, MapLayout layout, MapColouring colouring,
                       ColourMode mode, Set<String> collapsed, boolean collapseAll, String job) {

    /** The training ranks placed on the fabric (computed once per load). */
    public RankMap ranks() {
        return analysis.ranks();
    }

    public ErrorThresholds thresholds() {
        return analysis.thresholds();
    }

    public List<Finding> findings() {
        return analysis.findings();
    }

    public FabricSummary summary() {
        return analysis.summary();
    }

    public FabricModel model() {
        return result.model();
    }

    public static Snapshot build(List<Path> paths, ImportResult result, ColourMode mode, Set<String> collapsed,
                                 boolean collapseAll, String job) {
        return build(paths, result, mode, collapsed, collapseAll, job, UiPalette.current());
    }

    public static Snapshot build(List<Path> paths, ImportResult result, ColourMode mode, Set<String> collapsed,
                                 boolean collapseAll, String job, MapPalette palette) {
        ErrorThresholds t = result.thresholds() != null ? result.thresholds() : ErrorThresholds.defaults();
        // The layout and the analysis read the same immutable model: the layout runs beside the analysis
        // (ten times Selene: about a second each, cold, on two cores), or here after it when no thread took it.
        org.fabricscope.model.core.Beside<MapLayout> layoutTask = org.fabricscope.model.core.Beside.start("fabricscope-layout",
                () -> TieredLayout.compute(result.model(), collapsed, collapseAll));
        Analysis analysis = Analysis.of(result.model(), t);
        MapLayout layout = layoutTask.join();
        return new Snapshot(List.copyOf(paths), result, analysis, layout,
                MapColouring.compute(result.model(), layout, mode, t, analysis.ranks(), job, analysis.findings(), palette), mode,
                Set.copyOf(collapsed), collapseAll, job);
    }

    /** The same data drawn another way (colour mode or collapsed hosts changed), in the same palette. */
    public Snapshot restyle(ColourMode newMode, Set<String> newCollapsed, boolean newCollapseAll) {
        return restyle(newMode, newCollapsed, newCollapseAll, job);
    }

    public Snapshot restyle(ColourMode newMode, Set<String> newCollapsed, boolean newCollapseAll, String newJob) {
        MapLayout l = newCollapsed.equals(collapsed) && newCollapseAll == collapseAll ? layout
                : TieredLayout.compute(result.model(), newCollapsed, newCollapseAll);
        return new Snapshot(paths, result, analysis, l,
                MapColouring.compute(result.model(), l, newMode, analysis.thresholds(), analysis.ranks(), newJob,
                        analysis.findings(), colouring.palette()), newMode,
                Set.copyOf(newCollapsed), newCollapseAll, newJob);
    }
}
