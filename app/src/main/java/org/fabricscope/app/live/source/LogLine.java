package org.fabricscope.app.live.source;

import java.time.Instant;

/**
 * One complete line of a container's log, as the kubelet served it with {@code timestamps=true}.
 *
 * @param pod       pod name (in NCCL logs this is also the host in the {@code host:pid:tid} prefix)
 * @param container container name
 * @param epochNanos the kubelet's timestamp of the line (RFC3339Nano in the stream), nanoseconds since
 *                  the epoch; for a line without a readable timestamp, the timestamp of the line before
 *                  it (0 if none)
 * @param text      the line without the timestamp prefix and without its line terminator
 * @param seq       position of the line in this stream, from 0, counting delivered lines only; stays
 *                  gapless across reconnects because replayed lines are dropped before they get one
 */
public record LogLine(String pod, String container, long epochNanos, String text, long seq) {

    /** The kubelet timestamp as an {@link Instant}. */
    public Instant timestamp() {
        return Instant.ofEpochSecond(Math.floorDiv(epochNanos, 1_000_000_000L), Math.floorMod(epochNanos, 1_000_000_000L));
    }

    /** {@code pod/container}: what evidence taken from this line should cite as its source. */
    public String source() {
        return pod + "/" + container;
    }

    /** 1-based line number for evidence ({@code seq + 1}, capped at {@link Integer#MAX_VALUE}). */
    public int lineNumber() {
        return (int) Math.min(Integer.MAX_VALUE, seq + 1);
    }
}
