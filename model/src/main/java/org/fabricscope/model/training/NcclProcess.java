package org.fabricscope.model.training;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Evidence;

/**
 * What one NCCL process ({@code host:pid}) said about its network, whether or not a communicator of it reached
 * Init (NCCL can fail before it prints {@code Init START}, and then no {@link Rank} carries it): the
 * {@code NET/IB : No device found} line ({@code noIbDevice}, null when it printed none), the NET plugins it could
 * not initialize ({@code Failed to initialize NET plugin IB} gives {@code IB}; {@code Failed to initialize any NET
 * plugin} gives {@code any}) with the line of the last one ({@code netFailure}), and the {@code NCCL_*} variables
 * it logged as set by the environment.
 */
public record NcclProcess(String host, int pid, Evidence noIbDevice, List<String> failedNets, Evidence netFailure,
                          Map<String, String> env) {
    /** The {@code failedNets} entry of {@code Failed to initialize any NET plugin}. */
    public static final String ANY = "any";

    public NcclProcess {
        failedNets = List.copyOf(failedNets);
        env = Collections.unmodifiableMap(new LinkedHashMap<>(env));
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
