package org.fabricscope.model.fabric;

import org.fabricscope.model.core.Evidence;

import java.util.ArrayList;
import java.util.List;

/**
 * A RoCE NIC's QoS settings as {@code mlnx_qos -i NETDEV} prints them: the priority trust state ({@code pcp},
 * {@code dscp}; empty when not printed), on which of the eight priorities PFC is enabled, and the
 * {@code dscp2prio mapping} table (the priority of each of the 64 DSCP values; empty when not printed).
 *
 * @param pfc bit {@code p} set when PFC is enabled on priority {@code p}
 * @param dscpToPriority the priority of DSCP {@code d} at index {@code d} (64 entries), or empty when the table was not
 *                       printed or did not name every DSCP value
 */
public record RoceQos(String trust, int pfc, List<Integer> dscpToPriority, Evidence evidence) {
    /** The priority NVIDIA's RoCE configuration uses for lossless traffic (DSCP 26, NCCL_IB_TC=106). */
    public static final int DEFAULT_ROCE_PRIORITY = 3;
    /** DSCP values: 6 bits. */
    public static final int DSCP_VALUES = 64;

    public RoceQos {
        trust = trust == null ? "" : trust;
        if (pfc < 0 || pfc > 0xFF) {
            throw new IllegalArgumentException("pfc is a mask of 8 priorities: " + pfc);
        }
        dscpToPriority = dscpToPriority == null ? List.of() : List.copyOf(dscpToPriority);
        if (!dscpToPriority.isEmpty() && (dscpToPriority.size() != DSCP_VALUES
                || dscpToPriority.stream().anyMatch(p -> p < 0 || p > 7))) {
            throw new IllegalArgumentException("a DSCP table maps 64 values to priorities 0-7");
        }
    }

    /** Settings without a DSCP table. */
    public RoceQos(String trust, int pfc, Evidence evidence) {
        this(trust, pfc, List.of(), evidence);
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

    /** The priority of a DSCP value by the table read, or by the default table (DSCP / 8) when none was; -1 out of range. */
    public int priorityOfDscp(int dscp) {
        if (dscp < 0 || dscp >= DSCP_VALUES) {
            return -1;
        }
        return dscpToPriority.isEmpty() ? defaultPriorityOfDscp(dscp) : dscpToPriority.get(dscp);
    }

    /** The default DSCP-to-priority table of mlx5 (and of the Linux DCB default): the top three bits, DSCP / 8. */
    public static int defaultPriorityOfDscp(int dscp) {
        return dscp >> 3;
    }
}
