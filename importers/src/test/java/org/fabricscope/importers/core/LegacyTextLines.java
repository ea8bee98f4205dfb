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
final class LegacyTextLines implements AutoCloseable {
    /** Longest line kept, in bytes. Real tool output lines are under 1 KB. */
    public static final int MAX_LINE = 64 * 1024;

    private final InputStream in;
    private final byte[] buf = new byte[64 * 1024];
    private int pos;
    private int len;
    private byte[] line = new byte[256];
    private int lineNumber;
    private boolean truncated;
    private long bytesRead;
    private long nulBytes;
    private boolean lineHasNul;
    private boolean eof;
    /** The last line ended in CR: an LF right after it belongs to that line end. */
    private boolean afterCr;
    private boolean started;

    LegacyTextLines(InputStream in) {
        this.in = in;
    }

    /** The next line without its terminator, or null at the end of input. */
    public String next() throws IOException {
        if (eof && pos >= len) {
            return null;
        }
        int n = 0;
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
            byte b = buf[pos++];
            if (afterCr) {
                afterCr = false;
                if (b == '\n') {
                    continue; // the LF of a CRLF whose CR ended the line before
                }
            }
            any = true;
            if (b == '\n') {
                break;
            }
            if (b == '\r') {
                afterCr = true;
                break;
            }
            if (b == 0) {
                nulBytes++;
                lineHasNul = true;
            }
            if (n < MAX_LINE) {
                if (n == line.length) {
                    byte[] bigger = new byte[Math.min(MAX_LINE, line.length * 2)];
                    System.arraycopy(line, 0, bigger, 0, n);
                    line = bigger;
                }
                line[n++] = b;
            } else {
                truncated = true;
            }
        }
        lineNumber++;
        return new String(line, 0, n, StandardCharsets.UTF_8);
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
