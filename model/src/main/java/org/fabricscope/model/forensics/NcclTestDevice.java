package org.fabricscope.model.forensics;

/**
 * One {@code #  Rank  0 Group  0 Pid   1653 on         vm device  0 [0000:00:06] NVIDIA H200} line of
 * an nccl-tests header (the JSON output's {@code config.devices}).
 */
public record NcclTestDevice(int rank, int group, int pid, String host, int device, String busId, String name) {
    public NcclTestDevice {
        host = host == null ? "" : host;
        busId = busId == null ? "" : busId;
        name = name == null ? "" : name;
    }
}
