package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The CLI against hostile inputs: options naming special files, flow folders of FIFOs, devices and broken
 * links, placeholder bombs, control characters that would drive the terminal, and running out of memory
 * or stack. Every case ends quickly with one clear line, and what can still run does.
 */
class CliHostileInputTest {
    @TempDir
    Path dir;
    Path fabric;

    @BeforeEach
    void copyFabric() throws IOException {
        fabric = dir.resolve("two-tier.ibnetdiscover.txt");
        try (InputStream in = CliHostileInputTest.class.getResourceAsStream("/fabrics/two-tier.ibnetdiscover.txt")) {
            Files.copy(in, fabric);
        }
    }

    private static CliTest.Run run(String... args) {
        return assertTimeoutPreemptively(Duration.ofSeconds(60), () -> CliTest.run(args));
    }

    private static boolean fifo(Path p) throws IOException, InterruptedException {
        return new ProcessBuilder("mkfifo", p.toString()).start().waitFor() == 0;
    }

    private static void assertNoRawControls(String s) {
        for (char c : s.toCharArray()) {
            assertFalse(ControlEscapingWriter.escaped(c) || c == '\r', "raw control U+" + Integer.toHexString(c) + " in: " + s);
        }
    }

    @Test
    void thresholdsNamingASpecialOrHugeFileIsRefusedInOneLine() throws Exception {
        CliTest.Run zero = run("summary", "--thresholds", "/dev/zero", fabric.toString());
        assertEquals(1, zero.status());
        assertEquals("fabricscope: --thresholds /dev/zero: not a regular file (a character device)", zero.err().strip());

        Path sparse = dir.resolve("thresholds.conf");
        try (RandomAccessFile f = new RandomAccessFile(sparse.toFile(), "rw")) {
            f.setLength(3L << 30);
        }
        CliTest.Run big = run("summary", "--thresholds", sparse.toString(), fabric.toString());
        assertEquals(1, big.status());
        assertTrue(big.err().contains("larger than " + OptionFiles.MAX_THRESHOLDS_BYTES + " bytes"), big.err());

        Path pipe = dir.resolve("thresholds.fifo");
        if (fifo(pipe)) {
            CliTest.Run p = run("summary", "--thresholds", pipe.toString(), fabric.toString());
            assertEquals(1, p.status());
            assertTrue(p.err().contains("not a regular file (a FIFO)"), p.err());
        }
        Path dangling = Files.createSymbolicLink(dir.resolve("gone.conf"), dir.resolve("nowhere"));
        CliTest.Run d = run("summary", "--thresholds", dangling.toString(), fabric.toString());
        assertTrue(d.err().contains("a symbolic link that leads nowhere"), d.err());
    }

    @Test
    void kubeconfigAndFlowsOptionsNamingSpecialFilesAreRefused() throws IOException {
        CliTest.Run k = run("summary", "--kube", "--kubeconfig", "/dev/zero");
        assertEquals(1, k.status());
        assertTrue(k.err().contains("--kubeconfig /dev/zero: not a regular file (a character device)"), k.err());
        Path link = Files.createSymbolicLink(dir.resolve("flows"), Path.of("/dev/zero"));
        CliTest.Run f = run("diagnose", "--flows", link.toString(), fabric.toString());
        assertEquals(1, f.status());
        assertTrue(f.err().contains("--flows " + link + ": not a folder (a character device)"), f.err());
    }

    @Test
    void aFlowFolderOfSpecialFilesAndBombsDoesNotStopTheDiagnosis() throws Exception {
        Path flows = Files.createDirectory(dir.resolve("my-flows"));
        Files.writeString(flows.resolve("mine.json"), FlowsCliTest.MY_FLOW);
        Files.createSymbolicLink(flows.resolve("dangling.json"), dir.resolve("nowhere"));
        Files.createSymbolicLink(flows.resolve("loop.json"), flows.resolve("loop.json"));
        Files.createSymbolicLink(flows.resolve("zero.json"), Path.of("/dev/zero"));
        fifo(flows.resolve("fifo.json"));
        Files.writeString(flows.resolve("spaces.json"), "{\"id\": \"spaces\", \"title\": \"{{" + " ".repeat(500_000) + "\"}");

        CliTest.Run r = run("diagnose", "--json", "--flows", flows.toString(), fabric.toString());
        assertEquals(0, r.status(), r.err());
        JsonNode doc = new ObjectMapper().readTree(r.out());
        boolean mine = false;
        for (JsonNode f : doc.get("flows")) {
            mine |= f.get("id").asText().equals("my-check");
        }
        assertTrue(mine, "the good user flow ran");
        assertTrue(r.err().contains("dangling.json: a symbolic link that leads nowhere: skipped"), r.err());
        assertTrue(r.err().contains("zero.json: not a regular file (a character device): skipped"), r.err());
        assertTrue(r.err().contains("loop.json: a symbolic link that cannot be followed"), r.err());
    }

    @Test
    void controlCharactersFromAnswersAndInputsReachNoTerminal() throws IOException {
        String esc = "\u001b]0;pwned\u0007\u001b[2J\r";
        CliTest.Run a = run("diagnose", "--answer", "x" + esc + "/y=yes", fabric.toString());
        assertEquals(2, a.status());
        assertTrue(a.err().contains("\\u001b]0;pwned\\u0007\\u001b[2J\\u000d"), a.err());
        assertNoRawControls(a.err());

        Path hostile = dir.resolve("hostile.ibnetdiscover.txt");
        Files.writeString(hostile, Files.readString(fabric).replace("MF0;leaf-01:", "MF0;leaf\u001b[31m\u009b2J\u202e-01:"));
        for (String cmd : new String[] {"summary", "diagnose"}) {
            CliTest.Run t = run(cmd, hostile.toString());
            assertEquals(0, t.status(), t.err());
            assertNoRawControls(t.out());
            assertNoRawControls(t.err());
        }
        CliTest.Run json = run("export", "-f", "json", hostile.toString());
        assertNoRawControls(json.out());
        int at = json.out().indexOf("leaf\\u");
        assertTrue(at >= 0, json.out());
        assertEquals("leaf\\u001B[31m\\u009b2J\\u202e-01", json.out().substring(at, at + 31), "the names keep their characters as JSON escapes");
        JsonNode doc = new ObjectMapper().readTree(json.out());
        assertTrue(doc.toString().contains("leaf\\u001B[31m") || doc.findValuesAsText("name").stream()
                .anyMatch(n -> n.contains("leaf\u001b[31m\u009b2J\u202e-01")), "valid JSON that reads back the same name");

        Path named = Files.writeString(dir.resolve("bad\u001b[2Jname.txt"), "nothing a reader knows\n");
        CliTest.Run n = run("summary", named.toString());
        assertNoRawControls(n.out());
        assertNoRawControls(n.err());
    }

    @Test
    void theWriterKeepsLineEndsAndTextAndEscapesTheRest() {
        StringWriter w = new StringWriter();
        try (PrintWriter p = new PrintWriter(new ControlEscapingWriter(w))) {
            p.print("a\tb\r\nc\u001bd\re\u007f\u0085 \u00e9\u65e5\n");
        }
        assertEquals("a\tb\r\nc\\u001bd\\u000de\\u007f\\u0085 \u00e9\u65e5\n", w.toString());
        assertEquals("x\\u0007", ControlEscapingWriter.escape("x\u0007"));
    }

    @Test
    void runningOutOfMemoryOrStackIsOneLineNamingTheInput() {
        String[] args = {"diagnose", fabric.toString(), "--json"};
        StringWriter w = new StringWriter();
        assertEquals(70, FabricScopeCommand.fatal(new OutOfMemoryError("Java heap space"), args, new PrintWriter(w)));
        String line = w.toString().strip();
        assertTrue(line.startsWith("fabricscope: out of memory while reading " + fabric + " (the Java heap is limited to "), line);
        assertFalse(line.contains("\n") || line.contains("Exception") || line.contains("java.lang"), line);

        StringWriter s = new StringWriter();
        FabricScopeCommand.fatal(new StackOverflowError(), new String[] {"summary"}, new PrintWriter(s));
        assertTrue(s.toString().startsWith("fabricscope: stack overflow: "), s.toString());
        assertFalse(s.toString().strip().contains("\n"), s.toString());
    }

    @Test
    void withNoRoomEvenForTheInputsNamesTheLineStillSaysOutOfMemory() {
        StringWriter w = new StringWriter();
        // the first line written finds no heap, as when what the failed command held is still live
        java.io.Writer full = new java.io.Writer() {
            private boolean failed;

            @Override
            public void write(char[] cbuf, int off, int len) {
                if (!failed) {
                    failed = true;
                    throw new OutOfMemoryError("Java heap space");
                }
                w.write(cbuf, off, len);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        assertEquals(70, FabricScopeCommand.fatal(new OutOfMemoryError("Java heap space"), new String[] {"summary", fabric.toString()},
                new PrintWriter(full)));
        String line = w.toString().strip();
        assertTrue(line.startsWith("fabricscope: out of memory: give it more with FABRICSCOPE_JAVA_OPTS=-Xmx8g"), line);
        assertFalse(line.contains("\n"), line);
    }
}
