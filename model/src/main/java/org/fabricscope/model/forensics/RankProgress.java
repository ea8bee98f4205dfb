package org.fabricscope.model.forensics;

/**
 * How far one rank got in one process group, from its flight recorder dump: the sequence numbers
 * of the last collective it enqueued, saw start and saw complete (-1 when unknown), from the dump's
 * {@code pg_status} where the group's {@code pg_id} can be told, else from its entries. {@code last}
 * is its latest collective entry of the group, {@code firstPending} its oldest one not completed
 * (null when none). {@code noRecord}: the dump holds nothing about the group at all.
 */
public record RankProgress(int rank, long lastEnqueued, long lastStarted, long lastCompleted, FrEntry last,
                           FrEntry firstPending, boolean noRecord, String source) {
}
