package org.fabricscope.model.forensics;

import java.util.List;

/**
 * How far one rank got in one process group, from its flight recorder dump: the sequence numbers
 * of the last collective it enqueued, saw start and saw complete (-1 when unknown), from the dump's
 * {@code pg_status} where the group's {@code pg_id} can be told and the group has no point-to-point
 * entries (pg_status counts those too), else from its entries. {@code last}
 * is its latest collective entry of the group, {@code firstPending} its oldest one after the last
 * completed collective (null when none). {@code noRecord}: the dump holds nothing about the group at
 * all. {@code entries} are its collective entries of the group, oldest first.
 */
public record RankProgress(int rank, long lastEnqueued, long lastStarted, long lastCompleted, FrEntry last,
                           FrEntry firstPending, boolean noRecord, String source, List<FrEntry> entries) {
    public RankProgress {
        entries = FrEntries.isColumnar(entries) ? entries : List.copyOf(entries);
    }

    /** This rank's entry of the group's collective {@code seq}, or null when its buffer does not hold it. */
    public FrEntry entry(long seq) {
        return FrEntries.firstWithCollectiveSeq(entries, seq);
    }
}
