package org.fabricscope.importers.bundle;

import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * A small streaming reader of POSIX ustar and GNU tar (the formats GNU tar and Python's tarfile
 * write): 512-byte headers, octal or base-256 sizes, GNU long names ({@code L}) and pax
 * {@code path} records. Only regular files are returned; links and devices are skipped.
 */
final class TarReader {
    record Entry(String name, long size, char type) {
        boolean regularFile() {
            return type == '0' || type == '\0' || type == '7';
        }
    }

    private final InputStream in;
    private long remaining;
    private long padding;
    private String longName;

    TarReader(InputStream in) {
        this.in = in;
    }

    static boolean looksLikeTar(byte[] h) {
        if (h.length < 512) {
            return false;
        }
        boolean ustar = h[257] == 'u' && h[258] == 's' && h[259] == 't' && h[260] == 'a' && h[261] == 'r';
        return ustar && checksumOk(h);
    }

    private static boolean checksumOk(byte[] h) {
        long stored = parseOctal(h, 148, 8);
        long sum = 0;
        for (int i = 0; i < 512; i++) {
            sum += (i >= 148 && i < 156) ? ' ' : (h[i] & 0xff);
        }
        return stored == sum;
    }

    Entry next() throws IOException {
        skipRest();
        while (true) {
            byte[] h = in.readNBytes(512);
            if (h.length == 0) {
                return null;
            }
            if (h.length < 512) {
                throw new EOFException("truncated tar header");
            }
            if (allZero(h)) {
                return null;
            }
            if (!checksumOk(h)) {
                throw new IOException("bad tar header checksum");
            }
            char type = (char) h[156];
            long size = parseSize(h);
            if (size < 0) {
                throw new IOException("bad tar entry size");
            }
            remaining = size;
            padding = (512 - (size % 512)) % 512;
            if (type == 'L' || type == 'x') {
                if (size > 1 << 20) {
                    throw new IOException("oversized tar extended header");
                }
                byte[] data = readContent((int) size);
                String text = new String(data, StandardCharsets.UTF_8);
                if (type == 'L') {
                    longName = text.replace("\0", "");
                } else {
                    longName = paxPath(text, longName);
                }
                continue;
            }
            String name = longName != null ? longName : headerName(h);
            longName = null;
            return new Entry(name, size, type);
        }
    }

    InputStream content() {
        return new FilterInputStream(in) {
            @Override
            public int read() throws IOException {
                if (remaining <= 0) {
                    return -1;
                }
                int b = in.read();
                if (b < 0) {
                    throw new EOFException("truncated tar entry");
                }
                remaining--;
                return b;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (remaining <= 0) {
                    return -1;
                }
                int n = in.read(b, off, (int) Math.min(len, remaining));
                if (n < 0) {
                    throw new EOFException("truncated tar entry");
                }
                remaining -= n;
                return n;
            }

            @Override
            public void close() {
                // the tar stream stays open for the next entry
            }
        };
    }

    private byte[] readContent(int size) throws IOException {
        byte[] data = in.readNBytes(size);
        if (data.length < size) {
            throw new EOFException("truncated tar entry");
        }
        remaining = 0;
        return data;
    }

    private void skipRest() throws IOException {
        long toSkip = remaining + padding;
        while (toSkip > 0) {
            long n = in.skip(toSkip);
            if (n <= 0) {
                if (in.read() < 0) {
                    throw new EOFException("truncated tar entry");
                }
                n = 1;
            }
            toSkip -= n;
        }
        remaining = 0;
        padding = 0;
    }

    private static String paxPath(String records, String fallback) {
        for (String rec : records.split("\n")) {
            int sp = rec.indexOf(' ');
            if (sp > 0 && rec.startsWith("path=", sp + 1)) {
                return rec.substring(sp + 6);
            }
        }
        return fallback;
    }

    private static String headerName(byte[] h) {
        String name = cString(h, 0, 100);
        String prefix = cString(h, 345, 155);
        return prefix.isEmpty() ? name : prefix + "/" + name;
    }

    private static String cString(byte[] h, int off, int len) {
        int end = off;
        while (end < off + len && h[end] != 0) {
            end++;
        }
        return new String(h, off, end - off, StandardCharsets.UTF_8);
    }

    private static long parseSize(byte[] h) {
        if ((h[124] & 0x80) != 0) {
            long v = 0;
            for (int i = 125; i < 136; i++) {
                v = (v << 8) | (h[i] & 0xff);
            }
            return v;
        }
        return parseOctal(h, 124, 12);
    }

    private static long parseOctal(byte[] h, int off, int len) {
        long v = 0;
        boolean any = false;
        for (int i = off; i < off + len; i++) {
            byte b = h[i];
            if (b == 0 || b == ' ') {
                if (any) {
                    break;
                }
                continue;
            }
            if (b < '0' || b > '7') {
                return -1;
            }
            v = v * 8 + (b - '0');
            any = true;
        }
        return v;
    }

    private static boolean allZero(byte[] h) {
        for (byte b : h) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }
}
