package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --prometheus} and its options on the reading commands: usage errors (status 2) and one-line failures (status 1). */
class PrometheusOptionsTest {
    @TempDir
    Path dir;

    @Test
    void theWindowOptionsGoWithPrometheus() {
        CliTest.Run r = CliTest.run("diagnose", "--at", "1795834800");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("--at and --window go with --prometheus"), r.err());
    }

    @Test
    void badValuesAreUsageErrorsSayingWhatIsExpected() {
        CliTest.Run r = CliTest.run("summary", "--prometheus", "http://127.0.0.1:9", "--window", "an hour");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("'an hour' is not a duration: give e.g. 30m, 2h or 1h30m"), r.err());
        r = CliTest.run("timeline", "--prometheus", "http://127.0.0.1:9", "--at", "noon");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("'noon' is not a time"), r.err());
        r = CliTest.run("diagnose", "--prometheus", "prom:9090");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("is not an http:// or https:// URL"), r.err());
        r = CliTest.run("diagnose", "--prometheus", "http://127.0.0.1:9", "--prometheus-user", "me");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("basic auth needs both --prometheus-user and --prometheus-password-file"), r.err());
    }

    @Test
    void aRefusedServerIsOneLineWithStatusOne() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        CliTest.Run r = CliTest.run("diagnose", "--prometheus", "http://127.0.0.1:" + port);
        assertEquals(1, r.status(), r.err());
        assertEquals("fabricscope: http://127.0.0.1:" + port + "/api/v1/status/buildinfo refused the connection "
                + "(nothing listens there?)", r.err().strip());
    }

    @Test
    void aMissingTokenFileIsNamed() {
        CliTest.Run r = CliTest.run("diagnose", "--prometheus", "http://127.0.0.1:9", "--prometheus-bearer-token-file",
                dir.resolve("none").toString());
        assertEquals(1, r.status(), r.err());
        assertTrue(r.err().contains("--prometheus-bearer-token-file " + dir.resolve("none") + " is not a readable file"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }
}
