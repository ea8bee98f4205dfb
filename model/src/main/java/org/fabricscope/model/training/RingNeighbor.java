package org.fabricscope.model.training;

import org.fabricscope.model.core.Evidence;

/**
 * One rank's place in one ring, as each rank prints it: {@code Ring 00 : 3 -> 0 -> 1} is rank 0
 * receiving from {@code prev} 3 and sending to {@code next} 1 on channel 0.
 */
public record RingNeighbor(String commId, int channel, int rank, int prev, int next, Evidence evidence) {
    public RingNeighbor withComm(String c) {
        return new RingNeighbor(c, channel, rank, prev, next, evidence);
    }
}
