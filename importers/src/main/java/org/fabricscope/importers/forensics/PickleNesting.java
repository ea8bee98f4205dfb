package org.fabricscope.importers.forensics;

import java.util.Map;

/**
 * What {@link SafePickle} keeps track of as it builds containers: how deeply they nest and how many values
 * they hold (so that a value that stayed a tree within the limits needs no walk), which were pushed twice,
 * and, when it reads with {@link SafePickle.Items}, which lists make their dict items as sinks and whether
 * each sink stays where its reader expects it. Not thread-safe: one per read.
 */
final class PickleNesting {
    private final SafePickle.Limits limits;
    /** The values given to sinks so far, a container held twice counted twice. */
    private long sinkValues;
    /** Whether a container held in two places (memo get, DUP) was changed after: see {@link #needsWalk}. */
    private boolean changedShared;
    /** What makes the items of {@link #itemList}; null when reading plain values only. */
    private final SafePickle.Items items;
    /** The list under {@code items.key()} of the root dict, once begun; its dict items are sinks. */
    private SinkList itemList;


    PickleNesting(SafePickle.Limits limits, SafePickle.Items items) {
        this.limits = limits;
        this.items = items;
    }

    /** Thrown while reading with {@link SafePickle.Items} when the pickle is one that must be read without them. */
    static final class Unstreamable extends RuntimeException {
        private static final long serialVersionUID = 1L;
        static final Unstreamable INSTANCE = new Unstreamable();

        private Unstreamable() {
            super("read without items", null, false, false);
        }
    }

    /** Whether the item list, if one was begun, is the value of the items' key in the root {@code v}. */
    boolean itemListIsUnder(Object v) {
        return itemList == null || (v instanceof PickleDict root && root.get(items.key()) == itemList);
    }

    /**
     * Whether the walk must look at the value: a container was changed after it was pushed a second time
     * (only such a value can contain itself, or have a part that changed after it was added), or it
     * nests or counts past the limits. Otherwise the walk would pass, and is not made.
     */
    boolean needsWalk(Object root) {
        int height;
        int count;
        if (root instanceof PickleDict d) {
            height = d.height;
            count = d.count;
        } else if (root instanceof PickleList l) {
            height = l.height;
            count = l.count;
        } else {
            return false; // a scalar; a sink is never the root
        }
        return changedShared || height > limits.maxDepth() + 1 || count > limits.maxValues();
    }

    /**
     * Records that {@code v} was added into the container {@code into}: its nesting and count, and whether a
     * container held twice changed. A sink may only be an item of the item list, and is given no value that
     * could nest deeper than the limit (it takes values apart).
     */
    void nest(Object into, Object v) {
        int h;
        int c;
        if (v instanceof PickleDict d) {
            h = d.height + 1;
            c = d.count;
        } else if (v instanceof PickleList l) {
            if (l instanceof SinkList sl && into != sl.owner) {
                throw Unstreamable.INSTANCE; // its sinks belong under its key of its owner only
            }
            h = l.height + 1;
            c = l.count;
        } else if (v instanceof PickleSink s) {
            // into the list that made it, or (fetched back from the memo: PyTorch shares equal stack frames
            // between entries) into a list whose items are made the same way
            if (into != s.owner && !(into instanceof SinkList l && l.items == ((SinkList) s.owner).items)) {
                throw Unstreamable.INSTANCE;
            }
            h = s.height + 1;
            c = s.count;
        } else {
            h = 1;
            c = 1;
        }
        if (into instanceof PickleList l) {
            changed(l.shared);
            l.height = Math.max(l.height, h);
            l.count = saturated(l.count + c);
        } else if (into instanceof PickleDict d) {
            changed(d.shared);
            d.height = Math.max(d.height, h);
            d.count = saturated(d.count + c);
        } else if (into instanceof PickleSink s) {
            changed(s.shared);
            // the root dict down to the sink, then the value: a value nesting deeper than that leaves is refused anyway
            if (h + s.depth > limits.maxDepth() + 1) {
                throw Unstreamable.INSTANCE;
            }
            // sinks take their values apart (a text of a list walks all of it) before the count is checked at
            // the end: all they are given together stays within the count a read may walk (tuples shared
            // through the memo can stand for 2^n values in n opcodes)
            sinkValues += c;
            if (c > limits.maxValues() || sinkValues > limits.maxValues()) {
                throw Unstreamable.INSTANCE;
            }
            s.height = Math.max(s.height, h);
            s.count = saturated(s.count + c);
        }
    }

    /** Whether a container held twice was changed: kept heights and counts may then be short of the truth. */
    boolean heightsMayBeStale() {
        return changedShared;
    }

    /** A {@link SinkList} may only be set under the key it was made for. */
    static void underKey(Object key, Object v) {
        if (v instanceof SinkList l && !l.key.equals(key)) {
            throw Unstreamable.INSTANCE;
        }
    }

    private static int saturated(int n) {
        return n < 0 ? Integer.MAX_VALUE : n;
    }

    private void changed(boolean shared) {
        if (shared) {
            changedShared = true;
            if (items != null) {
                throw Unstreamable.INSTANCE; // a sink may have taken it apart before the change
            }
        }
    }

    /** A value pushed again (memo get, DUP): a container is now held in two places. */
    Object again(Object v) {
        // the classes this reader makes containers of: a class test is one compare, an interface test on a
        // string (most memo gets) a scan of its interfaces
        if (v instanceof PickleList l) {
            if (l instanceof SinkList) {
                throw Unstreamable.INSTANCE; // its sinks would be in two places
            }
            l.shared = true;
        } else if (v instanceof PickleDict d) {
            d.shared = true;
        } else if (v instanceof PickleSink s) {
            s.shared = true;
        }
        return v;
    }

    /**
     * A new empty list: a {@link SinkList} when it is begun as the value of the items' key of the root dict,
     * or of a key whose list a sink makes sinks for (SETITEMS or SETITEM into that dict or sink next).
     */
    PickleList emptyList(Object[] stack, int sp, int[] marks, int mp, int capacity) {
        if (items == null || sp < 2 || !(stack[sp - 1] instanceof String k)) {
            return new PickleList(capacity);
        }
        // the dict the key is about to be set into: below the innermost MARK (SETITEMS), or just below the key
        int m = mp > 0 ? marks[mp - 1] : -1;
        Object into = m > 0 && (sp - 1 - (m + 1)) % 2 == 0 ? stack[m - 1] : m < sp - 2 ? stack[sp - 2] : null;
        if (into instanceof PickleSink s) {
            java.util.function.Supplier<PickleSink> f = s.listItems(k);
            if (f != null) {
                return new SinkList(f, s, k, s.depth + 1);
            }
        } else if (into == stack[0] && into instanceof PickleDict && (m <= 1) && k.equals(items.key())) {
            if (itemList != null) {
                throw Unstreamable.INSTANCE; // a second list under that key
            }
            itemList = new SinkList(items::newItem, into, k, 1);
            return itemList;
        }
        return new PickleList(capacity);
    }

    /** A new empty dict: a sink when it is begun as an item of a {@link SinkList}. */
    Map<Object, Object> emptyDict(Object[] stack, int sp, int[] marks, int mp) {
        if (itemList != null && sp > 0) {
            if (stack[sp - 1] instanceof SinkList l) {
                return l.newItem();
            }
            if (mp > 0 && marks[mp - 1] > 0 && stack[marks[mp - 1] - 1] instanceof SinkList l) {
                return l.newItem();
            }
        }
        return new PickleDict();
    }
}
