package org.fabricscope.app.live.kube;

import org.fabricscope.app.live.source.LiveSourceException;

/**
 * A live read that could not be done at all: a wrong context, refused credentials, an unreachable
 * API server. The message is one line meant for the user (see {@link KubeErrors}); there is no
 * stack trace to show.
 */
public final class KubeException extends LiveSourceException {
    private static final long serialVersionUID = 1L;

    public KubeException(String message) {
        super(message);
    }
}
