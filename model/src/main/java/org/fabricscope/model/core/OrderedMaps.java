package org.fabricscope.model.core;

import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Unmodifiable copies of maps that keep the order they were given in. {@code Map.copyOf} iterates in an order the JDK
 * draws at random at every start, and maps that reach output (a signature's fields in {@code timeline --json} and
 * {@code signatures --json}, the inspector's rows) came out in a different order on every run.
 */
public final class OrderedMaps {
    /** The one empty copy: an empty map is the commonest (a signature that extracts no field, a process with no setting). */
    private static final Frozen<Object, Object> EMPTY = new Frozen<>(new LinkedHashMap<>());

    private OrderedMaps() {
    }

    /**
     * As {@code Map.copyOf} (no null key or value; unmodifiable), in {@code m}'s own order; {@code m} itself when it
     * is such a copy already (made here, holding no null), which nothing can change.
     */
    @SuppressWarnings("unchecked") // a Frozen map is read-only: viewing its types wider is safe
    public static <K, V> Map<K, V> copyOf(Map<? extends K, ? extends V> m) {
        if (m instanceof Frozen<?, ?> f && f.noNulls) {
            return (Map<K, V>) f;
        }
        if (m.isEmpty()) {
            return (Map<K, V>) EMPTY;
        }
        LinkedHashMap<K, V> copy = new LinkedHashMap<>(m.size() * 4 / 3 + 1);
        m.forEach((k, v) -> copy.put(Objects.requireNonNull(k, "key"), Objects.requireNonNull(v, "value")));
        return new Frozen<>(copy);
    }

    /**
     * An unmodifiable copy of {@code m} in its own order, nulls allowed (as {@code unmodifiableMap(new
     * LinkedHashMap<>(m))}); {@code m} itself when it is such a copy already.
     */
    @SuppressWarnings("unchecked") // as above
    public static <K, V> Map<K, V> frozen(Map<? extends K, ? extends V> m) {
        if (m instanceof Frozen<?, ?> f) {
            return (Map<K, V>) f;
        }
        if (m.isEmpty()) {
            return (Map<K, V>) EMPTY;
        }
        return new Frozen<>(new LinkedHashMap<>(m));
    }

    /**
     * A map no one can change, over a copy no one else holds: so one can be shared by every record that holds the
     * same ({@link SharedMaps}) without each copying it again. Equal to any map of the same entries, as maps are.
     */
    static final class Frozen<K, V> extends AbstractMap<K, V> {
        private final Map<K, V> copy;
        private final Map<K, V> view;
        /** Whether no key or value is null (what {@link #copyOf} promises). */
        final boolean noNulls;

        Frozen(LinkedHashMap<K, V> copy) {
            this.copy = copy;
            this.view = Collections.unmodifiableMap(copy);
            boolean none = true;
            for (Map.Entry<K, V> e : copy.entrySet()) {
                none &= e.getKey() != null && e.getValue() != null;
            }
            this.noNulls = none;
        }

        @Override
        public Set<Map.Entry<K, V>> entrySet() {
            return view.entrySet();
        }

        @Override
        public int size() {
            return copy.size();
        }

        @Override
        public V get(Object key) {
            return copy.get(key);
        }

        @Override
        public boolean containsKey(Object key) {
            return copy.containsKey(key);
        }

        @Override
        public Set<K> keySet() {
            return view.keySet();
        }

        @Override
        public java.util.Collection<V> values() {
            return view.values();
        }
    }
}
