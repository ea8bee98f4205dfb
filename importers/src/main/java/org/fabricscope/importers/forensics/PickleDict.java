package org.fabricscope.importers.forensics;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * A pickled dict as {@link SafePickle} builds it: keys in insertion order (as Python keeps them),
 * a later value for an equal key replacing the earlier one in place, null keys and values allowed.
 * Keys and values are held in two arrays, with an open-addressing hash index only once a dict has
 * more than {@value #LINEAR} keys (below that, a 64-bit mask of key hashes tells most new keys
 * without a scan): a flight recorder dump is millions of small dicts (an entry's 22
 * fields, a stack frame's 3), and a {@code LinkedHashMap} node per field made half the parse. Readers
 * walk {@link #keyAt}/{@link #valueAt} or use it as any {@link Map}; not thread-safe.
 */
final class PickleDict extends AbstractMap<Object, Object> {
    private static final int LINEAR = 32;
    /**
     * The most slots one key's lookup may probe. Keys of a dump are field names, group names and ids, whose
     * hashes spread (at a load of at most one half the longest run of a million keys is a few dozen); keys built to share one
     * hash ({@code "Aa"} and {@code "BB"} hash alike, so 2^16 strings of 16 such pairs do) would make every
     * put walk all of them: such a dict is refused ({@link Flooded}) instead of taking quadratic time.
     */
    static final int MAX_PROBES = 256;

    /** Thrown when a key's lookup probes more than {@link #MAX_PROBES} slots. */
    static final class Flooded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Flooded() {
            super("more than " + MAX_PROBES + " dict keys share one hash run (PickleDict.MAX_PROBES): keys built to collide",
                    null, false, false);
        }
    }

    private Object[] keys;
    private Object[] vals;
    private int size;
    /** As {@link PickleList#height}, {@link PickleList#count} and {@link PickleList#shared}; kept by {@link SafePickle}. */
    int height = 1;
    int count = 1;
    boolean shared;
    /** How many puts replaced the value of a key already held (a key given twice: no pickler writes that). */
    int replaced;
    /** Slot -> index + 1 (0: empty); null while the dict is small enough to scan. */
    private int[] index;
    /**
     * While there is no index: bit {@code hash & 63} set for every key held. A key whose bit is clear
     * is surely absent, so most puts into a small dict (an entry's 22 fields) append without a scan.
     */
    private long present;

    PickleDict() {
        this(4);
    }

    PickleDict(int capacity) {
        keys = new Object[Math.max(1, capacity)];
        vals = new Object[keys.length];
    }

    @Override
    public int size() {
        return size;
    }

    /** Room for {@code more} keys without growing (SETITEMS knows how many pairs it adds). */
    void ensureRoom(int more) {
        int need = size + more;
        if (need > keys.length) {
            keys = Arrays.copyOf(keys, need);
            vals = Arrays.copyOf(vals, need);
        }
        if (need > LINEAR && (index == null || need * 2 > index.length)) {
            index = new int[Math.max(16, Integer.highestOneBit(need * 4 - 1))];
            for (int i = 0; i < size; i++) {
                insert(i);
            }
        }
    }

    Object keyAt(int i) {
        return keys[i];
    }

    Object valueAt(int i) {
        return vals[i];
    }

    private static long bit(int hash) {
        return 1L << (hash & 63);
    }

    private int find(Object key) {
        return find(key, hash(key));
    }

    private int find(Object key, int h) {
        if (index == null) {
            if ((present & bit(h)) == 0) {
                return -1;
            }
            for (int i = 0; i < size; i++) {
                Object k = keys[i];
                if (k == key || (key != null && key.equals(k))) {
                    return i;
                }
            }
            return -1;
        }
        int mask = index.length - 1;
        int probes = 0;
        for (int slot = h & mask; ; slot = (slot + 1) & mask) {
            int at = index[slot] - 1;
            if (at < 0) {
                return -1;
            }
            if (Objects.equals(keys[at], key)) {
                return at;
            }
            if (++probes > MAX_PROBES) {
                throw new Flooded();
            }
        }
    }

    private static int hash(Object key) {
        int h = key == null ? 0 : key.hashCode();
        return h ^ (h >>> 16);
    }

    @Override
    public Object get(Object key) {
        int i = find(key);
        return i < 0 ? null : vals[i];
    }

    @Override
    public boolean containsKey(Object key) {
        return find(key) >= 0;
    }

    @Override
    public Object put(Object key, Object value) {
        int h = hash(key);
        int i = find(key, h);
        if (i >= 0) {
            Object had = vals[i];
            vals[i] = value;
            replaced++;
            return had;
        }
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size * 2);
            vals = Arrays.copyOf(vals, size * 2);
        }
        keys[size] = key;
        vals[size] = value;
        size++;
        present |= bit(h);
        if (index != null && size * 2 <= index.length) {
            insert(size - 1);
        } else if (size > LINEAR) {
            reindex();
        }
        return null;
    }

    private void reindex() {
        int n = Integer.highestOneBit(size * 4 - 1);
        index = new int[Math.max(16, n)];
        for (int i = 0; i < size; i++) {
            insert(i);
        }
    }

    private void insert(int at) {
        int mask = index.length - 1;
        int slot = hash(keys[at]) & mask;
        int probes = 0;
        while (index[slot] != 0) {
            slot = (slot + 1) & mask;
            if (++probes > MAX_PROBES) {
                throw new Flooded();
            }
        }
        index[slot] = at + 1;
    }

    @Override
    public Set<Entry<Object, Object>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return size;
            }

            @Override
            public Iterator<Entry<Object, Object>> iterator() {
                return new Iterator<>() {
                    private int i;

                    @Override
                    public boolean hasNext() {
                        return i < size;
                    }

                    @Override
                    public Entry<Object, Object> next() {
                        if (i >= size) {
                            throw new NoSuchElementException();
                        }
                        Entry<Object, Object> e = new SimpleImmutableEntry<>(keys[i], vals[i]);
                        i++;
                        return e;
                    }
                };
            }
        };
    }
}
