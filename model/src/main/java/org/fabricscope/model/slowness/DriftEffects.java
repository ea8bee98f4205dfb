package org.fabricscope.model.slowness;

import java.util.Map;

/**
 * What a difference between nodes in one setting is known to do. The ranks of one communicator must agree on
 * everything that shapes the wire: NCCL computes each collective's algorithm, protocol, buffer sizes and
 * connections on every rank from its own settings and assumes the peers computed the same (NCCL's
 * environment variable documentation: NCCL_PROTO, NCCL_ALGO, NCCL_BUFFSIZE and the socket and IB transport
 * variables are read per process), so a difference there can leave the ranks waiting on each other
 * forever, or fail their connection. Settings that choose a slower path on some nodes slow every rank, since
 * each collective runs at the pace of its slowest link. The rest is worth knowing, not known to harm.
 */
public final class DriftEffects {
    private DriftEffects() {
    }

    /** A difference's effect, the most harmful first. */
    public enum Effect {
        /** Known to hang the job or fail its connections. */
        HANG("known to hang the job or fail its connections"),
        /** Known to slow the job (the odd nodes take a slower path). */
        SLOW("known to slow the job: the odd nodes take a slower path"),
        /** Not known to harm by itself. */
        NOTE("not known to harm by itself");

        private final String words;

        Effect(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    /** Why each key has its effect, as a user reads it. */
    static final Map<String, String> HANG_WHY = Map.ofEntries(
            Map.entry("nccl-version", "NCCL compares every rank's version at init and fails the communicator (\"Mismatched NCCL version detected\", src/init.cc)"),
            Map.entry("NCCL_PROTO", "ranks choose different protocols for the same collective and wait for data in a format the peer "
                    + "never sends (captured with NCCL 2.28.9: Simple on one pod hung the first collective silently, LL failed it "
                    + "with 'message truncated')"),
            Map.entry("NCCL_ALGO", "ranks choose different algorithms for the same collective: their peers and steps do not match"),
            Map.entry("NCCL_BUFFSIZE", "the ranks' buffers differ in size: the steps of a collective no longer line up"),
            Map.entry("NCCL_LL_BUFFSIZE", "the ranks' buffers differ in size: the steps of a collective no longer line up"),
            Map.entry("NCCL_LL128_BUFFSIZE", "the ranks' buffers differ in size: the steps of a collective no longer line up"),
            Map.entry("NCCL_MAX_NCHANNELS", "the ranks exchange per-channel data at init sized by their own channel counts, and the "
                    + "exchange fails ('Message truncated' in bootstrap; captured with NCCL 2.28.9)"),
            Map.entry("NCCL_MIN_NCHANNELS", "the ranks exchange per-channel data at init sized by their own channel counts, and the "
                    + "exchange fails ('Message truncated' in bootstrap; captured with NCCL 2.28.9)"),
            Map.entry("NCCL_IB_QPS_PER_CONNECTION", "the two sides of an IB connection expect a different number of queue pairs"),
            Map.entry("NCCL_IB_SPLIT_DATA_ON_QPS", "the two sides split the data over their queue pairs differently"),
            Map.entry("NCCL_IB_GID_INDEX", "RoCE peers address each other by different GID types (RoCE v1 against v2, IPv4 against IPv6): the connection fails"),
            Map.entry("NCCL_IB_DISABLE", "nodes pick different networks (IB against sockets): their connections cannot meet"),
            Map.entry("NCCL_NET", "nodes pick different networks: their connections cannot meet"),
            Map.entry("network", "nodes use different networks: their connections cannot meet"),
            Map.entry("net-plugin", "nodes use different NET plugins: their connection handshakes need not match"),
            Map.entry("NCCL_NVLS_ENABLE", "ranks of one NVLink domain disagree on NVLink SHARP, which needs every rank of the domain"),
            Map.entry("NCCL_CUMEM_ENABLE", "processes of one node disagree on how GPU memory is shared between them (cuMem handles against CUDA IPC)"),
            Map.entry("memlock", "a node whose locked-memory limit is low cannot register RDMA buffers (ibv_reg_mr fails)"));

    static final Map<String, String> SLOW_WHY = Map.ofEntries(
            Map.entry("NCCL_P2P_DISABLE", "the odd nodes' GPUs talk through host memory instead of NVLink or PCIe peer to peer"),
            Map.entry("NCCL_SHM_DISABLE", "the odd nodes' GPUs talk through the network stack instead of host memory"),
            Map.entry("NCCL_P2P_LEVEL", "the odd nodes allow peer to peer between fewer GPU pairs"),
            Map.entry("NCCL_NET_GDR_LEVEL", "the odd nodes use GPU Direct RDMA for fewer GPU-NIC pairs, staging through host memory"),
            Map.entry("NCCL_NET_GDR_READ", "the odd nodes send from GPU memory differently"),
            Map.entry("gpu-direct-rdma", "the odd nodes stage network traffic through host memory"),
            Map.entry("NCCL_IB_HCA", "the odd nodes use a different set of NICs"),
            Map.entry("rdma-devices", "the odd nodes use a different set of NICs"),
            Map.entry("NCCL_SOCKET_IFNAME", "the odd nodes use a different interface for NCCL's sockets"),
            Map.entry("NCCL_NSOCKS_PERTHREAD", "the socket transport runs with the fewer sockets of the two sides (captured: one pod "
                    + "tuned to 4 threads x 4 sockets ran at 2.4 times the step time of both pods tuned)"),
            Map.entry("NCCL_SOCKET_NTHREADS", "the socket transport runs with the fewer threads of the two sides (captured: one pod "
                    + "tuned to 4 threads x 4 sockets ran at 2.4 times the step time of both pods tuned)"),
            Map.entry("NCCL_NCHANNELS_PER_NET_PEER", "the nodes ask for different channel counts per network peer"),
            Map.entry("NCCL_IB_TC", "the odd nodes' traffic goes in another traffic class (another lossless queue or none)"),
            Map.entry("NCCL_IB_SL", "the odd nodes' traffic goes on another service level"),
            Map.entry("NCCL_CROSS_NIC", "the nodes route rings across NICs differently"),
            Map.entry("tuner-plugin", "the nodes tune algorithm and protocol choices with different plugins"));

    /** The effect of a difference in {@code key}. */
    public static Effect of(String key) {
        if (HANG_WHY.containsKey(key)) {
            return Effect.HANG;
        }
        return SLOW_WHY.containsKey(key) ? Effect.SLOW : Effect.NOTE;
    }

    /** Why a difference in {@code key} has its effect; "" for notes. */
    public static String why(String key) {
        String w = HANG_WHY.get(key);
        return w != null ? w : SLOW_WHY.getOrDefault(key, "");
    }
}
