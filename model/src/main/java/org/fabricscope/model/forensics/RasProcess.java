package org.fabricscope.model.forensics;

import org.fabricscope.model.core.Evidence;

/**
 * A job process that NCCL RAS reports as missing ({@code INCOMPLETE}: no communicator data from it),
 * dead ({@code DEAD}: unreachable for 60 s, or a monitor {@code PEER_DEAD} event), by node address,
 * pid and the GPUs it manages ({@code "1"}, {@code "0,1"}; empty when not printed).
 */
public record RasProcess(String host, int pid, String gpus, boolean dead, Evidence evidence) {
    public RasProcess {
        host = host == null ? "" : host;
        gpus = gpus == null ? "" : gpus;
    }

    /** {@code process 2047 on node 192.0.2.2 managing GPU 1}. */
    public String describe() {
        return "process " + pid + " on node " + host + (gpus.isEmpty() ? "" : " managing GPU " + gpus);
    }
}
