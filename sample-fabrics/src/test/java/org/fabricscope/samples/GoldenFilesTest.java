package org.fabricscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.fabricscope.app.cli.FabricScopeCommand;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Every bundled scenario (a folder with a {@code golden.inputs} list) against the
 * {@code expected-summary.json} and {@code expected-diagnose.json} beside it: the CLI's own
 * {@code summary --json} and {@code diagnose --json} output, so a change in what a sample reads or
 * diagnoses shows up as a reviewed diff of those files in the commit.
 *
 * <p>To rewrite them after an intended change: {@code ./mvnw -B verify -Dfabricscope.golden.rewrite=true}
 * (then review {@code git diff sample-fabrics}). The same switch rewrites the README's check table.
 */
class GoldenFilesTest {
    static final boolean REWRITE = Boolean.getBoolean("fabricscope.golden.rewrite");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TestFactory
    Stream<DynamicTest> scenariosMatchTheirGoldenFiles() throws IOException {
        Path root = Samples.root();
        List<Path> scenarios;
        try (Stream<Path> s = Files.walk(root, 4)) {
            scenarios = s.filter(p -> p.getFileName().toString().equals("golden.inputs")).map(Path::getParent)
                    .filter(p -> !p.startsWith(root.resolve("target"))).sorted().toList();
        }
        assertTrue(scenarios.size() >= 7, "scenarios with golden.inputs: " + scenarios);
        List<DynamicTest> tests = new ArrayList<>();
        for (Path dir : scenarios) {
            String name = root.relativize(dir).toString();
            tests.add(DynamicTest.dynamicTest(name + " summary", () -> check(root, dir, "summary")));
            tests.add(DynamicTest.dynamicTest(name + " diagnose", () -> check(root, dir, "diagnose")));
        }
        return tests.stream();
    }

    private static void check(Path root, Path dir, String command) throws IOException {
        List<String> args = new ArrayList<>(List.of(command, "--json"));
        args.addAll(inputs(root, dir));
        String out = run(args);
        // Sources are named as given on the command line: relative to the samples folder, whatever the cwd.
        String prefix = cwdPrefix(root);
        if (!prefix.isEmpty()) {
            out = out.replace(prefix, "");
        }
        Path expectedFile = dir.resolve("expected-" + command + ".json");
        JsonNode actual = JSON.readTree(out);
        if (command.equals("diagnose")) {
            assertFindingsAreCatalogued(actual);
        }
        if (REWRITE) {
            Files.writeString(expectedFile, out.endsWith("\n") ? out : out + "\n", StandardCharsets.UTF_8);
            return;
        }
        if (!Files.exists(expectedFile)) {
            fail(expectedFile + " is missing; write it with -Dfabricscope.golden.rewrite=true and review it");
        }
        JsonNode expected = JSON.readTree(expectedFile.toFile());
        if (!expected.equals(actual)) {
            fail(Samples.root().relativize(expectedFile) + " differs from `fabricscope " + String.join(" ", args)
                    + "` at " + firstDifference("", expected, actual)
                    + ". If the change is intended, rewrite with -Dfabricscope.golden.rewrite=true and review the diff.");
        }
    }

    /** Every finding's id is in {@code fabricscope checks}, and its subjects come with typed refs, one per label. */
    private static void assertFindingsAreCatalogued(JsonNode diagnose) throws IOException {
        java.util.Set<String> catalogue = new java.util.HashSet<>();
        JSON.readTree(run(List.of("checks", "--json"))).forEach(n -> catalogue.add(n.get("id").asText()));
        for (JsonNode f : diagnose.get("findings")) {
            assertTrue(catalogue.contains(f.get("id").asText()), "not in the catalogue: " + f.get("id"));
            JsonNode refs = f.get("refs");
            assertTrue(refs != null && refs.size() > 0, "no refs: " + f.get("title"));
            assertEquals(f.get("subjects").size(), refs.size(), "refs and subjects of " + f.get("title"));
            for (int i = 0; i < refs.size(); i++) {
                assertEquals(f.get("subjects").get(i), refs.get(i).get("label"));
                assertTrue(refs.get(i).hasNonNull("kind"), refs.get(i).toString());
            }
        }
    }

    /** The path and values of the first difference, for a message a person can act on. */
    static String firstDifference(String at, JsonNode a, JsonNode b) {
        if (a.getNodeType() != b.getNodeType()) {
            return at + ": expected " + a + ", got " + b;
        }
        if (a.isObject()) {
            for (Map.Entry<String, JsonNode> e : a.properties()) {
                if (!b.has(e.getKey())) {
                    return at + "/" + e.getKey() + ": missing";
                }
                if (!e.getValue().equals(b.get(e.getKey()))) {
                    return firstDifference(at + "/" + e.getKey(), e.getValue(), b.get(e.getKey()));
                }
            }
            for (Map.Entry<String, JsonNode> e : b.properties()) {
                String k = e.getKey();
                if (!a.has(k)) {
                    return at + "/" + k + ": new field " + b.get(k);
                }
            }
        } else if (a.isArray()) {
            for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
                if (!a.get(i).equals(b.get(i))) {
                    return firstDifference(at + "/" + i, a.get(i), b.get(i));
                }
            }
            return at + ": " + a.size() + " elements expected, " + b.size() + " found";
        }
        return at + ": expected " + a + ", got " + b;
    }

    /** The scenario's inputs: one path per line relative to its folder, '#' comments, a glob in the last part. */
    static List<String> inputs(Path root, Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        String prefix = cwdPrefix(root);
        for (String raw : Files.readAllLines(dir.resolve("golden.inputs"), StandardCharsets.UTF_8)) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            Path p = dir.resolve(line).normalize();
            List<Path> matched = new ArrayList<>();
            if (p.getFileName().toString().contains("*")) {
                try (DirectoryStream<Path> ds = Files.newDirectoryStream(p.getParent(), p.getFileName().toString())) {
                    ds.forEach(matched::add);
                }
                matched.sort(null);
            } else {
                matched.add(p);
            }
            assertTrue(!matched.isEmpty() && Files.exists(matched.get(0)), dir + "/golden.inputs names a missing input: " + line);
            for (Path m : matched) {
                out.add(prefix + root.relativize(m).toString().replace('\\', '/'));
            }
        }
        return out;
    }

    /** The samples folder relative to the working directory, with a trailing '/', or "" when they are the same. */
    private static String cwdPrefix(Path root) {
        Path cwd = Path.of("").toAbsolutePath();
        String rel = cwd.relativize(root.toAbsolutePath()).toString().replace('\\', '/');
        return rel.isEmpty() ? "" : rel + "/";
    }

    static String run(List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = FabricScopeCommand.run(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, "fabricscope " + String.join(" ", args) + ": " + err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }
}
