package org.fabricscope.model.incident;

/**
 * When a collective's watchdog first fired ({@code fired}, its line's stamp) and how long a watchdog waits
 * ({@code timeoutMs}, PyTorch's {@code Timeout(ms)=}). Every rank that had issued that collective before then would
 * have had its own watchdog fire by {@code fired + timeoutMs}: it waits on the same peers. So a rank whose first
 * report of the group comes later than that, beyond the clock skew tolerated between nodes, had not issued the
 * collective when its peers gave up: it reached it late. Its reports tell no more: a rank that stalled and then went
 * on shows more work enqueued than the peers that only waited for it, which compared alone would blame them.
 */
public record TimeoutWindow(Stamp fired, long timeoutMs) {
    /** No stamped timeout, or no timeout period printed: nothing is late. */
    public static final TimeoutWindow NONE = new TimeoutWindow(Stamp.NONE, -1);

    /** The window of a watchdog line with this stamp and {@code Timeout(ms)} field; {@link #NONE} without either. */
    public static TimeoutWindow of(Stamp fired, String timeoutMs) {
        if (fired == null || !fired.exact() || timeoutMs == null) {
            return NONE;
        }
        try {
            long t = Long.parseLong(timeoutMs.strip());
            return t < 0 ? NONE : new TimeoutWindow(fired, t);
        } catch (NumberFormatException e) {
            return NONE;
        }
    }

    public boolean known() {
        return timeoutMs >= 0;
    }

    /**
     * Whether a report with this stamp came after every rank that had issued the collective would have timed out. Only
     * a stamp of the same clock as the watchdog's counts ({@link #comparable}): a kubelet's UTC stamp against glog's
     * local time, or a stamp with its year against one without, can be hours or years apart for the same moment.
     */
    public boolean late(Stamp report) {
        return known() && report != null && comparable(fired, report)
                && report.millis() - fired.millis() > timeoutMs + Stamp.SKEW_MS;
    }

    /** Both known and read off the same kind of clock: both zoned or neither, both with their year or neither. */
    public static boolean comparable(Stamp a, Stamp b) {
        return a.known() && b.known() && a.zoned() == b.zoned() && a.yearKnown() == b.yearKnown();
    }

    /** How long after the first watchdog fired a report came, in whole seconds. */
    public long secondsAfter(Stamp report) {
        return known() && report.known() ? (report.millis() - fired.millis()) / 1000 : 0;
    }
}
