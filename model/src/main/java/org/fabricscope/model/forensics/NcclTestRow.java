package org.fabricscope.model.forensics;

import org.fabricscope.model.core.Evidence;

/**
 * One size of an nccl-tests run: bytes, element count, type, reduction op and root, and the
 * out-of-place and in-place results. {@code wrong} is the {@code #wrong} column: -1 when the test
 * printed {@code N/A} (in-place send/recv) or did not check.
 */
public record NcclTestRow(long bytes, long count, String type, String redop, int root, Result outOfPlace,
                          Result inPlace, String timestamp, Evidence evidence) {
    public NcclTestRow {
        type = type == null ? "" : type;
        redop = redop == null ? "" : redop;
        timestamp = timestamp == null ? "" : timestamp;
    }

    /** Time in microseconds (or the CPU time with {@code -C 1}), algorithm and bus bandwidth in GB/s, wrong elements. */
    public record Result(double timeUs, double algBw, double busBw, long wrong) {
    }

    public long wrong() {
        return Math.max(0, outOfPlace == null ? 0 : outOfPlace.wrong()) + Math.max(0, inPlace == null ? 0 : inPlace.wrong());
    }
}
