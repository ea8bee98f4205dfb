package org.fabricscope.model.incident;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Finds which of many literals occur in a text in one pass over it (Aho and Corasick, "Efficient
 * string matching: an aid to bibliographic search", CACM 18(6), 1975): a trie of the literals with
 * failure links, its transitions over ASCII held in one array per state. A literal with a character
 * outside ASCII is looked for with {@link String#indexOf}. Cost per text: its length plus the hits.
 * Immutable after construction; safe to share between threads.
 */
final class LiteralIndex {
    private static final int ALPHABET = 128;
    /** {@code next[state * 128 + c]}: the state after reading {@code c} (failure links folded in). */
    private final int[] next;
    /** The literal numbers that end at each state, failure chain included. */
    private final int[][] out;
    private final int[] slow;
    private final String[] literals;

    LiteralIndex(List<String> literals) {
        this.literals = literals.toArray(String[]::new);
        List<int[]> trans = new ArrayList<>();
        List<List<Integer>> outs = new ArrayList<>();
        trans.add(new int[ALPHABET]);
        outs.add(new ArrayList<>());
        Arrays.fill(trans.get(0), -1);
        List<Integer> slowList = new ArrayList<>();
        for (int i = 0; i < this.literals.length; i++) {
            String lit = this.literals[i];
            if (lit.isEmpty() || !lit.chars().allMatch(c -> c < ALPHABET)) {
                slowList.add(i);
                continue;
            }
            int s = 0;
            for (int k = 0; k < lit.length(); k++) {
                int c = lit.charAt(k);
                if (trans.get(s)[c] < 0) {
                    int[] t = new int[ALPHABET];
                    Arrays.fill(t, -1);
                    trans.add(t);
                    outs.add(new ArrayList<>());
                    trans.get(s)[c] = trans.size() - 1;
                }
                s = trans.get(s)[c];
            }
            outs.get(s).add(i);
        }
        int n = trans.size();
        int[] fail = new int[n];
        next = new int[n * ALPHABET];
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int c = 0; c < ALPHABET; c++) {
            int t = trans.get(0)[c];
            if (t < 0) {
                next[c] = 0;
            } else {
                next[c] = t;
                fail[t] = 0;
                queue.add(t);
            }
        }
        while (!queue.isEmpty()) {
            int s = queue.poll();
            outs.get(s).addAll(outs.get(fail[s]));
            for (int c = 0; c < ALPHABET; c++) {
                int t = trans.get(s)[c];
                if (t < 0) {
                    next[s * ALPHABET + c] = next[fail[s] * ALPHABET + c];
                } else {
                    next[s * ALPHABET + c] = t;
                    fail[t] = next[fail[s] * ALPHABET + c];
                    queue.add(t);
                }
            }
        }
        out = new int[n][];
        for (int s = 0; s < n; s++) {
            out[s] = outs.get(s).stream().distinct().mapToInt(Integer::intValue).toArray();
        }
        slow = slowList.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * Marks in {@code hit} every literal the text holds; returns how many were marked. {@code hit}
     * must be cleared by the caller (only the returned entries of {@code found} are set).
     */
    int find(CharSequence text, boolean[] hit, int[] found) {
        int count = 0;
        int s = 0;
        for (int i = 0, len = text.length(); i < len; i++) {
            char c = text.charAt(i);
            if (c >= ALPHABET) {
                s = 0;
                continue;
            }
            s = next[s * ALPHABET + c];
            for (int l : out[s]) {
                if (!hit[l]) {
                    hit[l] = true;
                    found[count++] = l;
                }
            }
        }
        for (int l : slow) {
            if (!hit[l] && text.toString().contains(literals[l])) {
                hit[l] = true;
                found[count++] = l;
            }
        }
        return count;
    }

    int size() {
        return literals.length;
    }
}
