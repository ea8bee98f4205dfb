package org.fabricscope.model.training;

import java.util.List;

import org.fabricscope.model.core.Evidence;

/**
 * One ring of a communicator in full, as rank 0 prints it: {@code Channel 00/02 :    0   1   2   3}
 * ({@code channel} of {@code nChannels}; {@code order} is the ranks in ring order).
 */
public record Ring(String commId, int channel, int nChannels, List<Integer> order, Evidence evidence) {
    public Ring {
        order = List.copyOf(order);
    }

    /** This ring with another communicator id (lines read before the communicator was known). */
    public Ring withComm(String c) {
        return new Ring(c, channel, nChannels, order, evidence);
    }
}
