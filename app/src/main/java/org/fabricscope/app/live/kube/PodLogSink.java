package org.fabricscope.app.live.kube;

import org.fabricscope.app.live.source.LogLine;
import java.util.List;

/**
 * Receives what a {@link PodLogFollower} reads. Methods are called on the HTTP client's threads (lines)
 * and on the follower's connect threads (statuses), concurrently for different streams, but never
 * concurrently for one stream, and always in order for one stream. Implementations must be thread-safe
 * and quick: they must not block (hand the work to another thread, as {@link LogLineBatcher} does).
 */
public interface PodLogSink {

    /** One complete, new line of one stream. */
    void line(LogLine line);

    /** The lines of one stream that arrived together, in order. By default, {@link #line} for each. */
    default void lines(List<LogLine> lines) {
        for (LogLine l : lines) {
            line(l);
        }
    }

    /** A stream connected, broke, is being retried, or ended. */
    void status(PodLogStatus status);

    /**
     * Flow control: while this answers true the follower stops reading more bytes from the API server
     * (TCP backpressure; nothing is dropped and the kubelet keeps the log), and asks again every few
     * milliseconds. By default never full.
     */
    default boolean full() {
        return false;
    }
}
