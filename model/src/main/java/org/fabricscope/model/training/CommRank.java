package org.fabricscope.model.training;

import java.util.Objects;

/**
 * A rank of one communicator: the key the rank map and the checks look ranks up by, one lookup per channel line's end
 * on a large job (no string made for it, as {@link RankPair}).
 */
public record CommRank(String commId, int rank) {
    /** Written out: a record's own, made through method handles on first use, were slower on the hot path. */
    @Override
    public boolean equals(Object o) {
        return o instanceof CommRank k && rank == k.rank && Objects.equals(commId, k.commId);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(commId) * 31 + rank;
    }
}
