package org.fabricscope.model.core;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The texts of many cited lines kept as bytes in a few large arrays, not as a {@code String} and its
 * array each. A log of thousands of ranks cites hundreds of thousands of lines (one per channel link,
 * ring and tree record); kept as strings they were two objects a line beside the evidence itself, and
 * the collector copied every one of them, young and old (BENCHMARKS.md, issue 27). Here a line is a
 * length, a flag and its bytes in a chunk (the first {@link #FIRST} bytes, each next one twice as large up to
 * {@link #CHUNK}, so that a file that cites a few lines does not pay for a megabyte), and is decoded again
 * when asked for.
 * <p>
 * A text whose characters are all Latin-1 is kept one byte a character (as {@code String} itself keeps
 * it); any other in UTF-8, which gives back the same text as long as it holds no lone surrogate (one
 * that does is not kept: {@link #add} says so). Filled by one thread; read by any once that thread has
 * handed over what it made (an import's result), never while being filled.
 */
public final class LineStore {
    /** Bytes the largest chunk holds; a text longer than that is not kept here. */
    static final int CHUNK = 1 << 20;
    /** Bytes of the first chunk. */
    static final int FIRST = 4096;
    /** Chunks at most: a handle is an int ({@code chunk * CHUNK + offset}), so nearly 2 GB in all. */
    private static final int MAX_CHUNKS = Integer.MAX_VALUE / CHUNK;
    /** Three bytes before each text: the flag (UTF-8 or Latin-1) in the top bit, the length in the rest. */
    private static final int HEADER = 3;
    private static final int UTF8 = 1 << 23;
    private final List<byte[]> chunks = new ArrayList<>();
    private byte[] current;
    private int used;

    /**
     * Keeps {@code text}; returns its handle for {@link #text}, or -1 when it is not kept (too long, a
     * lone surrogate, or the store is full): the caller then keeps the text itself.
     */
    public int add(String text) {
        boolean latin1 = latin1(text);
        byte[] utf8 = null;
        int length = text.length();
        if (!latin1) {
            utf8 = text.getBytes(StandardCharsets.UTF_8);
            if (!new String(utf8, StandardCharsets.UTF_8).equals(text)) {
                return -1; // a lone surrogate became '?': the text would not come back the same
            }
            length = utf8.length;
        }
        int need = HEADER + length;
        if (need > CHUNK) {
            return -1;
        }
        if (current == null || used + need > current.length) {
            if (chunks.size() == MAX_CHUNKS) {
                return -1;
            }
            int size = current == null ? FIRST : Math.min(CHUNK, current.length * 2);
            current = new byte[Math.max(size, need)];
            chunks.add(current);
            used = 0;
        }
        int at = used;
        int head = (latin1 ? 0 : UTF8) | length;
        current[at] = (byte) (head >>> 16);
        current[at + 1] = (byte) (head >>> 8);
        current[at + 2] = (byte) head;
        if (latin1) {
            copyLatin1(text, current, at + HEADER);
        } else {
            System.arraycopy(utf8, 0, current, at + HEADER, length);
        }
        used += need;
        return (chunks.size() - 1) * CHUNK + at;
    }

    /** Each character as its one byte, straight into the chunk (no array of its own on the way). */
    @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): exactly this copy, for Latin-1 text
    private static void copyLatin1(String text, byte[] into, int at) {
        text.getBytes(0, text.length(), into, at);
    }

    private static boolean latin1(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            if (s.charAt(i) > 0xFF) {
                return false;
            }
        }
        return true;
    }

    /** The text kept under {@code handle} (as {@link #add} returned it). */
    public String text(int handle) {
        byte[] chunk = chunks.get(handle / CHUNK);
        int at = handle % CHUNK;
        int head = (chunk[at] & 0xFF) << 16 | (chunk[at + 1] & 0xFF) << 8 | chunk[at + 2] & 0xFF;
        int length = head & (UTF8 - 1);
        return new String(chunk, at + HEADER, length,
                (head & UTF8) != 0 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
    }

    /** Bytes held, the unused end of the last chunk included. */
    public long bytes() {
        long n = 0;
        for (byte[] c : chunks) {
            n += c.length;
        }
        return n;
    }
}
