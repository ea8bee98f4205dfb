package org.fabricscope.app.live.prom;

import org.fabricscope.app.live.source.LiveSourceException;

/** A Prometheus server could not be read: one line naming the URL and what went wrong. */
public final class PromException extends LiveSourceException {
    private static final long serialVersionUID = 1L;

    public PromException(String message) {
        super(message);
    }
}
