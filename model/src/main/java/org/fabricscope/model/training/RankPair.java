package org.fabricscope.model.training;

/**
 * Two ranks of one communicator, the lower first: what a channel line links, whichever way it points. A map key
 * made without building a string per channel line (a 7,700-rank log has 150,000 of them; the string keys were the
 * better part of two passes over them, BENCHMARKS.md "Issue 27, twelfth session").
 */
public record RankPair(String commId, int lo, int hi) {
    /** Written out: a record's own, made through method handles on first use, were slower on the hot path. */
    @Override
    public boolean equals(Object o) {
        return o instanceof RankPair p && lo == p.lo && hi == p.hi && java.util.Objects.equals(commId, p.commId);
    }

    @Override
    public int hashCode() {
        return (java.util.Objects.hashCode(commId) * 31 + lo) * 31 + hi;
    }

    /** The pair a channel line links. */
    public static RankPair of(ChannelLink c) {
        return new RankPair(c.commId(), Math.min(c.fromRank(), c.toRank()), Math.max(c.fromRank(), c.toRank()));
    }
}
