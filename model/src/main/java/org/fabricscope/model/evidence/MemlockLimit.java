package org.fabricscope.model.evidence;

import org.fabricscope.model.core.Evidence;

/** The locked-memory limit ({@code ulimit -l}, or {@code max locked memory} in {@code ulimit -a}): kbytes, or unlimited. */
public record MemlockLimit(boolean unlimited, long kbytes, Evidence evidence) {
    /** {@code unlimited} or {@code 64 kB}. */
    public String text() {
        return unlimited ? "unlimited" : kbytes + " kB";
    }
}
