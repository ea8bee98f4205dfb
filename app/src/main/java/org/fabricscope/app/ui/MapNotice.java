package org.fabricscope.app.ui;

import org.fabricscope.app.render.ColourMode;
import org.fabricscope.app.render.MapColouring;
import org.fabricscope.model.analysis.FabricSummary;

import javafx.scene.control.Label;

/**
 * A banner above the map saying what the map cannot show, so that no answer passes for healthy: grey
 * cables because no error counters were read (in the error-counter colours), or Problems only with
 * nothing to show, and why. Hidden and not laid out when there is nothing to say; above the map, not
 * over it, so it covers no name.
 */
public final class MapNotice extends Label {
    public MapNotice() {
        getStyleClass().add("map-notice");
        setId("mapNotice");
        setWrapText(true);
        setMaxWidth(Double.MAX_VALUE);
        setMinHeight(USE_PREF_SIZE);
        setVisible(false);
        managedProperty().bind(visibleProperty());
    }

    /** Says what the map of this snapshot cannot show with this filter; hides when nothing. */
    void show(Snapshot s, boolean problemsOnly) {
        String text = s == null ? "" : text(s.summary(), s.colouring(), s.mode(), s.layout().links().size(),
                s.layout().items().size(), problemsOnly);
        setText(text);
        setVisible(!text.isEmpty());
    }

    /** The notice for a load: empty when the map says all there is. */
    static String text(FabricSummary sum, MapColouring colouring, ColourMode mode, int links, int items, boolean problemsOnly) {
        if (sum.switches() + sum.cas() == 0) {
            return "";
        }
        boolean unread = sum.countersUnread();
        if (problemsOnly && !anyProblem(colouring, links, items)) {
            return "Problems only: nothing to show. " + (unread
                    ? "No error counters were read, so no cable was judged for errors (load perfquery/ibqueryerrors output); "
                    + "no cable is degraded and no port lost its link."
                    : "No cable has errors over thresholds or a degraded rate, and no port lost its link.")
                    + " Ctrl+P shows the whole fabric.";
        }
        if (unread && mode == ColourMode.ERRORS) {
            return "No error counters were read: load perfquery/ibqueryerrors output. Grey cables were not judged, "
                    + "they are not known to be healthy.";
        }
        return "";
    }

    private static boolean anyProblem(MapColouring colouring, int links, int items) {
        for (int i = 0; i < links; i++) {
            if (colouring.linkProblem(i) > 0) {
                return true;
            }
        }
        for (int i = 0; i < items; i++) {
            if (colouring.itemProblem(i) > 0) {
                return true;
            }
        }
        return false;
    }
}
