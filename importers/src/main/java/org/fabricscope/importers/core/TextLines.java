package org.fabricscope.importers.core;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads a stream line by line with line numbers. Bytes are decoded as UTF-8 per line (bad bytes
 * become U+FFFD); CR before LF is dropped; a line longer than {@link #MAX_LINE} bytes is cut and
 * flagged so the importer can report it instead of running out of memory. Counts NUL bytes so a
 * binary file can be told from text.
 */
public final class TextLines implements AutoCloseable {
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
    private boolean eof;

    public TextLines(InputStream in) {
        this.in = in;
    }

    /** The next line without its terminator, or null at the end of input. */
    public String next() throws IOException {
        if (eof && pos >= len) {
            return null;
        }
        int n = 0;
        truncated = false;
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
            }
            any = true;
            byte b = buf[pos++];
            if (b == '\n') {
                break;
            }
            if (b == 0) {
                nulBytes++;
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
        if (n > 0 && line[n - 1] == '\r') {
            n--;
        }
        return new String(line, 0, n, StandardCharsets.UTF_8);
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
