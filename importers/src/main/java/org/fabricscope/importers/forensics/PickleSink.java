package org.fabricscope.importers.forensics;

import java.util.AbstractMap;
import java.util.Map;
import java.util.Set;

/**
 * A dict that {@link SafePickle} fills but that keeps only what its reader takes from each key as it is
 * set (a flight recorder entry's fields): the items of one list of the pickle's root dict, made by a
 * {@link SafePickle.Items}, or of a list under a key of such a sink ({@link #listItems}). Only ever an
 * item of the list that made it; it holds no keys, so as a {@code Map} it is empty. {@link #put} sees each value complete: a value is set only once the pickle has built it, and
 * SafePickle reads with sinks only while no container is referenced twice.
 */
abstract class PickleSink extends AbstractMap<Object, Object> {
    /** As {@link PickleList#height}, {@link PickleList#count} and {@link PickleList#shared}, of the values set. */
    int height = 1;
    int count = 1;
    boolean shared;
    /** The list that made it, and how deep it sits below the root dict; set by {@link SinkList#newItem}. */
    Object owner;
    int depth;

    /**
     * What makes the dict items of the list under {@code key} of this sink as sinks of their own (an entry's
     * stack frames), or null to have that list's dicts made as plain dicts.
     */
    protected java.util.function.Supplier<PickleSink> listItems(String key) {
        return null;
    }

    /** Takes what is needed of one key's value. */
    protected abstract void set(String key, Object value);

    @Override
    public final Object put(Object key, Object value) {
        if (key instanceof String s) {
            set(s, value);
        }
        return null;
    }

    @Override
    public final Set<Map.Entry<Object, Object>> entrySet() {
        return Set.of();
    }

    @Override
    public final boolean equals(Object o) {
        return o == this;
    }

    @Override
    public final int hashCode() {
        return System.identityHashCode(this);
    }
}
