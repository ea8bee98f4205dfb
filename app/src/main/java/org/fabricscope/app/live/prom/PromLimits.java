package org.fabricscope.app.live.prom;

import java.time.Duration;

import org.fabricscope.app.live.source.LiveDeadlines;

/**
 * The bounds of every Prometheus read ({@code docs/formats.md}, "Limits"; {@code docs/prometheus.md}).
 * Past one, the read stops with one line naming the limit and the URL; nothing is cut silently.
 */
public final class PromLimits {
    /** To open a TCP (and TLS) connection. */
    public static final Duration CONNECT = Duration.ofSeconds(5);
    /** One request, from sending it to the last byte of the reply (a server that trickles is cut here). */
    public static final Duration REQUEST = Duration.ofSeconds(20);
    /** A one-shot read in all, opening included: {@link LiveDeadlines#ONE_SHOT}. */
    public static final Duration ONE_SHOT = LiveDeadlines.ONE_SHOT;
    /** Series one query may return; a larger reply is refused, naming this limit. */
    public static final int MAX_SERIES = 100_000;
    /** The smallest step a range query asks for (a scrape interval's usual 15 s). */
    public static final Duration MIN_STEP = Duration.ofSeconds(15);
    /** Points per series a range query may ask for: Prometheus' own cap (11,000). */
    public static final int MAX_POINTS = 11_000;
    /** Samples per series over the incident window that the step aims at (then floored at {@link #MIN_STEP}). */
    public static final int WINDOW_SAMPLES = 120;
    /** The longest incident window. */
    public static final Duration MAX_WINDOW = Duration.ofDays(7);
    /** The shortest incident window (two steps at the floor). */
    public static final Duration MIN_WINDOW = Duration.ofSeconds(30);
    /** Bytes of one reply. */
    public static final int MAX_REPLY_BYTES = 128 << 20;
    /** Bytes of a bearer-token or password file. */
    public static final int MAX_SECRET_BYTES = 64 << 10;
    /** Bytes of a CA file (PEM). */
    public static final int MAX_CA_BYTES = 1 << 20;
    /** Link flaps, Xids and GPU counter events kept per read (the timeline shows when they began). */
    public static final int MAX_EVENTS = 10_000;

    private PromLimits() {
    }
}
