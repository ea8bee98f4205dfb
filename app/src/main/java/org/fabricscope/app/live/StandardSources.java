package org.fabricscope.app.live;

import java.util.List;

import org.fabricscope.app.live.kube.KubeSourceKind;
import org.fabricscope.app.live.prom.PromSourceKind;
import org.fabricscope.app.live.poll.FabricPollSourceKind;
import org.fabricscope.app.live.source.LiveSources;

/**
 * FabricScope's live source registry: the one list of kinds the CLI options, the connect dialog and
 * the live job open sources through (decision 0013). Kept out of {@code app.live.source}, so that
 * the contract names no source and the sources depend on it, not the other way round.
 */
public final class StandardSources {
    private static final LiveSources REGISTRY = new LiveSources(List.of(new KubeSourceKind(), new PromSourceKind(),
            new FabricPollSourceKind()));

    private StandardSources() {
    }

    /** Kubernetes, Prometheus and fabric polling, in the order menus and messages list them. */
    public static LiveSources registry() {
        return REGISTRY;
    }
}
