package org.fabricscope.model.forensics;

import java.util.List;

/**
 * What the NCCL Inspector profiler plugin wrote about one rank of one communicator (its JSON output,
 * one object per collective), aggregated as it is read: the communicator id, the rank, communicator
 * size and nodes, the process (host name, pid), how many collectives it recorded, the last one's
 * sequence number ({@code coll_sn}) and type, and per collective type the count, the largest message
 * and the bus bandwidth and execution time seen.
 */
public record InspectorCommunicator(String source, String commId, int rank, int nRanks, int nNodes, String hostname,
                                    int pid, long records, long lastSeq, String lastColl, List<Collective> collectives) {
    public InspectorCommunicator {
        source = source == null ? "" : source;
        commId = commId == null ? "" : commId;
        hostname = hostname == null ? "" : hostname;
        lastColl = lastColl == null ? "" : lastColl;
        collectives = List.copyOf(collectives);
    }

    /** One collective type of the communicator: count, largest message (bytes), bus bandwidth (GB/s) min/mean/max, mean time (us). */
    public record Collective(String coll, long count, long maxBytes, double minBusBw, double meanBusBw, double maxBusBw,
                             double meanExecUs) {
    }
}
