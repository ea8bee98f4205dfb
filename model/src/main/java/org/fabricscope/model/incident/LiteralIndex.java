package org.fabricscope.model.incident;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds which of many literals occur in a text, in one pass over it that stays in the first-level
 * cache. Each literal of four characters or more is anchored on two of its trigrams that follow each other
 * (the pair with the fewest spaces and lower-case letters, not one most log lines hold: the rarest in logs),
 * so that wherever the literal lies in a text, one of the two starts at an even position: only the trigrams
 * at even positions are read, half the windows of a read at every position. Each is tested against a
 * 64-kilobit filter of the anchors (Bloom, "Space/time trade-offs in hash coding with allowable errors",
 * CACM 13(7), 1970, with one hash), and only where the filter says yes are the literals of that anchor
 * compared in place. Shorter literals, and those with characters outside Latin-1, are looked for with
 * {@link String#indexOf}. Exact: a literal is reported if and only if the text holds it. (An Aho-Corasick
 * automaton over the catalogue's 10,000 states made every character a miss in a 7 MB table: twice the cost
 * of parsing the line.) Immutable; safe to share between threads.
 * <p>
 * The windows are read from the text's characters copied as bytes into a buffer the caller keeps
 * ({@link Bytes}), not by {@code charAt}: the signature scan is the busier of the two threads that read
 * a log, and this took its time a line on a 7,700-rank NCCL log from 228 to 165 ns (medians of four JVMs;
 * BENCHMARKS.md, issue 27). The windows inside the beginning a text shares with the one before are not read
 * again: that text's anchors there are carried over ({@link Bytes}). The whole scan of a line on the same log
 * went from 138-214 ns (the old loop ran at one of two speeds from one JVM to the next) to 112-113 ns. Reading
 * every other window (one anchor a literal became two) took the filter over that log's 2.87 million lines from
 * 657 to 411 ms (BENCHMARKS.md, issue 27, tenth session).
 */
final class LiteralIndex {
    /** Characters in a window. */
    private static final int GRAM = 3;
    /** Windows are read at every STRIDE-th position; a literal is anchored on STRIDE windows that follow each other. */
    private static final int STRIDE = 2;
    /** The shortest literal indexed: one that holds STRIDE windows. */
    private static final int SHORTEST = GRAM + STRIDE - 1;
    private static final int FILTER_BITS = 1 << 16;
    /** Reads four bytes at once (the window is its low three). */
    private static final java.lang.invoke.VarHandle INTS = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
            int[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private final long[] filter = new long[FILTER_BITS / 64];
    /** Open addressing: the anchors (three characters packed into an int) and, at the same slot, their literals and offsets. */
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
            int first = lit.length() < SHORTEST || !lit.chars().allMatch(c -> c < 256) ? -1 : anchor(lit);
            if (first < 0) {
                slowList.add(i);
                continue;
            }
            for (int at = first; at < first + STRIDE; at++) {
                int key = pack(lit, at);
                anchors.computeIfAbsent(key, k -> new ArrayList<>()).add(new int[] {i, at});
                int bit = bit(key);
                filter[bit >>> 6] |= 1L << bit;
            }
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

    /**
     * The trigrams most log lines hold, the most common highest: those of the 4-grams most log lines hold
     * ({@code common-4grams.txt}, most common first), each trigram ranked as the commonest 4-gram it begins or ends.
     */
    private static final Map<String, Integer> COMMON = common();

    private static Map<String, Integer> common() {
        Map<String, Integer> m = new HashMap<>();
        try (java.io.InputStream in = LiteralIndex.class.getResourceAsStream("common-4grams.txt")) {
            if (in == null) {
                return m;
            }
            List<String> lines = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines()
                    .filter(l -> l.length() == 6 && l.startsWith("|") && l.endsWith("|")).toList();
            for (int i = 0; i < lines.size(); i++) {
                int rank = lines.size() - i;
                m.putIfAbsent(lines.get(i).substring(1, 1 + GRAM), rank);
                m.putIfAbsent(lines.get(i).substring(2, 2 + GRAM), rank);
            }
        } catch (java.io.IOException e) {
            // without the table, anchors are chosen by their characters alone
        }
        return m;
    }

    /**
     * The offset of the first of the literal's rarest {@link #STRIDE} trigrams that follow each other: not ones
     * most log lines hold ({@link #COMMON}), then the fewest spaces and lower-case letters, the first among equals.
     */
    private static int anchor(String lit) {
        int best = 0;
        long bestScore = Long.MAX_VALUE;
        for (int k = 0; k + SHORTEST <= lit.length(); k++) {
            long score = 0;
            for (int j = k; j < k + STRIDE; j++) {
                score += score(lit, j);
            }
            if (score < bestScore) {
                bestScore = score;
                best = k;
            }
        }
        return best;
    }

    private static long score(String lit, int k) {
        long score = COMMON.getOrDefault(lit.substring(k, k + GRAM), 0) * 16L;
        for (int j = k; j < k + GRAM; j++) {
            char c = lit.charAt(j);
            score += c == ' ' ? 3 : Character.isLowerCase(c) ? 1 : 0;
        }
        return score;
    }

    /** The trigram at {@code at}, packed as {@link #find} reads one: the first character in the low byte. */
    private static int pack(String s, int at) {
        return (s.charAt(at) & 0xFF) | (s.charAt(at + 1) & 0xFF) << 8 | (s.charAt(at + 2) & 0xFF) << 16;
    }

    private static int bit(int key) {
        return (key * 0x9E3779B1) >>> 16;
    }

    /**
     * What {@link #find} keeps from one text to the next; one per thread (a {@link SignatureCatalogue.Matcher}
     * keeps one): the text's low bytes, and those of the text before with the starts of its windows that are
     * anchors. Consecutive log lines mostly begin alike (the same host, pid and level: 38 of 93 bytes on a
     * 7,700-rank NCCL log), and a window wholly inside the shared beginning is the same window as before, so
     * only its anchors are looked at again, not every window.
     */
    static final class Bytes {
        private byte[] b = new byte[512];
        private byte[] before = new byte[512];
        private int beforeLength;
        /** The starts of the anchors the text before holds, ascending; {@code hits[0..hitCount)}. */
        private int[] hits = new int[16];
        private int hitCount;
        private int[] nextHits = new int[16];
        private int nextCount;
        /** The index the text before was looked at with: another one's anchors are not these. */
        private LiteralIndex owner;

        /**
         * Makes room for a text of {@code len} characters and a byte past it, read with the last window (and
         * forgets what a call that threw left half made).
         */
        private void fit(int len) {
            nextCount = 0;
            if (b.length <= len) {
                b = new byte[len + 256];
            }
        }

        /** How many leading bytes the text now in {@link #b} shares with the one before (0 when it was another index's). */
        private int shared(LiteralIndex index, int len) {
            if (owner != index) {
                owner = index;
                hitCount = 0;
                return 0;
            }
            int m = Arrays.mismatch(b, 0, len, before, 0, beforeLength);
            return m < 0 ? len : m;
        }

        private void record(int start) {
            if (nextCount == nextHits.length) {
                nextHits = Arrays.copyOf(nextHits, nextCount * 2);
            }
            nextHits[nextCount++] = start;
        }

        /** This text becomes the one before the next. */
        private void done(int len) {
            byte[] t = before;
            before = b;
            beforeLength = len;
            b = t;
            int[] h = hits;
            hits = nextHits;
            hitCount = nextCount;
            nextHits = h;
            nextCount = 0;
        }
    }

    /**
     * The low byte of each of the text's characters: a character past Latin-1 may then look like an ASCII
     * one to the filter, never to the comparison in place, so the result stays exact.
     */
    @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): exactly this copy, without allocating
    private static void copy(CharSequence text, byte[] into, int len) {
        if (text instanceof String s) {
            s.getBytes(0, len, into, 0);
        } else {
            for (int i = 0; i < len; i++) {
                into[i] = (byte) text.charAt(i);
            }
        }
    }

    /**
     * Marks in {@code hit} every literal the text holds; returns how many were marked. {@code hit}
     * must be cleared by the caller (only the returned entries of {@code found} are set).
     */
    int find(CharSequence text, boolean[] hit, int[] found, Bytes buffer) {
        int count = 0;
        final long[] f = filter;
        final int len = text.length();
        buffer.fit(len);
        byte[] b = buffer.b;
        copy(text, b, len);
        // the windows that start before 'from' lie inside the beginning this text shares with the one before:
        // of those, only the anchors that text held are looked up again (in this text, so the comparison in
        // place is this text's); the rest are read window by window. Windows start at even positions only,
        // in both texts: 'from' is the first even one past the shared windows.
        int from = Math.max(0, buffer.shared(this, len) - GRAM + 1);
        from += from & 1;
        int[] before = buffer.hits;
        for (int k = 0, n = buffer.hitCount; k < n && before[k] < from; k++) {
            int start = before[k];
            int gram = (int) INTS.get(b, start) & 0xFFFFFF;
            count = lookUp(gram, bit(gram), start, text, hit, found, count, buffer);
        }
        // the hot loop only reads a window and asks the filter; what the filter lets through is looked
        // up out of line (one loop body the compiler keeps small and fast: with the look-up inside, the
        // same code ran at 115 or at 195 ns a line from one JVM to the next)
        for (int i = from, last = len - GRAM; i <= last; i += STRIDE) {
            int window = (int) INTS.get(b, i) & 0xFFFFFF; // the byte past the window is masked off
            int bit = (window * 0x9E3779B1) >>> 16;
            if ((f[bit >>> 6] & 1L << bit) != 0) {
                count = lookUp(window, bit, i, text, hit, found, count, buffer);
            }
        }
        buffer.done(len);
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

    /**
     * Marks the literals anchored on {@code gram} (which starts at {@code gramStart}) that the text holds there;
     * an anchor's start is kept in {@code buffer} for the next text.
     */
    private int lookUp(int gram, int bit, int gramStart, CharSequence text, boolean[] hit, int[] found, int count,
                       Bytes buffer) {
        int slot = bit & mask;
        while (used[slot]) {
            if (keys[slot] == gram) {
                buffer.record(gramStart);
                for (int[] c : values[slot]) {
                    int l = c[0];
                    int start = gramStart - c[1];
                    if (!hit[l] && start >= 0 && regionMatches(text, start, literals[l])) {
                        hit[l] = true;
                        found[count++] = l;
                    }
                }
                return count;
            }
            slot = (slot + 1) & mask;
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
