package org.fabricscope.importers.bundle;

import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * A small streaming reader of the tar formats GNU tar, bsdtar and Python's tarfile write: POSIX
 * ustar and v7 headers (checksums summed unsigned or, as old tars did, signed), octal or base-256
 * sizes, GNU long names and long link names ({@code L}, {@code K} records, any length), pax
 * extended headers ({@code x}: {@code path}, {@code linkpath}, {@code size}; records parsed by
 * their length, so values may hold newlines) and pax global headers ({@code g}, skipped). Every
 * entry is returned with its type: regular files carry their data; links, folders and devices
 * are returned so the caller can skip them. Sparse files (GNU {@code S} entries, their extension
 * headers, and pax GNU.sparse entries) are returned {@link Entry#refused() refused}, with their
 * data skipped so the next entry is read in step.
 */
final class TarReader {
    /** Longest GNU long name or pax header read (GNU tar writes a few hundred bytes). */
    static final int MAX_EXTENDED_HEADER = 1 << 20;

    /**
     * One entry.
     *
     * @param refused why the entry cannot be read (a sparse file), or null
     */
    record Entry(String name, long size, char type, String refused) {
        boolean regularFile() {
            return refused == null && (type == '0' || type == '\0' || type == '7');
        }
    }

    private final InputStream in;
    private long remaining;
    private long padding;
    private String longName;
    private String paxPath;
    private long paxSize = -1;
    private boolean paxSparse;
    private String paxSparseName;

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

    /** The stored checksum against the header's bytes summed unsigned, or signed as some old tars summed them. */
    private static boolean checksumOk(byte[] h) {
        long stored = parseOctal(h, 148, 8);
        if (stored < 0) {
            return false;
        }
        long unsigned = 0;
        long signed = 0;
        for (int i = 0; i < 512; i++) {
            int b = (i >= 148 && i < 156) ? ' ' : h[i];
            unsigned += b & 0xff;
            signed += b;
        }
        return stored == unsigned || stored == signed;
    }

    /** The next entry, or null at the end of the archive. */
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
            switch (type) {
                case 'L', 'K', 'x', 'g' -> {
                    String text = extendedHeader(size);
                    if (type == 'L') {
                        longName = cString(text);
                    } else if (type == 'x') {
                        pax(text);
                    } // 'K' (a long link target) and 'g' (global defaults) name no file FabricScope reads
                    continue;
                }
                default -> {
                }
            }
            if (paxSize >= 0) {
                size = paxSize; // past 8 GiB the header's own field cannot hold the size
            }
            String name = paxPath != null ? paxPath : longName != null ? longName : headerName(h);
            String refused = null;
            if (type == 'S') {
                skipSparseExtensions(h);
                refused = "a sparse file (tar -S): its holes are not stored in the archive; not read";
            } else if (paxSparse) {
                if (paxSparseName != null) {
                    name = paxSparseName;
                }
                refused = "a sparse file (tar -S, pax format): its holes are not stored in the archive; not read";
            } else if (type == 'M' || type == 'V') {
                refused = type == 'M' ? "the continuation of a multi-volume archive; not read" : null;
            }
            longName = null;
            paxPath = null;
            paxSize = -1;
            paxSparse = false;
            paxSparseName = null;
            remaining = size;
            padding = (512 - (size % 512)) % 512;
            return new Entry(name, size, type, refused);
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

    /** Bytes of the current entry not yet read. */
    long remaining() {
        return remaining;
    }

    /** The data of a long-name or pax record, and the padding after it. */
    private String extendedHeader(long size) throws IOException {
        if (size > MAX_EXTENDED_HEADER) {
            throw new IOException("tar extended header of " + size + " bytes (more than " + (MAX_EXTENDED_HEADER >> 10)
                    + " KiB)");
        }
        byte[] data = in.readNBytes((int) size);
        if (data.length < size) {
            throw new EOFException("truncated tar entry");
        }
        skipBytes((512 - (size % 512)) % 512);
        return new String(data, StandardCharsets.UTF_8);
    }

    /** Pax records, {@code "<length> <key>=<value>\n"}, each read by its length. */
    private void pax(String text) throws IOException {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        int i = 0;
        while (i < b.length) {
            if (b[i] == 0) {
                break; // padding some writers leave
            }
            int sp = i;
            while (sp < b.length && b[sp] >= '0' && b[sp] <= '9') {
                sp++;
            }
            if (sp == i || sp >= b.length || b[sp] != ' ' || sp - i > 9) {
                throw new IOException("malformed pax extended header");
            }
            int len = Integer.parseInt(new String(b, i, sp - i, StandardCharsets.US_ASCII));
            if (len <= sp - i + 1 || i + len > b.length || b[i + len - 1] != '\n') {
                throw new IOException("malformed pax extended header");
            }
            String rec = new String(b, sp + 1, i + len - sp - 2, StandardCharsets.UTF_8);
            int eq = rec.indexOf('=');
            if (eq > 0) {
                String key = rec.substring(0, eq);
                String value = rec.substring(eq + 1);
                switch (key) {
                    case "path" -> paxPath = value;
                    case "size" -> {
                        try {
                            paxSize = Long.parseLong(value.strip());
                        } catch (NumberFormatException e) {
                            throw new IOException("malformed pax size " + value.strip());
                        }
                        if (paxSize < 0) {
                            throw new IOException("malformed pax size " + value.strip());
                        }
                    }
                    case "GNU.sparse.name" -> {
                        paxSparse = true;
                        paxSparseName = value;
                    }
                    default -> {
                        if (key.startsWith("GNU.sparse.")) {
                            paxSparse = true;
                        }
                    }
                }
            }
            i += len;
        }
    }

    /** A GNU sparse header may be followed by 512-byte blocks of more sparse map, each flagging the next. */
    private void skipSparseExtensions(byte[] header) throws IOException {
        boolean more = header[482] != 0;
        int blocks = 0;
        while (more) {
            byte[] ext = in.readNBytes(512);
            if (ext.length < 512) {
                throw new EOFException("truncated tar sparse header");
            }
            if (++blocks > 100_000) {
                throw new IOException("endless tar sparse header");
            }
            more = ext[504] != 0;
        }
    }

    private void skipRest() throws IOException {
        skipBytes(remaining + padding);
        remaining = 0;
        padding = 0;
    }

    private void skipBytes(long n) throws IOException {
        long toSkip = n;
        while (toSkip > 0) {
            long k = in.skip(toSkip);
            if (k <= 0) {
                if (in.read() < 0) {
                    throw new EOFException("truncated tar entry");
                }
                k = 1;
            }
            toSkip -= k;
        }
    }

    private static String headerName(byte[] h) {
        String name = cString(h, 0, 100);
        boolean ustar = h[257] == 'u' && h[258] == 's' && h[259] == 't' && h[260] == 'a' && h[261] == 'r';
        // GNU tar's own format ("ustar  \0") keeps other fields where ustar has its name prefix
        boolean gnu = ustar && h[262] == ' ' && h[263] == ' ';
        String prefix = ustar && !gnu ? cString(h, 345, 155) : "";
        return prefix.isEmpty() ? name : prefix + "/" + name;
    }

    private static String cString(String s) {
        int nul = s.indexOf('\0');
        return nul < 0 ? s : s.substring(0, nul);
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
            if ((h[124] & 0x40) != 0) {
                return -1; // base-256 negative
            }
            long v = 0;
            for (int i = 125; i < 136; i++) {
                if ((v >>> 55) != 0) {
                    return -1; // past 63 bits
                }
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
            if (b < '0' || b > '7' || (v >>> 60) != 0) {
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
