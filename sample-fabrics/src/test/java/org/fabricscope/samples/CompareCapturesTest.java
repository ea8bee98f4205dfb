package org.fabricscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import org.fabricscope.app.cli.FabricScopeCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * {@code fabricscope compare} on real captures: the InfiniBand simulator's fat tree before and after a cable was
 * unplugged and symbol errors rose ({@code compare/fat-tree-before/} against {@code fat-tree-3tier-small/}, the
 * same net file), and two real training runs whose NCCL environments differ (the slow-job captures' {@code healthy}
 * and {@code env-drift-slow-socket-tuning}). Each output format is checked against its golden file in
 * {@code compare/} (rewritten with {@code -Dfabricscope.golden.rewrite=true}), and the facts the comparison must
 * show are asserted on their own.
 */
class CompareCapturesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static List<String> fabricArgs() throws IOException {
        Path root = Samples.root();
        List<String> args = new ArrayList<>();
        for (Path p : Samples.captureFiles(root.resolve("compare/fat-tree-before"))) {
            args.add("--old");
            args.add(root.relativize(p).toString());
        }
        for (Path p : Samples.captureFiles(root.resolve("fat-tree-3tier-small"))) {
            args.add("--new");
            args.add(root.relativize(p).toString());
        }
        return args;
    }

    private static List<String> trainingArgs() {
        List<String> args = new ArrayList<>();
        String base = "gpu-captures/slow-h200x2-nccl-2.28.9/";
        for (String side : List.of("healthy", "env-drift-slow-socket-tuning")) {
            String opt = side.equals("healthy") ? "--old" : "--new";
            for (String f : List.of("trainer-worker-0.log", "trainer-worker-1.log", "fr/nccl_trace_rank_0", "fr/nccl_trace_rank_1")) {
                args.add(opt);
                args.add(base + side + "/" + f);
            }
        }
        return args;
    }

    @Test
    void unpluggedCableAndRaisedCountersShow() throws IOException {
        JsonNode doc = JSON.readTree(golden("fat-tree", fabricArgs()));
        JsonNode changes = doc.get("changes");
        assertEquals(1, changes.size(), changes.toString());
        JsonNode cable = changes.get(0);
        assertEquals("fabric", cable.get("layer").asText());
        assertEquals("removed", cable.get("kind").asText());
        assertTrue(cable.get("subject").asText().contains("agg-p1-01 port 5") && cable.get("subject").asText().contains("core-01 port 1"),
                cable.toString());
        JsonNode symbol = find(doc.get("counters"), "SymbolErrorCounter");
        assertEquals("leaf-p3-04 port 7", symbol.get("port").asText());
        assertEquals(12, symbol.get("old").asLong());
        assertEquals(1436, symbol.get("new").asLong());
        assertEquals(1424, symbol.get("increase").asLong());
        assertTrue(symbol.get("perHour").isNull(), "perfquery prints no time: no rate");
        JsonNode added = doc.get("findings").get("new");
        assertEquals(1, added.size());
        assertEquals("link-down", added.get(0).get("id").asText());
        assertEquals(0, doc.get("findings").get("resolved").size());
        assertEquals(3, doc.get("summary").get("findingsUnchanged").asInt());
    }

    @Test
    void differentNcclEnvironmentsShow() throws IOException {
        JsonNode doc = JSON.readTree(golden("nccl-env", trainingArgs()));
        List<String> seen = new ArrayList<>();
        for (JsonNode c : doc.get("changes")) {
            assertEquals("training", c.get("layer").asText());
            seen.add(c.get("subject").asText() + " " + c.get("field").asText() + " " + c.get("old").asText() + "->" + c.get("new").asText());
        }
        assertEquals(List.of("trainer-worker-0 NCCL_NSOCKS_PERTHREAD null->4", "trainer-worker-0 NCCL_SOCKET_NTHREADS null->4"), seen);
        JsonNode added = doc.get("findings").get("new");
        assertEquals(1, added.size(), added.toString());
        assertEquals("config-drift", added.get(0).get("id").asText());
        assertEquals(0, doc.get("findings").get("resolved").size(), "the same TCP fallback in both runs is unchanged");
    }

    /**
     * A host's HCAs before and after a firmware upgrade ({@code compare/host-upgrade-before/} against
     * {@code host-evidence/}): the firmware of every HCA, mlx5_3's active MTU and its port state (Active, then stuck
     * in Init) change; {@code port-not-active} is new.
     */
    @Test
    void firmwareMtuAndPortStateChangesShow() throws IOException {
        List<String> args = new ArrayList<>();
        for (String f : List.of("ibstat.txt", "ibv_devinfo-v.txt", "gids.txt", "ulimit-a.txt", "ls-dev-infiniband.txt")) {
            args.addAll(List.of("--old", "compare/host-upgrade-before/dgx-su1-h05/" + f, "--new", "host-evidence/dgx-su1-h05/" + f));
        }
        JsonNode doc = JSON.readTree(golden("host-upgrade", args));
        List<String> seen = new ArrayList<>();
        for (JsonNode c : doc.get("changes")) {
            assertEquals("hosts", c.get("layer").asText(), c.toString());
            assertEquals("dgx-su1-h05", c.get("subject").asText(), c.toString());
            seen.add(c.get("field").asText() + " " + c.get("old").asText() + "->" + c.get("new").asText());
        }
        assertTrue(seen.contains("mlx5_0 firmware 20.33.1048->20.35.1012"), seen.toString());
        assertTrue(seen.contains("mlx5_7 firmware 20.33.1048->20.35.1012"), seen.toString());
        assertTrue(seen.contains("mlx5_3 port 1 active mtu 2048->4096"), seen.toString());
        assertTrue(seen.contains("mlx5_3 port 1 state ACTIVE->INIT"), seen.toString());
        assertEquals(10, seen.size(), "8 firmwares, one MTU, one state; nothing else differs: " + seen);
        List<String> added = new ArrayList<>();
        doc.get("findings").get("new").forEach(f -> added.add(f.get("id").asText()));
        assertEquals(List.of("port-not-active"), added);
    }

    @Test
    void theSameCaptureAgainstItselfHasNoChange() throws IOException {
        List<String> args = new ArrayList<>(List.of("compare", "--format", "json"));
        for (Path p : Samples.captureFiles(Samples.root().resolve("fat-tree-3tier-small"))) {
            args.addAll(List.of("--old", p.toString(), "--new", p.toString()));
        }
        JsonNode doc = JSON.readTree(run(args));
        assertEquals(0, doc.get("changes").size());
        assertEquals(0, doc.get("counters").size());
        assertEquals(0, doc.get("findings").get("new").size());
        assertEquals(4, doc.get("findings").get("unchanged").size());
    }

    /** Bundles as {@code diagnose} reads them: the two captures as .tar.gz give the same changes as the files. */
    @Test
    void bundlesCompareLikeTheirFiles(@TempDir Path tmp) throws IOException {
        Path root = Samples.root();
        Path before = tarGz(tmp.resolve("before.tar.gz"), Samples.captureFiles(root.resolve("compare/fat-tree-before")));
        Path after = tarGz(tmp.resolve("after.tar.gz"), Samples.captureFiles(root.resolve("fat-tree-3tier-small")));
        JsonNode bundles = JSON.readTree(run(List.of("compare", "--format", "json", before.toString(), after.toString())));
        List<String> args = new ArrayList<>(List.of("compare", "--format", "json"));
        args.addAll(fabricArgs());
        JsonNode files = JSON.readTree(run(args));
        assertEquals(files.get("changes"), bundles.get("changes"));
        assertEquals(files.get("counters"), bundles.get("counters"));
        assertEquals(files.get("summary"), bundles.get("summary"));
    }

    @Test
    void missingNewIsAUsageError() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = FabricScopeCommand.run(new String[] {"compare", "fat-tree-3tier-small"}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, status);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("'NEW'"), err.toString(StandardCharsets.UTF_8));
    }

    /** A side with nothing readable fails with status 1, naming that side and the file; nothing is printed to stdout. */
    @Test
    void anUnreadableSideIsNamed(@TempDir Path tmp) throws IOException {
        Path junk = Files.writeString(tmp.resolve("notes.txt"), "\u0000\u0001 not a dump\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = FabricScopeCommand.run(new String[] {"compare", Samples.root().resolve("fat-tree-3tier-small").toString(),
                junk.toString()}, new PrintStream(out), new PrintStream(err, true, StandardCharsets.UTF_8));
        String e = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, status, e);
        assertTrue(e.contains("new capture") && e.contains("notes.txt"), e);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
        assertTrue(!e.contains("Exception") && !e.contains("\tat "), e);
    }

    private static JsonNode find(JsonNode counters, String name) {
        for (JsonNode c : counters) {
            if (c.get("counter").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no " + name + " in " + counters);
    }

    /** Runs compare in the three formats against {@code compare/NAME.expected.*}; returns the JSON. */
    private static String golden(String name, List<String> inputs) throws IOException {
        String json = null;
        for (String format : List.of("text", "markdown", "json")) {
            List<String> args = new ArrayList<>(List.of("compare", "--format", format));
            args.addAll(inputs);
            String out = run(args);
            String ext = switch (format) {
                case "text" -> "txt";
                case "markdown" -> "md";
                default -> "json";
            };
            Path file = Samples.root().resolve("compare/" + name + ".expected." + ext);
            if (GoldenFilesTest.REWRITE) {
                Files.writeString(file, out, StandardCharsets.UTF_8);
            } else if (!Files.exists(file)) {
                fail(file + " is missing; write it with -Dfabricscope.golden.rewrite=true and review it");
            } else if (format.equals("json")) {
                assertEquals(JSON.readTree(file.toFile()), JSON.readTree(out), file + " differs (rewrite with -Dfabricscope.golden.rewrite=true)");
            } else {
                assertEquals(Files.readString(file, StandardCharsets.UTF_8), out, file + " differs (rewrite with -Dfabricscope.golden.rewrite=true)");
            }
            json = format.equals("json") ? out : json;
        }
        return json;
    }

    static String run(List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = FabricScopeCommand.run(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, "fabricscope " + String.join(" ", args) + ": " + err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    /** A minimal ustar .tar.gz of the files, flat (names up to 100 bytes). */
    static Path tarGz(Path to, List<Path> files) throws IOException {
        try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(to))) {
            for (Path f : files) {
                byte[] data = Files.readAllBytes(f);
                byte[] h = new byte[512];
                put(h, 0, f.getFileName().toString());
                put(h, 100, "0000644");
                put(h, 108, "0000000");
                put(h, 116, "0000000");
                put(h, 124, String.format("%011o", data.length));
                put(h, 136, "00000000000");
                h[156] = '0';
                put(h, 257, "ustar");
                put(h, 263, "00");
                java.util.Arrays.fill(h, 148, 156, (byte) ' ');
                int sum = 0;
                for (byte b : h) {
                    sum += b & 0xff;
                }
                put(h, 148, String.format("%06o", sum));
                h[154] = 0;
                o.write(h);
                o.write(data);
                o.write(new byte[(512 - data.length % 512) % 512]);
            }
            o.write(new byte[1024]);
        }
        return to;
    }

    private static void put(byte[] h, int at, String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(b, 0, h, at, b.length);
    }
}
