package org.fabricscope.app.live.prom;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code --at} and {@code --window} as the user writes them: RFC 3339 or unix seconds; {@code 30m}, {@code 2h}, {@code 1h30m}. */
public final class PromTimes {
    private static final Pattern UNIX = Pattern.compile("\\d{1,12}(\\.\\d{1,9})?");
    private static final Pattern PART = Pattern.compile("(\\d{1,7})(ms|s|m|h|d|w)");

    private PromTimes() {
    }

    /** A time: {@code 2026-11-27T03:00:00Z}, {@code 2026-11-27T04:00:00+01:00} or {@code 1795834800}; an IllegalArgumentException saying what is expected. */
    public static Instant instant(String text) {
        String t = text == null ? "" : text.strip();
        if (UNIX.matcher(t).matches()) {
            BigDecimal s = new BigDecimal(t);
            return Instant.ofEpochSecond(s.longValue(), s.remainder(BigDecimal.ONE).movePointRight(9).longValue());
        }
        try {
            return OffsetDateTime.parse(t).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + t + "' is not a time: give RFC 3339 (2026-11-27T03:00:00Z) or unix seconds");
        }
    }

    /** A duration: one or more of a number and a unit (ms, s, m, h, d, w), as Prometheus writes them: {@code 1h30m}. */
    public static Duration duration(String text) {
        String t = text == null ? "" : text.strip();
        Matcher m = PART.matcher(t);
        Duration d = Duration.ZERO;
        int at = 0;
        while (at < t.length() && m.find(at) && m.start() == at) {
            long n = Long.parseLong(m.group(1));
            d = d.plus(switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                case "d" -> Duration.ofDays(n);
                default -> Duration.ofDays(7 * n);
            });
            at = m.end();
        }
        if (t.isEmpty() || at != t.length()) {
            throw new IllegalArgumentException("'" + t + "' is not a duration: give e.g. 30m, 2h or 1h30m");
        }
        return d;
    }

    /** Seconds since the epoch as Prometheus' API takes them: {@code 1795834800.5}. */
    static String seconds(Instant t) {
        BigDecimal s = BigDecimal.valueOf(t.getEpochSecond()).add(BigDecimal.valueOf(t.getNano(), 9));
        return s.stripTrailingZeros().toPlainString();
    }

    /** A duration as the API's step: whole seconds ({@code 30s}). */
    static String step(Duration d) {
        return Math.max(1, d.toSeconds()) + "s";
    }
}
