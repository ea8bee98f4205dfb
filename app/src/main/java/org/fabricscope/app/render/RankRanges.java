package org.fabricscope.app.render;

/** The rank badge's text: a glyph's rank numbers as compact ranges ({@code r0-7}, {@code r0-3,5}). */
final class RankRanges {
    private RankRanges() {
    }

    /** {@code r0-7}, {@code r0-3,5}: rank numbers as compact ranges. */
    static String of(java.util.SortedSet<Integer> nums) {
        StringBuilder b = new StringBuilder("r");
        Integer start = null;
        Integer prev = null;
        for (int n : nums) {
            if (prev != null && n == prev + 1) {
                prev = n;
                continue;
            }
            if (start != null) {
                b.append(b.length() > 1 ? "," : "").append(start).append(prev.equals(start) ? "" : "-" + prev);
            }
            start = n;
            prev = n;
        }
        if (start != null) {
            b.append(b.length() > 1 ? "," : "").append(start).append(prev.equals(start) ? "" : "-" + prev);
        }
        return b.toString();
    }
}
