package org.fabricscope.model.training;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.Evidence;

/**
 * One NCCL rank of one communicator, from its {@code Init START/COMPLETE} line: where it ran
 * (host as the log prefix gives it: the pod name in Kubernetes), its GPU (cudaDev, nvmlDev,
 * busId) and the communicator (commId, rank, nranks), plus what its process reported about its
 * network and environment.
 */
public record Rank(String host, int pid, int cudaDev, int nvmlDev, String busId, String commId, int rank, int nranks,
                   String ncclVersion, boolean initStarted, boolean initCompleted, List<String> netDevices,
                   String network, boolean noIbDevice, Map<String, String> env, Evidence evidence) {
    public Rank {
        netDevices = List.copyOf(netDevices);
        env = Collections.unmodifiableMap(new LinkedHashMap<>(env));
    }

    /** {@code host:pid}, how NCCL lines name a process. */
    public String process() {
        return host + ":" + pid;
    }
}
