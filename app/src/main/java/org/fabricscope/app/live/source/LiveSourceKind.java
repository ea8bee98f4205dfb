package org.fabricscope.app.live.source;

/**
 * One kind of live source in the {@link LiveSources registry}: a stable id, a label, the target
 * type it opens and how to open one.
 *
 * @param <T> the kind's target
 */
public interface LiveSourceKind<T extends LiveTarget> {
    /** Stable id: {@code kubernetes}. Targets name it in {@link LiveTarget#kind()}. */
    String id();

    /** For menus and messages: {@code Kubernetes cluster (kubeconfig)}. */
    String label();

    Class<T> targetType();

    /**
     * Opens the target within {@link LiveDeadlines#CONNECT}: configuration and credentials are checked
     * here, so a wrong context or an unreachable server fails at once, in one line.
     */
    LiveSource open(T target, LiveSources.Hints hints) throws LiveSourceException;
}
