package org.fabricscope.model.forensics;

import java.util.List;

/**
 * One NCCL RAS report as a file holds it: a {@code STATUS} / {@code VERBOSE STATUS} reply in text or
 * JSON ({@code ncclras -f json}, {@code SET FORMAT json}), or monitor events. {@code timestamp} is the
 * JSON's (empty for text); the job summary counts are -1 when not printed.
 */
public record RasStatus(String source, String format, String ncclVersion, String timestamp, int nodes, int processes,
                        int gpus, List<RasCommunicator> communicators, List<RasProcess> missingProcesses,
                        List<RasProcess> deadProcesses, List<RasEvent> events, int timeouts) {
    public RasStatus {
        source = source == null ? "" : source;
        format = format == null ? "" : format;
        ncclVersion = ncclVersion == null ? "" : ncclVersion;
        timestamp = timestamp == null ? "" : timestamp;
        communicators = List.copyOf(communicators);
        missingProcesses = List.copyOf(missingProcesses);
        deadProcesses = List.copyOf(deadProcesses);
        events = List.copyOf(events);
    }
}
