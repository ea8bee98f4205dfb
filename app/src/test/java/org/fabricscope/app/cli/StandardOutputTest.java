package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import org.fabricscope.app.Main;

/** Output that cannot be written is an error, except to a pipe whose reader stopped reading. */
class StandardOutputTest {
    private static Run run(OutputStream sink, String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = FabricScopeCommand.run(args, StandardOutput.over(sink, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, err.toString(StandardCharsets.UTF_8));
    }

    record Run(int status, String err) {
    }

    private static OutputStream failing(String why) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException(why);
            }
        };
    }

    @Test
    void aFullDiskIsOneLineAndStatus74() {
        Run r = run(failing("No space left on device"), "checks");
        assertEquals(StandardOutput.WRITE_FAILED, r.status());
        assertEquals("fabricscope: could not write the output to standard output: No space left on device"
                + " (the output is incomplete)", r.err().strip());
    }

    @Test
    void aClosedPipeEndsQuietlyWithTheRunsStatus() {
        Run r = run(failing("Broken pipe"), "checks");
        assertEquals(0, r.status());
        assertEquals("", r.err());
    }

    @Test
    void aFailedRunKeepsItsOwnStatus() {
        Run r = run(failing("No space left on device"), "summary", "/nonexistent/fabric.txt");
        assertTrue(r.status() != 0 && r.status() != StandardOutput.WRITE_FAILED, r.toString());
    }

    @Test
    void everythingWrittenIsStatusZero() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Run r = run(out, "checks");
        assertEquals(0, r.status(), r.err());
        assertTrue(out.size() > 1000, "checks printed " + out.size() + " bytes");
    }

    /** The real process: {@code > /dev/full}, and a pipe closed after the first bytes. */
    @Test
    void theProcessSaysSoOnDevFullAndNotOnAClosedPipe() throws Exception {
        File full = new File("/dev/full");
        Assumptions.assumeTrue(full.exists(), "no /dev/full on this system");
        Process p = process("signatures").redirectOutput(full).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(74, p.exitValue(), err);
        assertTrue(err.startsWith("fabricscope: could not write the output to standard output: No space left on device"), err);
        assertFalse(err.contains("Exception"), err);

        // 300 KB of JSON: far more than a pipe holds, so the writer meets the closed pipe
        String fabric = Path.of(StandardOutputTest.class.getResource("/fabrics/superpod-4x4.ibnetdiscover.txt").toURI()).toString();
        Process q = process("export", "-f", "json", fabric).start();
        q.getInputStream().read(); // one byte, then the reader goes away, like head -c 1
        q.getInputStream().close();
        String qerr = new String(q.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(q.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, q.exitValue(), qerr);
        assertEquals("", qerr);
    }

    private static ProcessBuilder process(String... args) {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> cmd = new java.util.ArrayList<>(List.of(java.toString(), "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        cmd.addAll(List.of(args));
        assertTrue(Files.isExecutable(java));
        return new ProcessBuilder(cmd);
    }
}
