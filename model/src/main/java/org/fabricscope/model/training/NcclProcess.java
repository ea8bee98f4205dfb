package org.fabricscope.model.training;

import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Evidence;

/**
 * What one NCCL process ({@code host:pid}) said about its network, whether or not a communicator of it reached
 * Init (NCCL can fail before it prints {@code Init START}, and then no {@link Rank} carries it): the
 * {@code NET/IB : No device found} line ({@code noIbDevice}, null when it printed none), the NET plugins it could
 * not initialize ({@code Failed to initialize NET plugin IB} gives {@code IB}; {@code Failed to initialize any NET
 * plugin} gives {@code any}) with the line of the last one ({@code netFailure}), and the {@code NCCL_*} variables
 * it logged as set by the environment, and the facts it reported about itself once ({@code facts}, keys
 * {@link #CUDA_DRIVER} {@link #CUDA_RUNTIME}, {@link #NETWORK}, {@link #NET_PLUGIN}, {@link #TUNER_PLUGIN},
 * {@link #PROFILER_PLUGIN}, {@link #NCCL_VERSION}).
 */
public record NcclProcess(String host, int pid, Evidence noIbDevice, List<String> failedNets, Evidence netFailure,
                          Map<String, String> env, Map<String, String> facts) {
    /** {@code cudaDriverVersion 12040}: the CUDA driver API version, as NCCL prints it. */
    public static final String CUDA_DRIVER = "cuda-driver";
    /** {@code NCCL version 2.21.5+cuda12.4}: the CUDA runtime NCCL was built for. */
    public static final String CUDA_RUNTIME = "cuda-runtime";
    /** {@code NCCL version 2.21.5+cuda12.4}: the NCCL version. */
    public static final String NCCL_VERSION = "nccl-version";
    /** {@code Using network IB}: the network NCCL chose. */
    public static final String NETWORK = "network";
    /** The NET plugin loaded ({@code Loaded net plugin X (vN)}), or "internal". */
    public static final String NET_PLUGIN = "net-plugin";
    /** The tuner plugin used, or "internal". */
    public static final String TUNER_PLUGIN = "tuner-plugin";
    /** The profiler plugin loaded, or "none". */
    public static final String PROFILER_PLUGIN = "profiler-plugin";
    /** The {@code failedNets} entry of {@code Failed to initialize any NET plugin}. */
    public static final String ANY = "any";

    public NcclProcess {
        failedNets = List.copyOf(failedNets);
        env = org.fabricscope.model.core.OrderedMaps.frozen(env); // one shared copy stays as it is
        facts = org.fabricscope.model.core.OrderedMaps.frozen(facts == null ? Map.of() : facts);
    }

    /** A process without facts (for callers that know none). */
    public NcclProcess(String host, int pid, Evidence noIbDevice, List<String> failedNets, Evidence netFailure,
                       Map<String, String> env) {
        this(host, pid, noIbDevice, failedNets, netFailure, env, Map.of());
    }

    /** {@code host:pid}, how NCCL lines name a process. */
    public String process() {
        return host + ":" + pid;
    }

    /** Whether NCCL was left with no network at all: every NET plugin it tried failed to initialize. */
    public boolean noNetwork() {
        return failedNets.contains(ANY);
    }
}
