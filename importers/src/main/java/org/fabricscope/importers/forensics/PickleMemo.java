package org.fabricscope.importers.forensics;

import java.util.HashMap;
import java.util.Map;

/**
 * {@link SafePickle}'s memo: dense indexes (what picklers write) in an array, any other in a map; at most
 * {@code maxMemo} entries. Not thread-safe: one per read.
 */
final class PickleMemo {
    /** A stored None in {@link #array}, where null means never stored. */
    private static final Object NONE = new Object();

    private final int maxMemo;
    private Object[] array;
    private final Map<Long, Object> sparse = new HashMap<>();
    private int size;

    /** A memo sized for a pickle of {@code length} bytes: picklers memoize about every 16th byte's value. */
    PickleMemo(int length, int maxMemo) {
        this.maxMemo = maxMemo;
        this.array = new Object[Math.max(1024, Math.min(length / 16, Math.min(maxMemo, 1 << 20)))];
    }

    /** How many entries are stored: MEMOIZE's next index. */
    int size() {
        return size;
    }

    /** Stores {@code v} at {@code index}; false when the memo is full or the index negative. */
    boolean put(long index, Object v) {
        if (index < 0 || size >= maxMemo) {
            return false;
        }
        if (index < maxMemo) {
            int i = (int) index;
            if (i >= array.length) {
                int n = array.length;
                while (n <= i) {
                    n *= 2;
                }
                array = java.util.Arrays.copyOf(array, n);
            }
            if (array[i] == null) {
                size++;
            }
            array[i] = v == null ? NONE : v;
        } else if (sparse.put(index, v) == null) {
            size++;
        }
        return true;
    }

    /** Whether {@code index} was stored. */
    boolean has(long index) {
        return (index >= 0 && index < array.length && array[(int) index] != null) || sparse.containsKey(index);
    }

    /** The value at {@code index}, which {@link #has} it. */
    Object get(long index) {
        if (index >= 0 && index < array.length && array[(int) index] != null) {
            Object v = array[(int) index];
            return v == NONE ? null : v;
        }
        return sparse.get(index);
    }
}
