package org.fabricscope.importers;

/** Told how far an import has come: bytes read of all bytes, and what it is reading now. */
@FunctionalInterface
public interface ImportProgress {
    ImportProgress NONE = (done, total, what) -> { };

    void update(long bytesDone, long bytesTotal, String what);
}
