package org.fabricscope.importers.forensics;

import java.util.function.Supplier;

/**
 * A list whose dict items {@link SafePickle} makes as sinks: the list under a key of the root dict (a
 * flight recorder dump's {@code entries}) or under a key of a sink (an entry's {@code frames}). It may only
 * be set under that key of that owner, and only ever be held there.
 */
final class SinkList extends PickleList {
    private static final long serialVersionUID = 1L;

    /** Makes each dict item. */
    final transient Supplier<PickleSink> items;
    /** The dict or sink it is made for, and the key. */
    final transient Object owner;
    final String key;
    /** How deep it sits below the root dict: 1 under the root. */
    final int depth;

    SinkList(Supplier<PickleSink> items, Object owner, String key, int depth) {
        super(1);
        this.items = items;
        this.owner = owner;
        this.key = key;
        this.depth = depth;
    }

    /** A new item, made for this list. */
    PickleSink newItem() {
        PickleSink s = items.get();
        s.owner = this;
        s.depth = depth + 1;
        return s;
    }
}
