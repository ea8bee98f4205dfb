package org.fabricscope.model.training;

import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Evidence;

/**
 * One NCCL rank of one communicator, from its {@code Init START/COMPLETE} line: where it ran
 * (host as the log prefix gives it: the pod name in Kubernetes), its GPU (cudaDev, nvmlDev,
 * busId) and the communicator (commId, rank, nranks, and from the {@code comm ... nRanks N nNodes M}
 * line nNodes, -1 when not printed), plus what its process reported about its network
 * ({@code NET/IB : Using} devices, the OOB interface {@code oob} such as {@code eth0:10.0.5.76<0>},
 * {@code Using network X}, {@code No device found.}) and environment ({@code NCCL_* set by environment to},
 * {@code NCCL_IB_HCA set to}).
 */
public record Rank(String host, int pid, int cudaDev, int nvmlDev, String busId, String commId, int rank, int nranks,
                   int nNodes, String ncclVersion, boolean initStarted, boolean initCompleted, List<String> netDevices,
                   String oob, String network, boolean noIbDevice, Map<String, String> env, Evidence evidence) {
    public Rank {
        netDevices = List.copyOf(netDevices);
        env = org.fabricscope.model.core.OrderedMaps.frozen(env); // one shared copy stays as it is
    }

    /** A rank without nNodes and OOB interface (lines that do not print them). */
    public Rank(String host, int pid, int cudaDev, int nvmlDev, String busId, String commId, int rank, int nranks,
                String ncclVersion, boolean initStarted, boolean initCompleted, List<String> netDevices,
                String network, boolean noIbDevice, Map<String, String> env, Evidence evidence) {
        this(host, pid, cudaDev, nvmlDev, busId, commId, rank, nranks, -1, ncclVersion, initStarted, initCompleted,
                netDevices, null, network, noIbDevice, env, evidence);
    }

    /** {@code host:pid}, how NCCL lines name a process. */
    public String process() {
        return host + ":" + pid;
    }

    /** The RDMA devices it uses ({@code mlx5_0:1/IB}, {@code erdma_0:1/RoCE}), without the socket ones. */
    public List<String> rdmaDevices() {
        return netDevices.stream().filter(d -> !d.startsWith("socket ")).toList();
    }
}
