package org.fabricscope.model.training;

import org.fabricscope.model.core.Evidence;

/**
 * One {@code Channel NN : A[x] -> B[y] via ...} line (or 2.5-2.6's {@code Ring NN : A[x] -> B[y] via ...}):
 * the sending and receiving ranks of a communicator, the transport, and the raw {@code via} text
 * (e.g. {@code NET/IB/0/GDRDMA}). {@code device} is the NET device index for network transports, -1
 * otherwise; {@code proxyRank} the rank whose NIC carries the traffic under PXN ({@code NET/IB/1(0)/GDRDMA}),
 * -1 when none; {@code direction} is {@code send}, {@code receive} or empty. {@code fromDev}/{@code toDev}
 * are the bracket texts: the GPU's busId in hex up to NCCL 2.18 ({@code devIsBusId}), its nvmlDev from 2.19.
 */
public record ChannelLink(String commId, int channel, int fromRank, int toRank, Transport transport, String via,
                          int device, int proxyRank, String direction, String fromDev, String toDev, boolean devIsBusId,
                          Evidence evidence) {
    public ChannelLink {
        direction = direction == null ? "" : direction;
        fromDev = fromDev == null ? "" : fromDev;
        toDev = toDev == null ? "" : toDev;
    }

    /** The link without PXN, direction or bracket details. */
    public ChannelLink(String commId, int channel, int fromRank, int toRank, Transport transport, String via,
                       int device, Evidence evidence) {
        this(commId, channel, fromRank, toRank, transport, via, device, -1, "", "", "", false, evidence);
    }

    /** Whether the traffic goes through another local GPU's NIC (PXN). */
    public boolean viaProxy() {
        return proxyRank >= 0;
    }

    public ChannelLink withComm(String c) {
        return new ChannelLink(c, channel, fromRank, toRank, transport, via, device, proxyRank, direction, fromDev, toDev,
                devIsBusId, evidence);
    }
}
