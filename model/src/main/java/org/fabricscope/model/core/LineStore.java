package org.fabricscope.model.core;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The texts of many cited lines kept as bytes in a few large arrays, not as a {@code String} and its
 * array each. A log of thousands of ranks cites hundreds of thousands of lines (one per channel link,
 * ring and tree record); kept as strings they were two objects a line beside the evidence itself, and
 * the collector copied every one of them, young and old (BENCHMARKS.md, issue 27). Here a line is a
 * header and its bytes in a chunk (the first {@link #FIRST} bytes, each next one twice as large up to
 * {@link #CHUNK}, so that a file that cites a few lines does not pay for a megabyte), and is decoded again
 * when asked for (which an import and its analysis never do: only what is shown or written is).
 * <p>
 * Lines cited one after the other mostly begin alike (the same host, pid and level, the same kind of
 * message: 45 of 84 bytes on a 7,700-rank NCCL log), so each text keeps only what follows the beginning it
 * shares with the text before (front coding, as the restart points of a LevelDB block). A text is kept
 * whole at least every {@link #RESTART} texts, and also when it is a chunk's first or when the last whole text
 * is too far back to point to; a text is decoded from the whole one before it on.
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
    /** Every how many texts one is kept whole. */
    static final int RESTART = 16;
    /** Chunks at most: a handle is an int ({@code chunk * CHUNK + offset}), so nearly 2 GB in all. */
    private static final int MAX_CHUNKS = Integer.MAX_VALUE / CHUNK;
    /**
     * Six bytes before each text: the flag (UTF-8 or Latin-1) in the top bit and the length of the bytes kept in
     * the rest (three bytes); how many leading bytes it shares with the text before (one byte, at most 255); how
     * far back the whole text its decoding starts from is (two bytes; 0 for a whole text).
     */
    private static final int HEADER = 6;
    private static final int UTF8 = 1 << 23;
    private static final int MAX_SHARED = 255;
    private final List<byte[]> chunks = new ArrayList<>();
    private byte[] current;
    private int used;
    /** The bytes of the text added last, whole; where the whole text its decoding starts from is. */
    private byte[] last = new byte[256];
    private int lastLength = -1;
    private int restartAt;
    private int sinceRestart;
    /** The next text's bytes, whole (swapped with {@link #last} once it is kept). */
    private byte[] next = new byte[256];

    /**
     * Keeps {@code text}; returns its handle for {@link #text}, or -1 when it is not kept (too long, a
     * lone surrogate, or the store is full): the caller then keeps the text itself.
     */
    public int add(String text) {
        return add(text, false);
    }

    /**
     * As {@link #add(String)}; {@code ascii}: the caller knows that every character of {@code text} is ASCII (a
     * line its reader saw to be all ASCII bytes), so its characters are copied as bytes without the check that
     * costs a string and its array a text.
     */
    @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): each ASCII character is its low byte
    public int add(String text, boolean ascii) {
        int length = text.length();
        if (HEADER + length > CHUNK) {
            return -1; // too long in any coding: a character takes at least a byte
        }
        if (next.length < length) {
            next = new byte[length + 256];
        }
        boolean latin1;
        if (ascii) {
            assert text.chars().allMatch(c -> c < 0x80) : "said ASCII, but is not";
            text.getBytes(0, length, next, 0);
            latin1 = true;
        } else {
            latin1 = latin1(text, next);
        }
        if (!latin1) {
            byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
            if (!new String(utf8, StandardCharsets.UTF_8).equals(text)) {
                return -1; // a lone surrogate became '?': the text would not come back the same
            }
            next = utf8.length <= next.length ? next : new byte[utf8.length + 256];
            System.arraycopy(utf8, 0, next, 0, utf8.length);
            length = utf8.length;
        }
        if (HEADER + length > CHUNK) {
            return -1;
        }
        // bytes shared with the text before, whatever either's coding (decoding rebuilds the bytes, then reads them
        // in the coding of the text asked for), unless this one is to be whole: every RESTART-th is, and so is one
        // whose whole text before is too far back for two bytes to say
        boolean whole = current == null || lastLength < 0 || sinceRestart >= RESTART - 1 || used - restartAt > 0xFFFF;
        int shared = 0;
        if (!whole) {
            int m = Arrays.mismatch(next, 0, length, last, 0, lastLength);
            shared = Math.min(MAX_SHARED, m < 0 ? length : m);
        }
        if (current == null || used + HEADER + length - shared > current.length) {
            if (chunks.size() == MAX_CHUNKS) {
                return -1;
            }
            int size = current == null ? FIRST : Math.min(CHUNK, current.length * 2);
            current = new byte[Math.max(size, HEADER + length)];
            chunks.add(current);
            used = 0;
            whole = true; // a chunk's first text is whole: decoding never crosses chunks
            shared = 0;
        }
        if (whole) {
            restartAt = used;
            sinceRestart = 0;
        } else {
            sinceRestart++;
        }
        int at = used;
        int kept = length - shared;
        int head = (latin1 ? 0 : UTF8) | kept;
        int back = at - restartAt;
        current[at] = (byte) (head >>> 16);
        current[at + 1] = (byte) (head >>> 8);
        current[at + 2] = (byte) head;
        current[at + 3] = (byte) shared;
        current[at + 4] = (byte) (back >>> 8);
        current[at + 5] = (byte) back;
        System.arraycopy(next, shared, current, at + HEADER, kept);
        used += HEADER + kept;
        byte[] t = last;
        last = next;
        next = t;
        lastLength = length;
        return (chunks.size() - 1) * CHUNK + at;
    }

    /**
     * Whether every character of {@code text} fits a byte; when so, {@code into} holds them, one byte each. The
     * characters are copied as their low bytes (an array copy for a string the JVM holds as Latin-1), and the
     * text is one those bytes give back exactly. A loop of {@code charAt} did the same a character at a time: with
     * the C1 compiler the launcher runs small inputs under, 12 % of the thread that reads ibnetdiscover lines ahead.
     */
    @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): exactly this copy, for Latin-1 text
    private static boolean latin1(String text, byte[] into) {
        int n = text.length();
        text.getBytes(0, n, into, 0);
        return text.equals(new String(into, 0, n, StandardCharsets.ISO_8859_1));
    }

    /** The text kept under {@code handle} (as {@link #add} returned it), decoded from the whole text before it on. */
    public String text(int handle) {
        byte[] chunk = chunks.get(handle / CHUNK);
        int at = handle % CHUNK;
        int e = at - ((chunk[at + 4] & 0xFF) << 8 | chunk[at + 5] & 0xFF);
        byte[] buf = new byte[64];
        int length = 0;
        int head;
        while (true) {
            head = (chunk[e] & 0xFF) << 16 | (chunk[e + 1] & 0xFF) << 8 | chunk[e + 2] & 0xFF;
            int kept = head & (UTF8 - 1);
            int shared = chunk[e + 3] & 0xFF;
            if (buf.length < shared + kept) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, shared + kept));
            }
            System.arraycopy(chunk, e + HEADER, buf, shared, kept);
            length = shared + kept;
            if (e == at) {
                break;
            }
            e += HEADER + kept;
        }
        return new String(buf, 0, length, (head & UTF8) != 0 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
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
