package org.fabricscope.model.pairwise;

import java.util.List;
import java.util.Objects;

import org.fabricscope.model.core.Evidence;

/**
 * One pair of a {@link PairMatrix}: its two nodes ({@code a} before {@code b} in natural order), the value
 * in the kind's unit (NaN when every run of the pair failed: {@code failed}), what the value is
 * ({@code BW average at 65536 B}), how the pair was told, how many runs measured it, and the evidence:
 * the result line of the run kept (the worst), the lines that placed the pair, then the other runs'
 * lines and the failure lines.
 */
public record PairCell(String a, String b, PairKind kind, double value, boolean failed, String what, PairEnds.How how,
                       int runs, List<Evidence> evidence) {
    public PairCell {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        Objects.requireNonNull(kind, "kind");
        what = what == null ? "" : what;
        evidence = List.copyOf(evidence);
    }

    /** The unit of the value: the kind's. */
    public String unit() {
        return kind.unit();
    }

    /** Whether {@code node} is one of the two. */
    public boolean involves(String node) {
        return a.equals(node) || b.equals(node);
    }

    /** The other node of the pair, given one of them. */
    public String other(String node) {
        return a.equals(node) ? b : a;
    }

    /** {@code a - b}. */
    public String label() {
        return a + " - " + b;
    }
}
