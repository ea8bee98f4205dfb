package org.fabricscope.model.fabric;

/**
 * Values by a {@code long} key (a GUID), without boxing: open addressing with linear probing, at most
 * half full. The fabric builder looks a node up by GUID for every node and port line (ten times
 * Selene: 300,000 lookups), where a {@code HashMap<Long, ...>} boxed each key and chased a node per
 * entry. Any key is allowed, 0 included; values are never null. Not thread-safe.
 */
final class LongIndex<V> {
    private long[] keys = new long[16];
    private Object[] vals = new Object[16];
    private int size;

    int size() {
        return size;
    }

    /** The value of {@code key}, or null. */
    @SuppressWarnings("unchecked")
    V get(long key) {
        return (V) vals[slotOf(key)];
    }

    /** Sets {@code key} to {@code value} only when it has none; returns the value it had, or null. */
    @SuppressWarnings("unchecked")
    V putIfAbsent(long key, V value) {
        java.util.Objects.requireNonNull(value, "value");
        int i = slotOf(key);
        if (vals[i] != null) {
            return (V) vals[i];
        }
        insert(i, key, value);
        return null;
    }

    /** Sets {@code key} to {@code value}, replacing any value it had. */
    void put(long key, V value) {
        java.util.Objects.requireNonNull(value, "value");
        int i = slotOf(key);
        if (vals[i] != null) {
            vals[i] = value;
        } else {
            insert(i, key, value);
        }
    }

    /** The slot holding {@code key}, or the empty slot where it would go. */
    private int slotOf(long key) {
        int mask = keys.length - 1;
        int i = slot(key, mask);
        while (vals[i] != null && keys[i] != key) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private void insert(int i, long key, Object value) {
        keys[i] = key;
        vals[i] = value;
        if (++size * 2 > keys.length) {
            grow();
        }
    }

    private void grow() {
        long[] oldKeys = keys;
        Object[] oldVals = vals;
        keys = new long[oldKeys.length * 2];
        vals = new Object[oldKeys.length * 2];
        int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldVals[j] != null) {
                int i = slot(oldKeys[j], mask);
                while (vals[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[j];
                vals[i] = oldVals[j];
            }
        }
    }

    /** GUIDs of one vendor differ in few bits: mix all 64 (MurmurHash3's finaliser) before taking the low ones. */
    private static int slot(long key, int mask) {
        long h = (key ^ (key >>> 33)) * 0xff51afd7ed558ccdL;
        h = (h ^ (h >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return (int) (h ^ (h >>> 33)) & mask;
    }
}
