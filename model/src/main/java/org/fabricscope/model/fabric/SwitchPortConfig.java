package org.fabricscope.model.fabric;

import org.fabricscope.model.core.Evidence;

/**
 * A switch port's own configuration as SONiC keeps it in {@code config_db.json} ({@code show runningconfiguration
 * all}): from the {@code PORT} table its MTU ({@code -1} when not set), admin status, alias and speed; from
 * {@code PORT_QOS_MAP} the priorities with PFC enabled ({@code pfc_enable}); from {@code DEVICE_NEIGHBOR} the
 * neighbour the plan expects on it (name and port; empty when none is planned). Each part keeps where it was
 * read; a part not given has a null evidence.
 *
 * @param pfc bit {@code p} set when PFC is enabled on priority {@code p}; -1 when no {@code pfc_enable} was read
 */
public record SwitchPortConfig(int mtu, String adminStatus, String alias, String speed, Evidence portEvidence,
                               int pfc, Evidence qosEvidence,
                               String expectedNeighbour, String expectedNeighbourPort, Evidence neighbourEvidence) {
    public SwitchPortConfig {
        adminStatus = adminStatus == null ? "" : adminStatus;
        alias = alias == null ? "" : alias;
        speed = speed == null ? "" : speed;
        expectedNeighbour = expectedNeighbour == null ? "" : expectedNeighbour;
        expectedNeighbourPort = expectedNeighbourPort == null ? "" : expectedNeighbourPort;
        if (pfc < -1 || pfc > 0xFF) {
            throw new IllegalArgumentException("pfc is -1 (unknown) or a mask of 8 priorities: " + pfc);
        }
        if (mtu < -1) {
            throw new IllegalArgumentException("mtu is -1 (unknown) or a size: " + mtu);
        }
    }

    /** True when {@code pfc_enable} was read for this port. */
    public boolean pfcKnown() {
        return pfc >= 0;
    }

    public boolean pfcEnabled(int priority) {
        return pfc >= 0 && priority >= 0 && priority < 8 && (pfc & (1 << priority)) != 0;
    }

    /** True when {@code DEVICE_NEIGHBOR} names a neighbour for this port. */
    public boolean neighbourPlanned() {
        return !expectedNeighbour.isEmpty();
    }
}
