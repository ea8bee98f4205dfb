package org.fabricscope.model.forensics;

import java.util.List;

import org.fabricscope.model.core.Evidence;

/**
 * One event of NCCL RAS's monitor mode ({@code ncclras -m}): its time, group ({@code LIFECYCLE},
 * {@code TRACE}), event name ({@code PEER_DEAD}, ...) and the process it is about.
 */
public record RasEvent(String timestamp, String group, String event, String host, int pid, List<Integer> cudaDevs,
                       String details, Evidence evidence) {
    public RasEvent {
        timestamp = timestamp == null ? "" : timestamp;
        group = group == null ? "" : group;
        event = event == null ? "" : event;
        host = host == null ? "" : host;
        details = details == null ? "" : details;
        cudaDevs = List.copyOf(cudaDevs);
    }
}
