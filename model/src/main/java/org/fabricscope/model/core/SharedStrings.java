package org.fabricscope.model.core;

/**
 * Equal short strings, cut from many lines, kept as one object. A log of thousands of processes states the same few
 * values in every process (its NCCL version, network, bus id, {@code NCCL_*} settings, the HCA of its GPU Direct RDMA
 * line, the host of a failure line): each was a string and its array of its own, about 150,000 pairs of objects in
 * the model of a 7,700-rank log that the collector copied at every collection (BENCHMARKS.md, issue 27). A
 * direct-mapped table of the strings seen lately: a string equal to the one in its slot gives that one back, any other
 * takes the slot. Not thread-safe: one per builder or parser.
 */
public final class SharedStrings {
    /** Strings longer than this are kept as they are: values that repeat are short. */
    static final int MAX_LENGTH = 64;
    private static final int SLOTS = 4096;
    private final String[] table = new String[SLOTS];

    /** {@code s}, or the equal string given back before from the same slot; null stays null. */
    public String of(String s) {
        if (s == null || s.length() > MAX_LENGTH) {
            return s;
        }
        int h = s.hashCode();
        int slot = (h ^ (h >>> 12)) & (SLOTS - 1);
        String t = table[slot];
        if (s.equals(t)) {
            return t;
        }
        table[slot] = s;
        return s;
    }
}
