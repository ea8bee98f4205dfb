package org.fabricscope.importers.logs;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The lists of ranks the parser's records hold, shared between records that hold the same: a tree node's children
 * (each rank prints the same on every channel of a tree) and a short ring's order (every communicator of two ranks
 * prints the same few). A log of thousands of ranks gave each of its hundreds of thousands of tree nodes and rings a
 * list (and the boxes of ranks past 127) of its own, for the collector to copy. The lists are immutable. Not
 * thread-safe: one per parser.
 */
final class RankLists {
    private static final int SLOTS = 4096;
    private final int[] first = new int[SLOTS];
    private final int[] second = new int[SLOTS];
    private final int[] third = new int[SLOTS];
    @SuppressWarnings({"unchecked", "rawtypes"}) // an array of a generic type can only be made raw
    private final List<Integer>[] lists = new List[SLOTS];

    /**
     * The children that are not -1 ("none"), in order; the same list as last time for the same three numbers. A
     * direct-mapped cache of the last lists made: a slot taken by other children is made again, never confused (the
     * three numbers are compared).
     */
    List<Integer> children(int d0, int d1, int d2) {
        int slot = (d0 * 0x9E3779B1 + d1 * 0x85EBCA6B + d2 * 0xC2B2AE35) >>> 20;
        List<Integer> l = lists[slot];
        if (l != null && first[slot] == d0 && second[slot] == d1 && third[slot] == d2) {
            return l;
        }
        l = make(d0, d1, d2);
        lists[slot] = l;
        first[slot] = d0;
        second[slot] = d1;
        third[slot] = d2;
        return l;
    }

    static List<Integer> make(int d0, int d1, int d2) {
        if (d0 >= 0) {
            if (d1 >= 0) {
                return d2 >= 0 ? List.of(d0, d1, d2) : List.of(d0, d1);
            }
            return d2 >= 0 ? List.of(d0, d2) : List.of(d0);
        }
        if (d1 >= 0) {
            return d2 >= 0 ? List.of(d1, d2) : List.of(d1);
        }
        return d2 >= 0 ? List.of(d2) : List.of();
    }

    /** Longest ring order shared: longer ones are printed once per channel of a large communicator, rarely alike. */
    private static final int SHORT_RING = 8;
    /** Ring orders shared at most; past it the table starts again, so that memory stays bounded. */
    private static final int MAX_ORDERS = 4096;
    private final Map<List<Integer>, List<Integer>> orders = new HashMap<>();

    /** An immutable copy of a ring's order: for a short one, the copy made last time the same order came. */
    List<Integer> order(List<Integer> order) {
        if (order.size() > SHORT_RING) {
            return List.copyOf(order);
        }
        List<Integer> shared = orders.get(order);
        if (shared == null) {
            if (orders.size() >= MAX_ORDERS) {
                orders.clear();
            }
            shared = List.copyOf(order);
            orders.put(shared, shared);
        }
        return shared;
    }
}
