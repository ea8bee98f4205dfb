package org.fabricscope.model.fabric;

import java.time.Instant;

import org.fabricscope.model.core.Evidence;

/**
 * A port's link state seen to change between two readings of the fabric (a poller's iblinkinfo):
 * when it was seen, which port ({@code node} as the tool named it, its GUID when known, the port
 * number), the state before and after ({@code Active/LinkUp}, {@code Down/Polling}, or {@code absent}
 * when the port was no longer reported at all: its node became unreachable or its cable was pulled),
 * and the reading that showed it.
 */
public record LinkChange(Instant time, long nodeGuid, String node, int port, String from, String to, Evidence evidence) {
    /** What a port no longer listed by the tool is said to be. */
    public static final String ABSENT = "absent";

    public LinkChange {
        node = node == null ? "" : node;
        from = from == null ? "" : from;
        to = to == null ? "" : to;
    }

    /** Whether the link went out of service: from Active to anything else (Down, Polling, Init, absent). */
    public boolean wentDown() {
        return from.startsWith("Active") && !to.startsWith("Active");
    }

    /** Whether the link came (back) into service. */
    public boolean cameUp() {
        return !from.startsWith("Active") && to.startsWith("Active");
    }

    /** {@code leaf-1 port 2}. */
    public String portLabel() {
        return node + " port " + port;
    }
}
