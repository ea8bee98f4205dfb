package org.fabricscope.model.forensics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One process group across the flight recorder dumps of its ranks: its members ({@code pg_config}),
 * the progress of each member that has a dump, and the members without one.
 */
public record ProcessGroupProgress(String name, String desc, List<Integer> members, Map<Integer, RankProgress> ranks,
                                   List<Integer> undumped) {
    public ProcessGroupProgress {
        members = List.copyOf(members);
        ranks = Collections.unmodifiableMap(new LinkedHashMap<>(ranks));
        undumped = List.copyOf(undumped);
    }

    public String label() {
        return FrProcessGroup.label(name, desc);
    }

    /** The highest sequence number any member enqueued (-1 when none). */
    public long maxEnqueued() {
        long m = -1;
        for (RankProgress p : ranks.values()) {
            m = Math.max(m, p.lastEnqueued());
        }
        return m;
    }

    /** The members with a dump whose last enqueued collective is below the others' (or that recorded nothing). */
    public List<RankProgress> behind() {
        long max = maxEnqueued();
        List<RankProgress> out = new ArrayList<>();
        for (RankProgress p : ranks.values()) {
            if (p.lastEnqueued() < max) {
                out.add(p);
            }
        }
        return out;
    }

    /** The members that enqueued the highest sequence number. */
    public List<RankProgress> leaders() {
        long max = maxEnqueued();
        List<RankProgress> out = new ArrayList<>();
        for (RankProgress p : ranks.values()) {
            if (p.lastEnqueued() == max) {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * A hang: some members have not enqueued a collective that the leading members enqueued and have
     * not completed (a collective cannot complete anywhere until every member joins it).
     */
    public boolean hangs() {
        if (behind().isEmpty() || maxEnqueued() < 0) {
            return false;
        }
        long max = maxEnqueued();
        for (RankProgress p : leaders()) {
            if (p.lastCompleted() < max) {
                return true;
            }
        }
        return false;
    }
}
