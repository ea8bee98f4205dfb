package org.fabricscope.importers.core;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.Supplier;

/**
 * Counts the bytes read (and skipped) through it: an xz stream's compressed bytes for a bundle's expansion
 * ratio, or a file's bytes against a reader's size limit while it is decoded; given a limit, it fails the read
 * that goes past it. Does not close anything the caller did not ask it to.
 */
public final class CountingInputStream extends FilterInputStream {
    private final long limit;
    private final Supplier<? extends IOException> tooLarge;
    private long count;

    public CountingInputStream(InputStream in) {
        this(in, Long.MAX_VALUE, null);
    }

    /** Fails with {@code tooLarge}'s exception once more than {@code limit} bytes have been read or skipped. */
    public CountingInputStream(InputStream in, long limit, Supplier<? extends IOException> tooLarge) {
        super(in);
        this.limit = limit;
        this.tooLarge = tooLarge;
    }

    private void add(long n) throws IOException {
        count += n;
        if (count > limit) {
            throw tooLarge.get();
        }
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            add(1);
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
            add(n);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long k = super.skip(n);
        add(Math.max(0, k));
        return k;
    }

    /** Bytes read or skipped so far. */
    public long count() {
        return count;
    }
}
