package org.fabricscope.model.forensics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.fabricscope.model.core.Evidence;

/**
 * One rank of a communicator as NCCL RAS reports it: its rank, the process that manages it (node
 * address, pid, CUDA and NVML device; -1 and empty when RAS printed {@code [process information not
 * found]}), how many collectives of each type it launched ({@code AllReduce -> 4}; the key
 * {@code collective} when RAS did not say which type), its status when RAS named one
 * ({@code RUNNING}, {@code INIT}, {@code FINALIZE}, ... or an error it reported), and whether RAS
 * found it missing: {@code unresponsive} (RAS could not reach it) or {@code dead} (considered dead
 * after 60 s without contact).
 */
public record RasRank(int rank, String host, int pid, int cudaDev, int nvmlDev, Map<String, Long> collectiveCounts,
                      String status, boolean missing, boolean unresponsive, boolean dead, Evidence evidence) {
    public RasRank {
        host = host == null ? "" : host;
        status = status == null ? "" : status;
        collectiveCounts = Collections.unmodifiableMap(new LinkedHashMap<>(collectiveCounts));
    }

    public boolean hasProcess() {
        return pid >= 0;
    }

    /** {@code GPU 1 managed by process 2047 on node 192.0.2.2}, or {@code [process information not found]}. */
    public String processText() {
        return hasProcess() ? "GPU " + (cudaDev >= 0 ? cudaDev : "?") + " managed by process " + pid + " on node " + host
                : "[process information not found]";
    }

    /** The total over every collective type (what older RAS versions printed as one count). */
    public long totalCount() {
        long t = 0;
        for (long v : collectiveCounts.values()) {
            t += v;
        }
        return t;
    }
}
