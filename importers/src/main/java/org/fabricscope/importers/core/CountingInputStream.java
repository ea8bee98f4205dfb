package org.fabricscope.importers.core;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Counts the bytes read (and skipped) through it: an xz stream's compressed bytes for a bundle's expansion
 * ratio, or a file's bytes against a reader's size limit while it is decoded. Does not close anything the
 * caller did not ask it to.
 */
public final class CountingInputStream extends FilterInputStream {
    private long count;

    public CountingInputStream(InputStream in) {
        super(in);
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            count++;
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
            count += n;
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long k = super.skip(n);
        count += Math.max(0, k);
        return k;
    }

    /** Bytes read or skipped so far. */
    public long count() {
        return count;
    }
}
