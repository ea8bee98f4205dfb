package org.fabricscope.app.live.kube;

import java.time.Duration;

/**
 * A change in the state of one followed log stream, for the log console's status line.
 *
 * @param pod       pod name
 * @param container container name
 * @param state     what happened
 * @param message   one line of text for the user: the reason for a retry or an end, never a stack trace
 * @param retryIn   for {@link State#RETRYING}: how long until the next attempt; otherwise {@link Duration#ZERO}
 */
public record PodLogStatus(String pod, String container, State state, String message, Duration retryIn) {

    /** What happened to the stream. */
    public enum State {
        /** The API server answered 200 and lines are flowing (again). */
        CONNECTED,
        /** The stream broke or could not be opened for a passing reason; it will be reopened after {@code retryIn}. */
        RETRYING,
        /** The follow is over for good and quietly: pod deleted, pod or container finished, or {@code stop}. */
        ENDED,
        /** The follow is over for good because of an error the user must fix (403, bad container name, ...). */
        FAILED
    }

    /** True for the two final states. */
    public boolean isFinal() {
        return state == State.ENDED || state == State.FAILED;
    }

    @Override
    public String toString() {
        return pod + "/" + container + " " + state + (message.isEmpty() ? "" : ": " + message)
                + (state == State.RETRYING ? " (retry in " + retryIn.toMillis() + " ms)" : "");
    }
}
