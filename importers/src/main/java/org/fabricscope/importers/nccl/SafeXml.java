package org.fabricscope.importers.nccl;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

import org.fabricscope.importers.core.CountingInputStream;

/**
 * The bytes of an untrusted XML file for the {@link org.fabricscope.importers.core.SecureStax} parser: a cap on the
 * bytes read, and UTF-8 checked. Depth, element and attribute limits are enforced by the reader loop.
 */
final class SafeXml {
    /** NCCL's dumps are a few KiB; a 1,000-GPU-host hand-written file stays far below this. */
    static final long MAX_BYTES = 16L * 1024 * 1024;

    private SafeXml() {
    }

    /**
     * The bytes of an XML file, at most {@link #MAX_BYTES}, checked to be UTF-8 on their way to the
     * parser: a byte sequence that is not valid UTF-8 ends the input with {@link BadBytes} naming its
     * line, before the JDK's parser could decode it and print {@code [Fatal Error] :-1:-1: ...} on
     * stderr. Files that start with a UTF-16 byte order mark, or declare another encoding, pass
     * unchecked (NCCL writes ASCII).
     */
    static Utf8Check checked(InputStream in) throws IOException {
        java.io.BufferedInputStream b = new java.io.BufferedInputStream(new CountingInputStream(in, MAX_BYTES, TooLarge::new), 8192);
        b.mark(256);
        byte[] head = b.readNBytes(256);
        b.reset();
        boolean utf16 = head.length >= 2 && ((head[0] & 0xff) == 0xFE && (head[1] & 0xff) == 0xFF
                || (head[0] & 0xff) == 0xFF && (head[1] & 0xff) == 0xFE);
        String decl = new String(head, java.nio.charset.StandardCharsets.ISO_8859_1);
        java.util.regex.Matcher enc = java.util.regex.Pattern.compile("^(?:\uFEFF|\u00EF\u00BB\u00BF)?<\\?xml[^>]*"
                + "encoding\\s*=\\s*[\"']([^\"']+)[\"']").matcher(decl);
        boolean other = enc.find() && !enc.group(1).equalsIgnoreCase("UTF-8") && !enc.group(1).equalsIgnoreCase("UTF8");
        return new Utf8Check(b, !utf16 && !other);
    }

    /** Thrown by {@link Utf8Check} at the first byte sequence that is not UTF-8. */
    static final class BadBytes extends IOException {
        private static final long serialVersionUID = 1L;
        final int line;

        BadBytes(int line) {
            super("bytes that are not valid UTF-8 (binary data, or text in another encoding)");
            this.line = line;
        }
    }

    /** Passes bytes through unchanged, counting lines and failing at the first invalid UTF-8 sequence. */
    static final class Utf8Check extends FilterInputStream {
        private final boolean check;
        private int line = 1;
        /** Continuation bytes still expected, and the range the next one must be in. */
        private int need;
        private int low = 0x80;
        private int high = 0xBF;
        private BadBytes failure;

        Utf8Check(InputStream in, boolean check) {
            super(in);
            this.check = check;
        }

        /** The failure, or null while the bytes are valid. */
        BadBytes failure() {
            return failure;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n <= 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            if (failure != null) {
                throw failure;
            }
            int n = super.read(buf, off, len);
            if (!check) {
                return n;
            }
            if (n < 0) {
                if (need > 0) {
                    throw fail(); // the file ends inside a character
                }
                return n;
            }
            for (int i = off; i < off + n; i++) {
                int b = buf[i] & 0xff;
                if (need > 0) {
                    if (b < low || b > high) {
                        if (i > off) {
                            failure = new BadBytes(line);
                            return i - off; // the bytes before it first; the next read fails
                        }
                        throw fail();
                    }
                    need--;
                    low = 0x80;
                    high = 0xBF;
                    continue;
                }
                if (b == '\n') {
                    line++;
                } else if (b >= 0x80) {
                    if (b >= 0xC2 && b <= 0xDF) {
                        need = 1;
                    } else if (b >= 0xE0 && b <= 0xEF) {
                        need = 2;
                        low = b == 0xE0 ? 0xA0 : 0x80;
                        high = b == 0xED ? 0x9F : 0xBF;
                    } else if (b >= 0xF0 && b <= 0xF4) {
                        need = 3;
                        low = b == 0xF0 ? 0x90 : 0x80;
                        high = b == 0xF4 ? 0x8F : 0xBF;
                    } else {
                        if (i > off) {
                            failure = new BadBytes(line);
                            return i - off;
                        }
                        throw fail();
                    }
                }
            }
            return n;
        }

        private BadBytes fail() {
            failure = new BadBytes(line);
            return failure;
        }

        @Override
        public long skip(long n) throws IOException {
            return check ? read(new byte[(int) Math.min(n, 8192)], 0, (int) Math.min(n, 8192)) : super.skip(n);
        }
    }

    /** Thrown while a file is read, once it is larger than {@link #MAX_BYTES}. */
    static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        TooLarge() {
            super("file is larger than " + (MAX_BYTES >> 20) + " MiB");
        }
    }
}
