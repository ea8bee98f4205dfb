package org.fabricscope.app.live.prom;

import org.fabricscope.app.live.source.LiveSource;
import org.fabricscope.app.live.source.LiveSourceKind;
import org.fabricscope.app.live.source.LiveSources;

/**
 * A Prometheus-compatible server (Prometheus, VictoriaMetrics, Thanos, Mimir) in the live source
 * registry: a {@link PromTarget} read through the query API only ({@code docs/prometheus.md}).
 */
public final class PromSourceKind implements LiveSourceKind<PromTarget> {
    public static final String ID = "prometheus";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "Prometheus-compatible server (query API)";
    }

    @Override
    public Class<PromTarget> targetType() {
        return PromTarget.class;
    }

    /** Opening checks the credential and CA files at once; the server is first asked by the first read. */
    @Override
    public LiveSource open(PromTarget target, LiveSources.Hints hints) throws PromException {
        PromAuth.header(target);
        if (target.caFile() != null) {
            PromAuth.trusting(target.caFile());
        }
        return new PromLiveSource(target);
    }
}
