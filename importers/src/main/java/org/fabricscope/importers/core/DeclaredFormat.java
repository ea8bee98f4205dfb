package org.fabricscope.importers.core;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A file that says what it is: a first line {@code #fabricscope-format: <id>} makes the reader of that
 * format read it, whatever the other readers would claim. The Troubleshoot panel writes output pasted
 * for a manual step so, so that the output of {@code ulimit -l} is read as that and nothing else (a GID
 * index pasted for another step must never become a locked-memory limit). The reader sees the
 * declaration as a blank line: the other lines keep their numbers.
 */
public final class DeclaredFormat {
    private static final String PREFIX = "#fabricscope-format:";
    private static final Pattern LINE = Pattern.compile("#fabricscope-format:\\s*([a-z0-9]+(?:-[a-z0-9]+)*)\\s*");
    /** The most a declaration line takes, so a head without one is told at once. */
    private static final int MAX_LINE = 80;

    private DeclaredFormat() {
    }

    /** The declaration line for a format id, with its line end. */
    public static String line(String formatId) {
        return PREFIX + " " + formatId + "\n";
    }

    /**
     * The format id the first line of these bytes declares, or null when it declares none; a line that
     * starts as a declaration but names no id returns the empty string.
     */
    public static String of(byte[] head, int length) {
        int start = length >= 3 && (head[0] & 0xff) == 0xEF && (head[1] & 0xff) == 0xBB && (head[2] & 0xff) == 0xBF ? 3 : 0;
        if (length - start < PREFIX.length() || head[start] != '#') {
            return null;
        }
        int end = start;
        while (end < length && end - start < MAX_LINE && head[end] != '\n' && head[end] != '\r') {
            end++;
        }
        String first = new String(head, start, end - start, StandardCharsets.UTF_8);
        if (!first.startsWith(PREFIX)) {
            return null;
        }
        Matcher m = LINE.matcher(first);
        return m.matches() ? m.group(1) : "";
    }

    /** The source read with its first line blanked: what the declared reader is given. */
    public static ImportSource blanked(ImportSource s) {
        return new ImportSource(s.name(), s.size(), () -> new FirstLineBlanked(s.open()), s.named());
    }

    /** A stream without the bytes of its first line, line end kept. */
    private static final class FirstLineBlanked extends FilterInputStream {
        private boolean skipped;
        /** The first line's end, returned before the rest; -1 once returned (or when there was none). */
        private int pending = -1;

        FirstLineBlanked(InputStream in) {
            super(in);
        }

        private void skipFirstLine() throws IOException {
            if (skipped) {
                return;
            }
            skipped = true;
            for (int b; (b = in.read()) >= 0; ) {
                if (b == '\n' || b == '\r') {
                    pending = b;
                    return;
                }
            }
        }

        @Override
        public int read() throws IOException {
            skipFirstLine();
            if (pending >= 0) {
                int b = pending;
                pending = -1;
                return b;
            }
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            skipFirstLine();
            if (len == 0) {
                return 0;
            }
            if (pending >= 0) {
                b[off] = (byte) pending;
                pending = -1;
                return 1;
            }
            return in.read(b, off, len);
        }

        @Override
        public long skip(long n) throws IOException {
            byte[] buf = new byte[(int) Math.min(8192, Math.max(1, n))];
            long done = 0;
            while (done < n) {
                int r = read(buf, 0, (int) Math.min(buf.length, n - done));
                if (r < 0) {
                    break;
                }
                done += r;
            }
            return done;
        }

        @Override
        public int available() throws IOException {
            return pending >= 0 ? 1 : skipped ? in.available() : 0;
        }

        @Override
        public boolean markSupported() {
            return false;
        }
    }
}
