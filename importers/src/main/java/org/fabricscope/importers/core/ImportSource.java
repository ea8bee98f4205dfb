package org.fabricscope.importers.core;

import java.io.IOException;
import java.io.InputStream;

/**
 * One file to read: a file on disk or an entry of an archive. {@code name} is what diagnostics
 * show (a path, or {@code bundle.tar.gz!/dir/file}).
 */
public record ImportSource(String name, long size, Opener opener, boolean named) {
    /** A file inside a folder or archive: one that is not a dump is skipped quietly. */
    public ImportSource(String name, long size, Opener opener) {
        this(name, size, opener, false);
    }

    /** Opens the content anew each time; the caller closes the stream. */
    @FunctionalInterface
    public interface Opener {
        InputStream open() throws IOException;
    }

    public InputStream open() throws IOException {
        return opener.open();
    }
}
