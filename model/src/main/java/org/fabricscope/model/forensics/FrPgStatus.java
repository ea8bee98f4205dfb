package org.fabricscope.model.forensics;

/**
 * A dump's {@code pg_status} of one process group: the sequence numbers of the last collective its
 * rank enqueued, saw start and saw complete (-1 when none, or when start times were not recorded).
 * Keyed by the group's {@code pg_id}, an index local to the dumping process.
 */
public record FrPgStatus(String pgId, long lastEnqueued, long lastStarted, long lastCompleted) {
}
