package org.fabricscope.model.fabric;

import org.fabricscope.model.core.Evidence;

import java.util.ArrayList;
import java.util.List;

/**
 * A RoCE NIC's QoS settings as {@code mlnx_qos -i NETDEV} prints them: the priority trust state ({@code pcp},
 * {@code dscp}; empty when not printed) and on which of the eight priorities PFC is enabled.
 *
 * @param pfc bit {@code p} set when PFC is enabled on priority {@code p}
 */
public record RoceQos(String trust, int pfc, Evidence evidence) {
    /** The priority NVIDIA's RoCE configuration uses for lossless traffic (DSCP 26, NCCL_IB_TC=106). */
    public static final int DEFAULT_ROCE_PRIORITY = 3;

    public RoceQos {
        trust = trust == null ? "" : trust;
        if (pfc < 0 || pfc > 0xFF) {
            throw new IllegalArgumentException("pfc is a mask of 8 priorities: " + pfc);
        }
    }

    public boolean pfcEnabled(int priority) {
        return priority >= 0 && priority < 8 && (pfc & (1 << priority)) != 0;
    }

    /** The priorities with PFC enabled, ascending. */
    public List<Integer> pfcPriorities() {
        List<Integer> out = new ArrayList<>();
        for (int p = 0; p < 8; p++) {
            if (pfcEnabled(p)) {
                out.add(p);
            }
        }
        return out;
    }
}
