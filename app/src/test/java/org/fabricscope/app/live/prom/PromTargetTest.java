package org.fabricscope.app.live.prom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Targets, times, the step floor and credential files: what the user gives, checked before any request. */
class PromTargetTest {
    @TempDir
    Path dir;

    @Test
    void timesAreRfc3339OrUnixSeconds() {
        assertEquals(Instant.parse("2026-11-27T03:00:00Z"), PromTimes.instant("2026-11-27T03:00:00Z"));
        assertEquals(Instant.parse("2026-11-27T03:00:00Z"), PromTimes.instant("2026-11-27T04:00:00+01:00"));
        assertEquals(Instant.ofEpochSecond(1795834800, 500_000_000), PromTimes.instant("1795834800.5"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PromTimes.instant("yesterday"));
        assertEquals("'yesterday' is not a time: give RFC 3339 (2026-11-27T03:00:00Z) or unix seconds", e.getMessage());
    }

    @Test
    void durationsAreWrittenAsPrometheusWritesThem() {
        assertEquals(Duration.ofMinutes(30), PromTimes.duration("30m"));
        assertEquals(Duration.ofMinutes(90), PromTimes.duration("1h30m"));
        assertEquals(Duration.ofDays(2), PromTimes.duration("2d"));
        for (String bad : new String[] {"", "30", "m", "1h 30m", "-1h", "1y"}) {
            assertThrows(IllegalArgumentException.class, () -> PromTimes.duration(bad), bad);
        }
    }

    @Test
    void theStepIsFlooredAndKeepsUnderPrometheusPointCap() {
        assertEquals(Duration.ofSeconds(15), PromApi.step(Duration.ofMinutes(10)), "never under 15 s");
        assertEquals(Duration.ofSeconds(30), PromApi.step(Duration.ofHours(1)));
        assertEquals(Duration.ofSeconds(5040), PromApi.step(Duration.ofDays(7)));
        for (Duration w : new Duration[] {Duration.ofSeconds(30), Duration.ofHours(1), Duration.ofDays(7)}) {
            Duration s = PromApi.step(w);
            assertTrue(s.compareTo(PromLimits.MIN_STEP) >= 0);
            assertTrue(w.toSeconds() / s.toSeconds() + 1 <= PromLimits.MAX_POINTS, w + " at " + s);
        }
    }

    @Test
    void aTargetRefusesWhatCannotWork() throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "abc\n");
        URI u = URI.create("http://prom:9090");
        assertEquals("give a bearer-token file or a user and password file, not both", assertThrows(
                IllegalArgumentException.class, () -> new PromTarget(u, token, "me", token, null, null, null)).getMessage());
        assertEquals("basic auth needs both --prometheus-user and --prometheus-password-file", assertThrows(
                IllegalArgumentException.class, () -> new PromTarget(u, null, "me", null, null, null, null)).getMessage());
        assertEquals("a CA file is for an https:// server; 'http://prom:9090' is http", assertThrows(
                IllegalArgumentException.class, () -> new PromTarget(u, null, null, null, token, null, null)).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PromTarget.of("ftp://prom")).getMessage()
                .contains("not an http:// or https:// URL"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PromTarget.of("http://u:p@prom:9090")).getMessage()
                .contains("not in the URL"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new PromTarget(u, null, null, null, null, null,
                Duration.ofDays(8))).getMessage().contains("MAX_WINDOW"));
        assertEquals("http://prom:9090/prefix", PromTarget.of("http://prom:9090/prefix/").base());
    }

    @Test
    void credentialsAreReadOnceAndNeverShown() throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "s3cr3t-token\n");
        PromTarget t = new PromTarget(URI.create("https://prom:9090"), token, null, null, null, null, null);
        assertEquals("Bearer s3cr3t-token", PromAuth.header(t));
        Path pass = Files.writeString(dir.resolve("pass"), "pw");
        PromTarget b = new PromTarget(URI.create("https://prom:9090"), null, "me", pass, null, null, null);
        assertEquals("Basic bWU6cHc=", PromAuth.header(b));
        Path two = Files.writeString(dir.resolve("two"), "line1\nline2\n");
        PromException e = assertThrows(PromException.class, () -> PromAuth.header(new PromTarget(URI.create("https://p"), two,
                null, null, null, null, null)));
        assertTrue(e.getMessage().contains("more than one line") && !e.getMessage().contains("line1"), e.getMessage());
        Path big = Files.write(dir.resolve("big"), new byte[PromLimits.MAX_SECRET_BYTES + 1]);
        e = assertThrows(PromException.class, () -> PromAuth.header(new PromTarget(URI.create("https://p"), big, null, null,
                null, null, null)));
        assertTrue(e.getMessage().contains("PromLimits.MAX_SECRET_BYTES"), e.getMessage());
        Path notPem = Files.writeString(dir.resolve("ca.pem"), "not a certificate");
        e = assertThrows(PromException.class, () -> PromAuth.trusting(notPem));
        assertTrue(e.getMessage().startsWith("--prometheus-ca-file " + notPem), e.getMessage());
    }
}
