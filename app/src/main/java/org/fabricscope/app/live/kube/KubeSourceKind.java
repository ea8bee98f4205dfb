package org.fabricscope.app.live.kube;

import org.fabricscope.app.live.source.LiveSource;
import org.fabricscope.app.live.source.LiveSourceKind;
import org.fabricscope.app.live.source.LiveSources;

/** Kubernetes in the live source registry: a {@link KubeTarget} opened through the kubeconfig (fabric8, read-only). */
public final class KubeSourceKind implements LiveSourceKind<KubeTarget> {
    public static final String ID = "kubernetes";

    private final KubeConnector connector;

    public KubeSourceKind() {
        this(new KubeConnector());
    }

    /** With this connector (its timeouts; tests). */
    public KubeSourceKind(KubeConnector connector) {
        this.connector = connector;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "Kubernetes cluster (kubeconfig)";
    }

    @Override
    public Class<KubeTarget> targetType() {
        return KubeTarget.class;
    }

    @Override
    public LiveSource open(KubeTarget target, LiveSources.Hints hints) throws KubeException {
        KubeConnector c = connector.withHints(hints == LiveSources.Hints.DIALOG ? KubeConnector.Hints.DIALOG
                : KubeConnector.Hints.CLI);
        return KubeLiveSource.open(c, target, KubeLiveSource.DEFAULT_BATCH_EVERY);
    }
}
