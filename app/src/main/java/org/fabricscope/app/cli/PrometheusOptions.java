package org.fabricscope.app.cli;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import org.fabricscope.app.live.prom.PromTarget;
import org.fabricscope.app.live.prom.PromTimes;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * A Prometheus-compatible server to read ({@code --prometheus URL}, its auth) and the incident window
 * ({@code --at}, {@code --window}); part of {@link InputOptions}. See {@code docs/prometheus.md}.
 */
final class PrometheusOptions {
    @Option(names = "--prometheus", paramLabel = "URL", description = "Also read a Prometheus-compatible server "
            + "(Prometheus, VictoriaMetrics, Thanos, Mimir; the query API only): InfiniBand counters (node_exporter, "
            + "infiniband-exporter), DCGM Xids and error counters, NCCL Inspector bus bandwidth over the incident window.")
    String url;

    @Option(names = "--prometheus-bearer-token-file", paramLabel = "FILE",
            description = "With --prometheus: send the token in this file as a bearer token.")
    Path bearerTokenFile;

    @Option(names = "--prometheus-user", paramLabel = "USER", description = "With --prometheus: basic auth as this user "
            + "(with --prometheus-password-file).")
    String user;

    @Option(names = "--prometheus-password-file", paramLabel = "FILE",
            description = "With --prometheus-user: the password, read from this file.")
    Path passwordFile;

    @Option(names = "--prometheus-ca-file", paramLabel = "FILE",
            description = "With an https --prometheus: also trust the CA certificates of this PEM file.")
    Path caFile;

    @Option(names = "--at", paramLabel = "TIME", description = "With --prometheus: the end of the incident window, "
            + "RFC 3339 (2026-11-27T03:00:00Z) or unix seconds (default: now).")
    String at;

    @Option(names = "--window", paramLabel = "DURATION", description = "With --prometheus: the incident window's length "
            + "ending at --at, e.g. 30m, 2h, 1h30m (default: 1h).")
    String window;

    boolean given() {
        return url != null;
    }

    /** The target the options describe; a usage error (status 2) for a bad value or contradictory options. */
    PromTarget target(CommandSpec command) {
        if (url == null) {
            if (bearerTokenFile != null || user != null || passwordFile != null || caFile != null || at != null || window != null) {
                throw new ParameterException(command.commandLine(), "--prometheus-bearer-token-file, --prometheus-user, "
                        + "--prometheus-password-file, --prometheus-ca-file, --at and --window go with --prometheus");
            }
            return null;
        }
        try {
            Instant end = at == null ? null : PromTimes.instant(at);
            Duration length = window == null ? null : PromTimes.duration(window);
            return new PromTarget(new URI(url.strip()), bearerTokenFile, user, passwordFile, caFile, end, length);
        } catch (URISyntaxException e) {
            throw new ParameterException(command.commandLine(), "--prometheus: '" + url + "' is not a URL: " + e.getReason());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), e.getMessage());
        }
    }
}
