package org.fabricscope.app.live.kube;

import org.fabricscope.app.live.source.LogLine;
import java.util.List;

/**
 * What arrived from all followed streams since the previous batch: every line (none is dropped), in
 * arrival order, which is log order within each stream, and the status changes.
 *
 * @param lines    new lines of all streams
 * @param statuses stream status changes, in the order they happened
 * @param statusesDropped status changes left out because more than {@link LogLineBatcher#MAX_STATUSES}
 *                 piled up since the last batch (lines are never left out)
 */
public record LogLineBatch(List<LogLine> lines, List<PodLogStatus> statuses, int statusesDropped) {

    /** True when there is nothing in it. */
    public boolean isEmpty() {
        return lines.isEmpty() && statuses.isEmpty() && statusesDropped == 0;
    }

    /**
     * The last {@code max} lines: what a console that shows only the newest lines needs to draw. The
     * parser must still see {@link #lines()} in full.
     */
    public List<LogLine> tail(int max) {
        return lines.size() <= max ? lines : lines.subList(lines.size() - max, lines.size());
    }
}
