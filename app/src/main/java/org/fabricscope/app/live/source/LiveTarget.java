package org.fabricscope.app.live.source;

/**
 * What to read from one live source: a Kubernetes context, namespace and job; later a Prometheus
 * URL and query. Immutable, validated when made (a bad value is an {@link IllegalArgumentException}
 * with a message for the user). The CLI options and the connect dialog make targets; only the
 * {@link LiveSources registry} opens them.
 */
public interface LiveTarget {
    /** The {@link LiveSourceKind#id() id} of the kind that opens this target. */
    String kind();

    /** One line for a status bar: {@code prod/team-a job bert}. */
    String describe();
}
