package org.fabricscope.app.live.poll;

import java.time.Duration;

import org.fabricscope.app.live.source.LiveTarget;

/**
 * What the fabric poller reads and how often: counters every {@code interval} (at least
 * {@link #MIN_INTERVAL}), the link table (iblinkinfo) every {@code topologyEvery} and whenever a poll
 * suggests a link changed, each command within {@code commandTimeout}; through the umad device
 * {@code ca} and its port {@code caPort} (null / 0: the diags' own default), from this node.
 */
public record FabricPollTarget(Duration interval, Duration topologyEvery, Duration commandTimeout, String ca, int caPort)
        implements LiveTarget {
    /** The shortest interval between two polls: each poll sends MADs to every port of the fabric. */
    public static final Duration MIN_INTERVAL = Duration.ofSeconds(5);
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(30);
    /** The link table is read at least this often (and at once when a poll suggests a link changed). */
    public static final Duration DEFAULT_TOPOLOGY_EVERY = Duration.ofMinutes(5);
    /** Each diag command gets this long (perfquery waits 1 s per unanswered MAD, with retries). */
    public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(20);

    public FabricPollTarget {
        if (interval == null || interval.compareTo(MIN_INTERVAL) < 0) {
            throw new IllegalArgumentException("the poll interval must be at least " + MIN_INTERVAL.toSeconds()
                    + " s (FabricPollTarget.MIN_INTERVAL): each poll queries every port of the fabric");
        }
        topologyEvery = topologyEvery == null ? DEFAULT_TOPOLOGY_EVERY : topologyEvery;
        if (topologyEvery.compareTo(interval) < 0) {
            topologyEvery = interval;
        }
        commandTimeout = commandTimeout == null ? DEFAULT_COMMAND_TIMEOUT : commandTimeout;
        if (commandTimeout.isNegative() || commandTimeout.isZero()) {
            throw new IllegalArgumentException("the command timeout must be positive");
        }
        ca = ca == null || ca.isBlank() ? null : ca.strip();
        if (ca != null && !ca.matches("[A-Za-z0-9_.-]{1,64}")) {
            throw new IllegalArgumentException("'" + ca + "' is not an HCA name like mlx5_0");
        }
        if (caPort < 0 || caPort > 254) {
            throw new IllegalArgumentException("the HCA port must be 1-254 (0: the diags' default)");
        }
    }

    /** Every {@code interval}, the link table every 5 min, through the diags' default HCA and port. */
    public static FabricPollTarget every(Duration interval) {
        return new FabricPollTarget(interval, null, null, null, 0);
    }

    public FabricPollTarget withTopologyEvery(Duration d) {
        return new FabricPollTarget(interval, d, commandTimeout, ca, caPort);
    }

    public FabricPollTarget withCa(String name, int port) {
        return new FabricPollTarget(interval, topologyEvery, commandTimeout, name, port);
    }

    public FabricPollTarget withCommandTimeout(Duration d) {
        return new FabricPollTarget(interval, topologyEvery, d, ca, caPort);
    }

    /** The options that pick the umad device and port, appended to every diag command. */
    java.util.List<String> caOptions() {
        java.util.List<String> o = new java.util.ArrayList<>();
        if (ca != null) {
            o.add("-C");
            o.add(ca);
        }
        if (caPort > 0) {
            o.add("-P");
            o.add(String.valueOf(caPort));
        }
        return o;
    }

    @Override
    public String kind() {
        return FabricPollSourceKind.ID;
    }

    @Override
    public String describe() {
        return "fabric from " + (ca == null ? "this node" : ca + (caPort > 0 ? "/" + caPort : "")) + " every "
                + interval.toSeconds() + " s";
    }
}
