package org.fabricscope.importers.core;

import java.io.IOException;
import java.io.InputStream;

/**
 * Blocks of zero bytes in a text file: what a node that lost power leaves at the end of a log it was
 * writing (the file's size was updated, its last blocks never were). A run of at least {@link #MIN_RUN}
 * NUL bytes is such a block, not a stray NUL in a line; the import judges and detects a file by its head
 * without them, and reads it through {@link #dropping}, which leaves them out (they hold no line end, so
 * line numbers are unchanged) and counts them for one diagnostic. Shorter NUL runs are passed on, for the
 * readers to report the line they spoil.
 */
public final class ZeroRuns {
    /** NUL bytes in a row that make a zero-filled block. */
    public static final int MIN_RUN = 64;

    private ZeroRuns() {
    }

    /** Where the first run of at least {@link #MIN_RUN} NULs begins in {@code b[0, length)}; -1 when none. */
    public static int firstRun(byte[] b, int length) {
        int run = 0;
        for (int i = 0; i < length; i++) {
            if (b[i] == 0) {
                if (++run == MIN_RUN) {
                    return i - MIN_RUN + 1;
                }
            } else {
                run = 0;
            }
        }
        return -1;
    }

    /** {@code b[0, length)} without its runs of at least {@link #MIN_RUN} NULs (a run cut by the end counts when it is that long). */
    public static byte[] withoutRuns(byte[] b, int length) {
        byte[] out = new byte[length];
        int n = 0;
        int i = 0;
        while (i < length) {
            if (b[i] != 0) {
                out[n++] = b[i++];
                continue;
            }
            int j = i;
            while (j < length && b[j] == 0) {
                j++;
            }
            if (j - i < MIN_RUN) {
                n += j - i; // out is zeroed already
            }
            i = j;
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /** A source read without its zero blocks, and what the last stream opened on it left out. */
    public static final class Dropping {
        private final ImportSource source;
        private volatile Stream last;

        Dropping(ImportSource s) {
            this.source = new ImportSource(s.name(), s.size(), () -> {
                Stream st = new Stream(s.open());
                last = st;
                return st;
            }, s.named());
        }

        public ImportSource source() {
            return source;
        }

        /** The diagnostic for the zero blocks the last read left out; null when it left none. */
        public org.fabricscope.model.core.Diagnostic report() {
            Stream st = last;
            if (st == null || st.dropped == 0) {
                return null;
            }
            return org.fabricscope.model.core.Diagnostic.warning(source.name(), (int) Math.min(Integer.MAX_VALUE,
                    st.firstLine), st.dropped + " zero bytes" + (st.runs > 1 ? " in " + st.runs + " blocks" : "")
                    + " from byte " + st.firstOffset + " (line " + st.firstLine + ") on, as a node that lost power "
                    + "leaves in a file it was writing: left out (ZeroRuns.MIN_RUN = " + MIN_RUN + " NULs or more in a "
                    + "row); the text around them was read");
        }
    }

    /** Reads {@code s} without its zero blocks. */
    public static Dropping dropping(ImportSource s) {
        return new Dropping(s);
    }

    /** The filter: bytes pass unchanged but for runs of {@link #MIN_RUN} or more NULs, which are counted. */
    private static final class Stream extends InputStream {
        private final InputStream in;
        private final byte[] buf = new byte[64 * 1024];
        private int pos;
        private int lim;
        private boolean eof;
        /** NULs seen in a row and not yet passed on or dropped. */
        private long zeros;
        /** NULs of a short run still to pass on. */
        private long emit;
        private long offset;
        private long lines = 1;
        long dropped;
        long runs;
        long firstOffset = -1;
        long firstLine;

        Stream(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n <= 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            int out = 0;
            while (out < len) {
                if (emit > 0) {
                    int k = (int) Math.min(emit, len - out);
                    java.util.Arrays.fill(b, off + out, off + out + k, (byte) 0);
                    emit -= k;
                    out += k;
                    continue;
                }
                if (pos >= lim) {
                    if (out > 0) {
                        break; // what there is now; a run of NULs in progress waits for the next read
                    }
                    if (eof) {
                        if (zeros > 0) {
                            endRun();
                            continue;
                        }
                        break;
                    }
                    lim = in.read(buf, 0, buf.length);
                    pos = 0;
                    if (lim <= 0) {
                        lim = 0;
                        eof = true;
                    }
                    continue;
                }
                if (buf[pos] == 0) {
                    zeros++;
                    pos++;
                    continue;
                }
                if (zeros > 0) {
                    endRun();
                    continue;
                }
                int end = pos;
                int stop = Math.min(lim, pos + (len - out));
                while (end < stop && buf[end] != 0) {
                    if (buf[end] == '\n') {
                        lines++;
                    }
                    end++;
                }
                System.arraycopy(buf, pos, b, off + out, end - pos);
                out += end - pos;
                offset += end - pos;
                pos = end;
            }
            return out == 0 ? -1 : out;
        }

        /** The run of NULs just ended: passed on when short, dropped and counted when a block. */
        private void endRun() {
            if (zeros < MIN_RUN) {
                emit = zeros;
            } else {
                if (firstOffset < 0) {
                    firstOffset = offset;
                    firstLine = lines;
                }
                dropped += zeros;
                runs++;
            }
            offset += zeros;
            zeros = 0;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
