package org.fabricscope.importers.forensics;

import java.util.concurrent.ConcurrentHashMap;

import org.fabricscope.importers.core.ImportState;
import org.fabricscope.model.FabricModelBuilder;

/**
 * One import's table of equal immutable values, so that flight recorder entries share them instead
 * of each holding a copy: PyTorch's ring buffer repeats the same stack frames, process group names,
 * operation names, states, dtypes and tensor shapes in every entry of every rank (1,024 ranks x 2,000
 * entries held 5 GB as copies). Values must be immutable (strings, {@code List.of}/{@code List.copyOf}
 * lists of them). Thread-safe: dumps may be parsed on several threads. Kept by the import's
 * {@link org.fabricscope.importers.core.ReadContext#state}, so it lives as long as one import and
 * nothing is applied to the model.
 */
final class SharedValues implements ImportState {
    /** Past this many distinct values the table stops growing (a hostile dump of unique strings); values are then kept as read. */
    private static final int MAX_VALUES = 1_000_000;

    /**
     * Strings, and lists under a {@link ListKey}, in maps of their own: a bin of keys that share one hash is a
     * tree ordered by the keys' {@code compareTo} only when they are of one comparable class. Lists compare
     * by their items, so lists built to share one hash ({@code [[i, 2^30 - 31 i]]} all hash alike) cost a
     * logarithm each, not a walk of every list before them.
     */
    private final ConcurrentHashMap<String, String> strings = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<ListKey, java.util.List<?>> lists = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicInteger size = new java.util.concurrent.atomic.AtomicInteger();
    /** Process group members as dumps write them ({@code "[0, 1, ...]"}) and the list each parsed to. */
    private final ConcurrentHashMap<String, java.util.List<Integer>> ranks = new ConcurrentHashMap<>();

    /** The members a text parsed to before, without a warning; null when not seen. */
    java.util.List<Integer> parsedRanks(String text) {
        return ranks.get(text);
    }

    /** Remembers what a text parsed to (a few texts: one per process group of the job). */
    void rememberRanks(String text, java.util.List<Integer> members) {
        if (ranks.size() < 1_000) {
            ranks.putIfAbsent(text, members);
        }
    }

    /** The value equal to {@code v} that was seen first (or {@code v} itself): a string or an immutable list. */
    @SuppressWarnings("unchecked")
    <T> T share(T v) {
        if (v instanceof String text) {
            String had = strings.get(text);
            if (had != null) {
                return (T) had;
            }
            if (size.get() >= MAX_VALUES) {
                return v;
            }
            had = strings.putIfAbsent(text, text);
            if (had == null) {
                size.incrementAndGet();
            }
            return had == null ? v : (T) had;
        }
        if (v instanceof java.util.List<?> list) {
            ListKey key = new ListKey(list);
            java.util.List<?> had = lists.get(key);
            if (had != null) {
                return (T) had;
            }
            if (size.get() >= MAX_VALUES) {
                return v;
            }
            had = lists.putIfAbsent(key, list);
            if (had == null) {
                size.incrementAndGet();
            }
            return had == null ? v : (T) had;
        }
        return v; // null, or a value of a kind not shared
    }

    /**
     * A list as a key: equal and hashed as the list, and ordered by its items (numbers, strings, lists, in
     * that order of kinds; then by value), so that a bin of lists with one hash is a search tree.
     */
    static final class ListKey implements Comparable<ListKey> {
        private final java.util.List<?> list;
        private final int hash;

        ListKey(java.util.List<?> list) {
            this.list = list;
            this.hash = list.hashCode();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ListKey k && hash == k.hash && list.equals(k.list);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public int compareTo(ListKey o) {
            return compareValues(list, o.list);
        }

        /** A total order of the values shared lists hold: null, numbers, strings, lists, then any other by its text. */
        static int compareValues(Object a, Object b) {
            int ka = kind(a);
            int kb = kind(b);
            if (ka != kb) {
                return Integer.compare(ka, kb);
            }
            switch (ka) {
                case 0:
                    return 0;
                case 1:
                    return Long.compare(((Number) a).longValue(), ((Number) b).longValue());
                case 2:
                    return ((String) a).compareTo((String) b);
                case 3: {
                    java.util.List<?> x = (java.util.List<?>) a;
                    java.util.List<?> y = (java.util.List<?>) b;
                    for (int i = 0, n = Math.min(x.size(), y.size()); i < n; i++) {
                        int c = compareValues(x.get(i), y.get(i));
                        if (c != 0) {
                            return c;
                        }
                    }
                    return Integer.compare(x.size(), y.size());
                }
                default:
                    return String.valueOf(a).compareTo(String.valueOf(b));
            }
        }

        private static int kind(Object v) {
            return v == null ? 0 : v instanceof Long || v instanceof Integer ? 1 : v instanceof String ? 2
                    : v instanceof java.util.List ? 3 : 4;
        }
    }

    @Override
    public void applyTo(FabricModelBuilder builder) {
        // nothing: the table only shares memory between the dumps of one import
    }
}
