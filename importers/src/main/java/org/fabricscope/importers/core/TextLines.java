package org.fabricscope.importers.core;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads a stream line by line with line numbers. Bytes are decoded as UTF-8 per line (bad bytes
 * become U+FFFD); a line ends at LF, CRLF or a lone CR (old Mac and some Windows tools end lines
 * with CR alone), so each of the three counts as one line end; a UTF-8 byte order mark at the very
 * start is dropped (it is no part of the first line); a line longer than {@link #MAX_LINE} bytes is
 * cut and flagged so the importer can report it instead of running out of memory. Counts NUL bytes
 * so a binary file can be told from text, and flags the lines that hold one ({@link #hasNul()}).
 */
public final class TextLines implements AutoCloseable {
    /** Longest line kept, in bytes. Real tool output lines are under 1 KB. */
    public static final int MAX_LINE = 64 * 1024;

    private static final java.lang.invoke.VarHandle LONGS = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
            long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private final InputStream in;
    private final byte[] buf = new byte[64 * 1024];
    private int pos;
    private int len;
    private byte[] line = new byte[256];
    /** Bytes of the line being read. */
    private int n;
    private int lineNumber;
    private boolean truncated;
    private long bytesRead;
    private long nulBytes;
    private boolean lineHasNul;
    /** Whether the line last returned is known to be all ASCII. */
    private boolean ascii;
    private boolean eof;
    /** Where the line last returned lies in {@link #buf} when it was read whole from there; {@code lineEnd} -1: not. */
    private int lineStart;
    private int lineEnd = -1;
    /** The last line ended in CR: an LF right after it belongs to that line end. */
    private boolean afterCr;
    private boolean started;

    public TextLines(InputStream in) {
        this.in = in;
    }

    /** The next line without its terminator, or null at the end of input. */
    public String next() throws IOException {
        lineEnd = -1; // until a line is read whole: none to compare (at the end, or when the read fails)
        if (eof && pos >= len) {
            return null;
        }
        n = 0;
        truncated = false;
        lineHasNul = false;
        boolean any = false;
        while (true) {
            if (pos >= len) {
                len = in.read(buf, 0, buf.length);
                pos = 0;
                if (len <= 0) {
                    len = 0;
                    eof = true;
                    if (!any) {
                        return null;
                    }
                    break;
                }
                bytesRead += len;
                if (!started) {
                    started = true;
                    skipBom();
                    if (pos >= len) {
                        continue;
                    }
                }
            }
            if (afterCr) {
                afterCr = false;
                if (buf[pos] == '\n') {
                    pos++;
                    continue; // the LF of a CRLF whose CR ended the line before
                }
            }
            // the run up to the next LF, CR or NUL, copied at once (a byte at a time was a tenth of
            // reading ten times Selene with the C1 compiler)
            int end = pos;
            byte[] b = buf;
            int stop = len;
            long high = 0; // the bytes of the run or'ed: bit 7 of each byte is set only past ASCII
            // eight bytes at a time while none is below 14 (LF, CR and NUL are; so are TAB and a few
            // other controls, after which the bytes are looked at one by one)
            boolean found = false;
            while (end + 8 <= stop) {
                long x = (long) LONGS.get(b, end);
                long low = (x - 0x0E0E0E0E0E0E0E0EL) & ~x & 0x8080808080808080L;
                if (low == 0) {
                    high |= x;
                    end += 8;
                    continue;
                }
                // the lowest flagged byte is one below 14 (those above it may be flagged by the borrow): go there
                int k = Long.numberOfTrailingZeros(low) >>> 3;
                high |= x & ~(-1L << (k << 3)); // the bytes before it (none when k is 0)
                end += k;
                byte c = b[end];
                if (c == '\n' || c == '\r' || c == 0) {
                    found = true;
                    break;
                }
                end++; // TAB or another control: part of the line
            }
            while (!found && end < stop) {
                byte c = b[end];
                if (c == '\n' || c == '\r' || c == 0) {
                    break;
                }
                high |= c;
                end++;
            }
            if (!any && end < stop && b[end] != 0 && end - pos <= MAX_LINE) {
                // the whole line is in the buffer (the usual case): decoded from there, not copied first
                String whole = new String(b, pos, end - pos, StandardCharsets.UTF_8);
                ascii = (high & 0x8080808080808080L) == 0;
                lineStart = pos;
                lineEnd = end;
                afterCr = b[end] == '\r';
                pos = end + 1;
                lineNumber++;
                return whole;
            }
            if (end > pos) {
                any = true;
                keep(pos, end - pos);
                pos = end;
            }
            if (pos >= len) {
                continue;
            }
            byte c = buf[pos++];
            any = true;
            if (c == '\n') {
                break;
            }
            if (c == '\r') {
                afterCr = true;
                break;
            }
            nulBytes++;
            lineHasNul = true;
            keep(pos - 1, 1);
        }
        lineNumber++;
        ascii = false; // a line read in pieces is not looked at for this
        return new String(line, 0, n, StandardCharsets.UTF_8);
    }

    /** Appends {@code k} bytes of the buffer from {@code from} to the line, up to {@link #MAX_LINE} (past it: cut). */
    private void keep(int from, int k) {
        int room = MAX_LINE - n;
        if (k > room) {
            truncated = true;
            k = room;
        }
        if (k <= 0) {
            return;
        }
        if (n + k > line.length) {
            int size = line.length;
            while (size < n + k) {
                size = Math.min(MAX_LINE, size * 2);
            }
            line = java.util.Arrays.copyOf(line, size);
        }
        System.arraycopy(buf, from, line, n, k);
        n += k;
    }

    /** Drops EF BB BF at the start of the stream (read as one chunk of at least 3 bytes, or not at all). */
    private void skipBom() throws IOException {
        while (len < 3) {
            int more = in.read(buf, len, buf.length - len);
            if (more <= 0) {
                break;
            }
            len += more;
            bytesRead += more;
        }
        if (len >= 3 && (buf[0] & 0xff) == 0xEF && (buf[1] & 0xff) == 0xBB && (buf[2] & 0xff) == 0xBF) {
            pos = 3;
        }
    }

    /** Whether the line last returned holds a NUL byte: binary data, which no tool prints in a text line. */
    public boolean hasNul() {
        return lineHasNul;
    }

    /**
     * Whether the line last returned is known to hold only ASCII characters (each its own byte): true for such a
     * line read whole from the buffer, as nearly every line is; false when it holds another character, or was read
     * in pieces (longer than the buffer's rest, cut, or holding NUL), where it is not looked at.
     */
    public boolean ascii() {
        return ascii;
    }

    /**
     * Whether the line last returned begins with the bytes {@code p[0..n)}: looked at in the buffer it was read
     * from (the JVM's vectorised compare), without copying the line's characters out first. False for a line read
     * in pieces (longer than the buffer's rest, cut, or holding NUL), which the caller then compares as characters,
     * and after the end of the input.
     */
    public boolean startsWith(byte[] p, int n) {
        int s = lineStart;
        if (lineEnd - s < n || n > p.length) {
            return false;
        }
        return java.util.Arrays.equals(buf, s, s + n, p, 0, n);
    }

    /** Whether the line last returned was read whole from the buffer (so {@link #startsWith} can look at it). */
    public boolean whole() {
        return lineEnd >= 0;
    }

    /** 1-based number of the line last returned. */
    public int lineNumber() {
        return lineNumber;
    }

    /** Whether the line last returned was longer than {@link #MAX_LINE} and was cut. */
    public boolean truncated() {
        return truncated;
    }

    public long bytesRead() {
        return bytesRead;
    }

    public long nulBytes() {
        return nulBytes;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
