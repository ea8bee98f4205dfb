package org.fabricscope.model.ranks;

import java.util.List;
import java.util.Set;

import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.training.Transport;

/**
 * How one pair of ranks of a communicator talks: the slowest transport over the channels they
 * share, and for a pair on two hosts the way through the fabric. {@code path} is one shortest path
 * HCA, leaf, ..., leaf, HCA (what the map draws); {@code cables} is every cable on any shortest path
 * between the two HCAs, since the subnet manager's routing may put the traffic on any of them.
 * Both are empty when the pair shares a host or the fabric does not reach both ends.
 */
public record RankRoute(String commId, RankSite a, RankSite b, Transport transport, int channels, List<Vertex> path,
                        Set<Cable> cables) {
    public RankRoute {
        path = List.copyOf(path);
        cables = Set.copyOf(cables);
    }

    /** Whether the pair's traffic crosses the fabric and its path is known. */
    public boolean routed() {
        return !path.isEmpty();
    }
}
