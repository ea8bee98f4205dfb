package org.fabricscope.app.live.prom;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import org.fabricscope.app.live.source.LiveTarget;

/**
 * A Prometheus-compatible server to read (Prometheus, VictoriaMetrics, Thanos, Mimir: the query API
 * only) and the incident window: {@code window} ending at {@code at} (null: now). Auth is a bearer
 * token read from a file, or basic auth (a user and a password read from a file), never both; a CA
 * file (PEM) adds trust for an https server. Validated when made.
 */
public record PromTarget(URI url, Path bearerTokenFile, String user, Path passwordFile, Path caFile, Instant at,
                         Duration window) implements LiveTarget {
    /** The window when none is given. */
    public static final Duration DEFAULT_WINDOW = Duration.ofHours(1);

    public PromTarget {
        if (url == null) {
            throw new IllegalArgumentException("give the Prometheus server's URL, e.g. http://prometheus:9090");
        }
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(java.util.Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || url.getHost() == null) {
            throw new IllegalArgumentException("'" + url + "' is not an http:// or https:// URL of a Prometheus server");
        }
        if (url.getRawQuery() != null || url.getRawFragment() != null) {
            throw new IllegalArgumentException("'" + url + "': give the server's base URL without a query (the API paths are added)");
        }
        if (url.getRawUserInfo() != null) {
            throw new IllegalArgumentException("'" + url.getHost() + "': give credentials with --prometheus-user and "
                    + "--prometheus-password-file, not in the URL");
        }
        if (bearerTokenFile != null && (user != null || passwordFile != null)) {
            throw new IllegalArgumentException("give a bearer-token file or a user and password file, not both");
        }
        if ((user == null) != (passwordFile == null)) {
            throw new IllegalArgumentException("basic auth needs both --prometheus-user and --prometheus-password-file");
        }
        if (caFile != null && !scheme.equals("https")) {
            throw new IllegalArgumentException("a CA file is for an https:// server; '" + url + "' is http");
        }
        window = window == null ? DEFAULT_WINDOW : window;
        if (window.compareTo(PromLimits.MIN_WINDOW) < 0 || window.compareTo(PromLimits.MAX_WINDOW) > 0) {
            throw new IllegalArgumentException("the window must be between " + PromLimits.MIN_WINDOW.toSeconds() + " s and "
                    + PromLimits.MAX_WINDOW.toDays() + " days (PromLimits.MIN_WINDOW, MAX_WINDOW)");
        }
        String path = url.getRawPath() == null ? "" : url.getRawPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        try {
            url = new URI(scheme, null, url.getHost(), url.getPort(), null, null, null).resolve(path.isEmpty() ? "/" : path + "/");
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("'" + url + "' is not a URL: " + e.getReason());
        }
    }

    /** The server alone, no auth, the last hour. */
    public static PromTarget of(String url) {
        try {
            return new PromTarget(new URI(url.strip()), null, null, null, null, null, null);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("'" + url + "' is not a URL: " + e.getReason());
        }
    }

    public PromTarget withWindow(Instant end, Duration length) {
        return new PromTarget(url, bearerTokenFile, user, passwordFile, caFile, end, length);
    }

    @Override
    public String kind() {
        return PromSourceKind.ID;
    }

    /** {@code http://prom:9090, 1 h to 2026-11-27T03:00:00Z}. */
    @Override
    public String describe() {
        long m = window.toMinutes();
        String length = m % 60 == 0 ? m / 60 + " h" : m >= 1 ? m + " min" : window.toSeconds() + " s";
        return base() + ", " + length + " to " + (at == null ? "now" : at.toString());
    }

    /** The URL as messages name it: {@code http://prom:9090} (a path prefix kept). */
    public String base() {
        String s = url.toString();
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }
}
