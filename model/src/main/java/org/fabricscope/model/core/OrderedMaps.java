package org.fabricscope.model.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Unmodifiable copies of maps that keep the order they were given in. {@code Map.copyOf} iterates in an order the JDK
 * draws at random at every start, and maps that reach output (a signature's fields in {@code timeline --json} and
 * {@code signatures --json}, the inspector's rows) came out in a different order on every run.
 */
public final class OrderedMaps {
    private OrderedMaps() {
    }

    /** As {@code Map.copyOf} (no null key or value; unmodifiable), in {@code m}'s own order. */
    public static <K, V> Map<K, V> copyOf(Map<? extends K, ? extends V> m) {
        Map<K, V> copy = new LinkedHashMap<>(m.size() * 4 / 3 + 1);
        m.forEach((k, v) -> copy.put(Objects.requireNonNull(k, "key"), Objects.requireNonNull(v, "value")));
        return Collections.unmodifiableMap(copy);
    }
}
