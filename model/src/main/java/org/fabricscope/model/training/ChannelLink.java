package org.fabricscope.model.training;

import org.fabricscope.model.Evidence;

/**
 * One {@code Channel NN : A[x] -> B[y] via ...} line: the sending and receiving ranks of a
 * communicator, the transport, and the raw {@code via} text (e.g. {@code NET/IB/0/GDRDMA}).
 * {@code device} is the NET device index for network transports, -1 otherwise.
 */
public record ChannelLink(String commId, int channel, int fromRank, int toRank, Transport transport, String via,
                          int device, Evidence evidence) {
}
