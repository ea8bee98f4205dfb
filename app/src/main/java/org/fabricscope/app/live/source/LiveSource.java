package org.fabricscope.app.live.source;

import java.util.List;

import org.fabricscope.importers.core.Cancellation;

/**
 * One opened live source (decision 0013): a cluster, later a Prometheus server or a fabric poller.
 * Opened by {@link LiveSources#open}; then either read once ({@link #readOnce}, the CLI) or started
 * ({@link #start}, the window's live job), and closed. Each step has its deadline
 * ({@link LiveDeadlines}). A source pushes snapshots; it never renders what it read as text to be
 * parsed again, and a refresh re-reads only what changed.
 */
public interface LiveSource extends AutoCloseable {
    /** What a started source reports, on its own background threads (hand UI work to the UI thread). */
    interface Listener {
        /** A new snapshot: the whole of what the source holds now (only what changed was re-read). */
        void snapshot(LiveSnapshot snapshot);

        /** New lines of the streams the source follows, in order per stream. */
        default void lines(List<LogLine> lines) {
        }

        /** The source's status line changed (streams started, retrying, ...). */
        default void status() {
        }

        /** Something failed; the source keeps trying where that makes sense. One line. */
        void error(String message);
    }

    /** The kind's {@link LiveSourceKind#id() id}. */
    String kind();

    /** One line for a status bar, as {@link LiveTarget#describe()}. */
    String describe();

    /**
     * What the names of the source's streams start with ({@code kube://ctx/ns/pods/}), so evidence from a
     * followed line names its stream in full: prefix + {@link LogLine#source()}.
     */
    default String streamPrefix() {
        return kind() + "://";
    }

    /** Reads once, within {@link LiveDeadlines#ONE_SHOT}; cancellation is checked between requests. */
    LiveSnapshot readOnce(Cancellation cancel) throws LiveSourceException;

    /**
     * Starts following: the listener gets a snapshot when the first reads arrive and after each change.
     * Call once; {@link #close()} stops it. {@code followStreams}: also follow the source's streams (logs).
     */
    void start(Listener listener, boolean followStreams);

    /**
     * The source's status for a status bar: {@code 4 nodes, 16 pods, 9 events · logs: 16 streaming},
     * or what keeps it from being read.
     */
    String status();

    /** Whether {@link #pause} and {@link #resume} do anything (a polled source: the fabric poller). */
    default boolean pausable() {
        return false;
    }

    /** Stops reading for now; what was read stays, and {@link #resume} goes on from there. No-op where not pausable. */
    default void pause() {
    }

    /** Reads again after {@link #pause}. */
    default void resume() {
    }

    /** Whether paused now. */
    default boolean paused() {
        return false;
    }

    /** Stops within {@link LiveDeadlines#STOP}; closing twice is harmless. */
    @Override
    void close();
}
