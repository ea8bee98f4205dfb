package org.fabricscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The same failure printed behind a launcher's prefix is the same diagnosis. Every captured GPU scenario's logs are
 * written again with a prefix on each line, as four launchers print them, and {@code diagnose --json} must find the
 * same findings (id, severity, title, subjects) citing the same lines as it finds in the logs as captured:
 * <ul>
 * <li>Slurm's {@code srun --label}: the task id zero-padded to the width of the largest, {@code "%0*d: "}
 * ({@code src/common/write_labelled_message.c});</li>
 * <li>torchrun's default worker prefix {@code [default0]:} ({@code torch/distributed/elastic}, {@code [{role}{local_rank}]:}
 * with {@code --tee} or {@code --log-dir});</li>
 * <li>a torchrun {@code --log-line-prefix-template} of the user's own, here {@code [trainer3|1]:};</li>
 * <li>pdsh, as DeepSpeed's multi-node launcher runs it: the host, {@code worker-1: }.</li>
 * </ul>
 * The diagnosis was built from captures without prefixes; this is what keeps it from depending on how a line begins.
 */
class LaunchPrefixesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, IntFunction<String>> LAUNCHERS = Map.of(
            "srun-label", n -> String.format("%02d: ", n % 12),
            "torchrun-tee", n -> "[default" + (n % 2) + "]:",
            "torchrun-template", n -> "[trainer" + (n % 3) + "|" + (n % 2) + "]:",
            "pdsh", n -> "worker-" + (n % 2) + ": ");

    @TempDir
    static Path scratch;

    @TestFactory
    Stream<DynamicTest> prefixedLogsDiagnoseTheSame() throws IOException {
        Path root = Samples.root();
        List<Path> scenarios;
        try (Stream<Path> s = Files.walk(root.resolve("gpu-captures"), 3)) {
            scenarios = s.filter(p -> p.getFileName().toString().equals("golden.inputs")).map(Path::getParent)
                    .sorted().toList();
        }
        assertTrue(scenarios.size() >= 40, "captured scenarios: " + scenarios.size());
        List<DynamicTest> tests = new ArrayList<>();
        for (Path dir : scenarios) {
            String name = root.relativize(dir).toString();
            tests.add(DynamicTest.dynamicTest(name, () -> check(root, dir, name)));
        }
        return tests.stream();
    }

    private static void check(Path root, Path dir, String name) throws IOException {
        List<String> inputs = GoldenFilesTest.inputs(root, dir);
        String plain = findings(copy(dir, inputs, scratch.resolve("plain").resolve(name), null));
        for (Map.Entry<String, IntFunction<String>> launcher : LAUNCHERS.entrySet()) {
            Path to = scratch.resolve(launcher.getKey()).resolve(name);
            String prefixed = findings(copy(dir, inputs, to, launcher.getValue()));
            assertEquals(plain, prefixed, name + " with every log line prefixed as " + launcher.getKey() + " prints it");
        }
    }

    /** The scenario's inputs copied under {@code to}; each line of a {@code .log} file prefixed when {@code prefix} is set. */
    private static List<String> copy(Path dir, List<String> inputs, Path to, IntFunction<String> prefix) throws IOException {
        List<String> args = new ArrayList<>();
        Path cwd = Path.of("").toAbsolutePath();
        for (String input : inputs) {
            Path from = cwd.resolve(input).normalize();
            Path target = to.resolve(dir.relativize(from).toString());
            Files.createDirectories(target.getParent());
            if (Files.isDirectory(from)) {
                copyTree(from, target);
            } else if (prefix != null && from.getFileName().toString().endsWith(".log")) {
                prefixLines(from, target, prefix);
            } else {
                Files.copy(from, target);
            }
            args.add(target.toString());
        }
        return args;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        }
    }

    /** Latin-1 both ways, so that every byte of the capture is kept as it was. */
    private static void prefixLines(Path from, Path to, IntFunction<String> prefix) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(from, StandardCharsets.ISO_8859_1);
                BufferedWriter out = Files.newBufferedWriter(to, StandardCharsets.ISO_8859_1)) {
            int n = 0;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                out.write(prefix.apply(n++));
                out.write(line);
                out.write('\n');
            }
        }
    }

    /**
     * What {@code diagnose --json} of {@code args} finds, one finding a line: id, severity, title, subjects and the
     * file and line of each piece of evidence, with the copy's folder written as {@code ROOT}.
     */
    private static String findings(List<String> args) throws IOException {
        List<String> command = new ArrayList<>(List.of("diagnose", "--json"));
        command.addAll(args);
        JsonNode out = JSON.readTree(GoldenFilesTest.run(command));
        String base = Path.of(args.get(0)).getParent().toString();
        for (String a : args) {
            base = commonFolder(base, Path.of(a).getParent().toString());
        }
        StringBuilder b = new StringBuilder();
        for (JsonNode f : out.get("findings")) {
            b.append(f.get("id").asText()).append(' ').append(f.get("severity").asText()).append(' ')
                    .append(f.get("title").asText()).append(" | ").append(f.get("subjects"));
            for (JsonNode e : f.path("evidence")) {
                b.append(" | ").append(e.path("source").asText()).append(':').append(e.path("line").asText());
            }
            b.append('\n');
        }
        assertTrue(base.startsWith(scratch.toString()), "inputs copied under " + scratch + ": " + args);
        return b.toString().replace(base, "ROOT");
    }

    private static String commonFolder(String a, String b) {
        Path p = Path.of(a);
        while (p != null && !Path.of(b).startsWith(p)) {
            p = p.getParent();
        }
        return p == null ? "" : p.toString();
    }
}
