package org.fabricscope.app.live.source;

import java.time.Duration;

/**
 * How long each step of a live source's life may take (decision 0013; {@code docs/formats.md},
 * "Limits"). A source that passes one says what did not answer within it, in one line; it never hangs
 * the CLI or the window. Opening has each kind's own bounds (Kubernetes: {@code KubeConnector}'s
 * 5 s to connect, 2 retries, 30 s for an exec credential plugin), counted in the one-shot read.
 */
public final class LiveDeadlines {
    /** The CLI's one-shot read, everything included (Kubernetes: {@code ClusterReader.ONE_SHOT_BUDGET}). */
    public static final Duration ONE_SHOT = Duration.ofSeconds(45);
    /** From {@code start} to the first snapshot; past it the live job reports a problem and the source keeps trying. */
    public static final Duration FIRST_SNAPSHOT = Duration.ofSeconds(60);
    /** The live job waits this long for a source's {@code close}; past it the job says so and goes on. */
    public static final Duration STOP = Duration.ofSeconds(5);

    private LiveDeadlines() {
    }
}
