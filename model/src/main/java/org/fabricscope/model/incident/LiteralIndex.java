package org.fabricscope.model.incident;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds which of many literals occur in a text, in one pass over it that stays in the first-level
 * cache. Each literal of four characters or more is anchored on one of its 4-grams (the one with the
 * fewest spaces and lower-case letters: the rarest in logs); a rolling 32-bit window over the text is
 * tested against a 64-kilobit filter of the anchors (Bloom, "Space/time trade-offs in hash coding with
 * allowable errors", CACM 13(7), 1970, with one hash), and only where the filter says yes are the
 * literals of that anchor compared in place. Shorter literals, and those with characters outside
 * Latin-1, are looked for with {@link String#indexOf}. Exact: a literal is reported if and only if the
 * text holds it. The window rolls over the text's characters copied as bytes into a buffer the caller
 * keeps ({@link Bytes}), not over {@code charAt}: a third of the time on the lines of a 7,700-rank NCCL log,
 * and the signature scan is the slower of the two threads that read a log (BENCHMARKS.md, issue 27). (An Aho-Corasick automaton over the catalogue's 10,000 states made every character a
 * miss in a 7 MB table: twice the cost of parsing the line.) Immutable; safe to share between threads.
 */
final class LiteralIndex {
    private static final int GRAM = 4;
    private static final int FILTER_BITS = 1 << 16;
    private final long[] filter = new long[FILTER_BITS / 64];
    /** Open addressing: the anchors (four characters packed into an int) and, at the same slot, their literals and offsets. */
    private final int[] keys;
    private final int[][][] values;
    private final boolean[] used;
    private final int mask;
    private final int[] slow;
    private final String[] literals;

    LiteralIndex(List<String> literals) {
        this.literals = literals.toArray(String[]::new);
        Map<Integer, List<int[]>> anchors = new HashMap<>();
        List<Integer> slowList = new ArrayList<>();
        for (int i = 0; i < this.literals.length; i++) {
            String lit = this.literals[i];
            int at = lit.length() < GRAM || !lit.chars().allMatch(c -> c < 256) ? -1 : anchor(lit);
            if (at < 0) {
                slowList.add(i);
                continue;
            }
            int key = pack(lit, at);
            anchors.computeIfAbsent(key, k -> new ArrayList<>()).add(new int[] {i, at});
            int bit = bit(key);
            filter[bit >>> 6] |= 1L << bit;
        }
        int size = Integer.highestOneBit(Math.max(16, anchors.size() * 4));
        keys = new int[size];
        values = new int[size][][];
        used = new boolean[size];
        mask = size - 1;
        anchors.forEach((k, v) -> {
            int slot = bit(k) & mask;
            while (used[slot]) {
                slot = (slot + 1) & mask;
            }
            used[slot] = true;
            keys[slot] = k;
            values[slot] = v.toArray(int[][]::new);
        });
        slow = slowList.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The 4-grams most log lines hold, most common first ({@code common-4grams.txt}). */
    private static final Map<String, Integer> COMMON = common();

    private static Map<String, Integer> common() {
        Map<String, Integer> m = new HashMap<>();
        try (java.io.InputStream in = LiteralIndex.class.getResourceAsStream("common-4grams.txt")) {
            if (in == null) {
                return m;
            }
            List<String> lines = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines()
                    .filter(l -> l.length() == GRAM + 2 && l.startsWith("|") && l.endsWith("|")).toList();
            for (int i = 0; i < lines.size(); i++) {
                m.putIfAbsent(lines.get(i).substring(1, GRAM + 1), lines.size() - i);
            }
        } catch (java.io.IOException e) {
            // without the table, anchors are chosen by their characters alone
        }
        return m;
    }

    /**
     * The offset of the literal's rarest 4-gram: not one most log lines hold ({@link #COMMON}), then the
     * fewest spaces and lower-case letters, the first among equals.
     */
    private static int anchor(String lit) {
        int best = 0;
        int bestScore = Integer.MAX_VALUE;
        for (int k = 0; k + GRAM <= lit.length(); k++) {
            int score = COMMON.getOrDefault(lit.substring(k, k + GRAM), 0) * 16;
            for (int j = k; j < k + GRAM; j++) {
                char c = lit.charAt(j);
                score += c == ' ' ? 3 : Character.isLowerCase(c) ? 1 : 0;
            }
            if (score < bestScore) {
                bestScore = score;
                best = k;
            }
        }
        return best;
    }

    private static int pack(String s, int at) {
        return (s.charAt(at) & 0xFF) << 24 | (s.charAt(at + 1) & 0xFF) << 16 | (s.charAt(at + 2) & 0xFF) << 8 | s.charAt(at + 3) & 0xFF;
    }

    private static int bit(int key) {
        return (key * 0x9E3779B1) >>> 16;
    }

    /** A buffer for {@link #find}'s copy of the text; one per thread (a {@link SignatureCatalogue.Matcher} keeps one). */
    static final class Bytes {
        private byte[] b = new byte[512];

        /**
         * The low byte of each of the text's characters: a character past Latin-1 may then look like
         * an ASCII one to the filter, never to the comparison in place, so the result stays exact.
         */
        @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): exactly this copy, without allocating
        byte[] of(CharSequence text, int len) {
            if (b.length < len) {
                b = new byte[Math.max(len, b.length * 2)];
            }
            if (text instanceof String s) {
                s.getBytes(0, len, b, 0);
            } else {
                for (int i = 0; i < len; i++) {
                    b[i] = (byte) text.charAt(i);
                }
            }
            return b;
        }
    }

    /** {@link #find(CharSequence, boolean[], int[], Bytes)} with a buffer of its own. */
    int find(CharSequence text, boolean[] hit, int[] found) {
        return find(text, hit, found, new Bytes());
    }

    /**
     * Marks in {@code hit} every literal the text holds; returns how many were marked. {@code hit}
     * must be cleared by the caller (only the returned entries of {@code found} are set).
     */
    int find(CharSequence text, boolean[] hit, int[] found, Bytes buffer) {
        int count = 0;
        int window = 0;
        final long[] f = filter;
        final int len = text.length();
        final byte[] b = buffer.of(text, len);
        for (int i = 0; i < len; i++) {
            window = window << 8 | b[i] & 0xFF;
            if (i < GRAM - 1) {
                continue;
            }
            int bit = (window * 0x9E3779B1) >>> 16;
            if ((f[bit >>> 6] & 1L << bit) == 0) {
                continue;
            }
            int slot = bit & mask;
            int[][] candidates = null;
            while (used[slot]) {
                if (keys[slot] == window) {
                    candidates = values[slot];
                    break;
                }
                slot = (slot + 1) & mask;
            }
            if (candidates == null) {
                continue;
            }
            int gramStart = i - GRAM + 1;
            for (int[] c : candidates) {
                int l = c[0];
                int start = gramStart - c[1];
                if (!hit[l] && start >= 0 && regionMatches(text, start, literals[l])) {
                    hit[l] = true;
                    found[count++] = l;
                }
            }
        }
        if (slow.length > 0) {
            String s = text.toString();
            for (int l : slow) {
                if (!hit[l] && s.contains(literals[l])) {
                    hit[l] = true;
                    found[count++] = l;
                }
            }
        }
        return count;
    }

    private static boolean regionMatches(CharSequence text, int start, String lit) {
        if (start + lit.length() > text.length()) {
            return false;
        }
        if (text instanceof String s) {
            return s.startsWith(lit, start);
        }
        for (int k = 0; k < lit.length(); k++) {
            if (text.charAt(start + k) != lit.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    int size() {
        return literals.length;
    }
}
