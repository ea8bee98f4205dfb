package org.fabricscope.importers.forensics;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The walk {@link SafePickle} makes of a value when its bookkeeping cannot vouch for it
 * ({@link PickleNesting#needsWalk}): containers held in two places, nesting or counts past the limits.
 */
final class PickleWalk {
    private final SafePickle.Limits limits;
    /** Where the walk's problems are reported: the end of the input. */
    private final long offset;

    PickleWalk(SafePickle.Limits limits, long offset) {
        this.limits = limits;
        this.offset = offset;
    }

    /**
     * Refuses a value that contains itself (memo references can build one) or nests deeper than the
     * limit, and bounds the walk: containers shared through the memo are allowed (PyTorch's pickler
     * shares identical stack frames), but a small pickle that shares containers to encode an
     * exponential tree is refused before its readers walk it.
     */
    void check(Object root) throws SafePickle.PickleException {
        long[] budget = {limits.maxValues()};
        if (!fits(root, 0, budget)) {
            // a cycle is also infinitely deep: tell the two apart, off the common path
            walk(root, 0, new IdentityHashMap<>(), new long[] {limits.maxValues()});
        }
    }

    /**
     * The common path: false when the value nests deeper than the limit (which a value that
     * contains itself does too); the walk budget bounds a tree of shared containers.
     */
    private boolean fits(Object v, int depth, long[] budget) throws SafePickle.PickleException {
        if (--budget[0] < 0) {
            throw fail("more than " + limits.maxValues() + " values when shared containers are counted each time");
        }
        // the concrete classes this reader makes, tested first: a class test is one compare, while a
        // failed test against an interface (Map, List) scans the value's interfaces every time
        if (v == null || v instanceof String || v instanceof Long) {
            return true;
        }
        if (v instanceof ArrayList<?> l) {
            if (depth > limits.maxDepth()) {
                return false;
            }
            for (int i = 0, n = l.size(); i < n; i++) {
                if (!fits(l.get(i), depth + 1, budget)) {
                    return false;
                }
            }
        } else if (v instanceof PickleDict m) {
            if (depth > limits.maxDepth()) {
                return false;
            }
            for (int i = 0, n = m.size(); i < n; i++) {
                if (!fits(m.valueAt(i), depth + 1, budget)) {
                    return false;
                }
            }
        } else if (v instanceof Map<?, ?> m) {
            if (depth > limits.maxDepth()) {
                return false;
            }
            for (Object x : m.values()) {
                if (!fits(x, depth + 1, budget)) {
                    return false;
                }
            }
        } else if (v instanceof List<?> l) {
            if (depth > limits.maxDepth()) {
                return false;
            }
            for (Object x : l) {
                if (!fits(x, depth + 1, budget)) {
                    return false;
                }
            }
        }
        return true;
    }

    private void walk(Object v, int depth, IdentityHashMap<Object, Boolean> onPath, long[] budget)
            throws SafePickle.PickleException {
        if (--budget[0] < 0) {
            throw fail("more than " + limits.maxValues() + " values when shared containers are counted each time");
        }
        if (!(v instanceof Map) && !(v instanceof List)) {
            return;
        }
        if (depth > limits.maxDepth()) {
            throw fail("values nested deeper than " + limits.maxDepth());
        }
        if (onPath.containsKey(v)) {
            throw fail("a value that contains itself");
        }
        onPath.put(v, Boolean.TRUE);
        if (v instanceof Map<?, ?> m) {
            for (Object x : m.values()) {
                walk(x, depth + 1, onPath, budget);
            }
        } else {
            for (Object x : (List<?>) v) {
                walk(x, depth + 1, onPath, budget);
            }
        }
        onPath.remove(v);
    }

    private SafePickle.PickleException fail(String what) {
        return new SafePickle.PickleException(what, offset, false);
    }
}
