package org.fabricscope.model.core;

import java.util.Iterator;
import java.util.Map;
import java.util.Objects;

/**
 * Equal small maps kept as one unmodifiable map. Every process of a log states the same {@code NCCL_*} settings and
 * facts, and every rank's copy of a failure line the same fields: each record held a map of its own (about 38,000
 * maps and 160,000 more objects in them in the model of a 7,700-rank log; BENCHMARKS.md, issue 27). A direct-mapped
 * table of the maps seen lately: a map with the same entries in the same order as the one in its slot gives that one
 * back, any other takes the slot as an {@link OrderedMaps#frozen} copy. Not thread-safe: one per builder or scanner.
 */
public final class SharedMaps {
    /** Maps of more entries are copied as they are: the ones that repeat are small. */
    static final int MAX_ENTRIES = 32;
    private static final int SLOTS = 1024;
    private final Map<?, ?>[] table = new Map<?, ?>[SLOTS];

    /** An unmodifiable copy of {@code m} in its order, or the equal one (same entries, same order) given before. */
    @SuppressWarnings("unchecked") // a slot holds only what this method put there for an equal map
    public <K, V> Map<K, V> of(Map<K, V> m) {
        if (m.size() > MAX_ENTRIES) {
            return OrderedMaps.frozen(m);
        }
        int h = m.hashCode();
        int slot = (h ^ (h >>> 10)) & (SLOTS - 1);
        Map<?, ?> t = table[slot];
        if (t != null && sameInOrder(t, m)) {
            return (Map<K, V>) t;
        }
        Map<K, V> f = OrderedMaps.frozen(m);
        table[slot] = f;
        return f;
    }

    /** Whether both hold the same entries in the same order (order reaches output, so it must be kept). */
    private static boolean sameInOrder(Map<?, ?> a, Map<?, ?> b) {
        if (a.size() != b.size()) {
            return false;
        }
        Iterator<? extends Map.Entry<?, ?>> i = a.entrySet().iterator();
        for (Map.Entry<?, ?> e : b.entrySet()) {
            Map.Entry<?, ?> f = i.next();
            if (!Objects.equals(e.getKey(), f.getKey()) || !Objects.equals(e.getValue(), f.getValue())) {
                return false;
            }
        }
        return true;
    }
}
