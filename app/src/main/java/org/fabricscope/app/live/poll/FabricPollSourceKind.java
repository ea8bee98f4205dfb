package org.fabricscope.app.live.poll;

import java.time.Clock;

import org.fabricscope.app.live.source.LiveSource;
import org.fabricscope.app.live.source.LiveSourceKind;
import org.fabricscope.app.live.source.LiveSources;

/**
 * Polling the fabric in the live source registry: a {@link FabricPollTarget} read with the real
 * infiniband-diags (iblinkinfo, perfquery) from this node, counters never reset.
 */
public final class FabricPollSourceKind implements LiveSourceKind<FabricPollTarget> {
    public static final String ID = "fabric-poll";

    private final Diags diags;
    private final Clock clock;

    public FabricPollSourceKind() {
        this(new ProcessDiags(), Clock.systemUTC());
    }

    /** With this runner and clock (tests: a recording runner, the simulator's environment, a fixed clock). */
    public FabricPollSourceKind(Diags diags, Clock clock) {
        this.diags = diags;
        this.clock = clock;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "InfiniBand fabric (infiniband-diags from this node)";
    }

    @Override
    public Class<FabricPollTarget> targetType() {
        return FabricPollTarget.class;
    }

    /** Opening runs nothing: the first poll finds out whether the diags can reach the fabric. */
    @Override
    public LiveSource open(FabricPollTarget target, LiveSources.Hints hints) {
        return open(target);
    }

    /** The source with its own type (the watch command and the window pause and resume it). */
    public FabricPollSource open(FabricPollTarget target) {
        return new FabricPollSource(target, diags, hostName(), clock);
    }

    /** {@code No fabric access: perfquery: not found ...}: the one line for a poll that could not reach the fabric. */
    static String noAccess(Diags.DiagsException e) {
        return "No fabric access: " + e.getMessage();
    }

    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException | SecurityException e) {
            String h = System.getenv("HOSTNAME");
            return h == null || h.isBlank() ? "localhost" : h;
        }
    }
}
