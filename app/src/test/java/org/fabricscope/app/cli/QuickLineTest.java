package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParseResult;

/** {@link QuickLine} reads a line as picocli does, or leaves it to picocli; and a run of it writes what picocli's does. */
class QuickLineTest {
    private static final List<String> COMMANDS = List.of("summary", "diagnose", "timeline");
    /** Words of every kind: every quick command's options, value options, help, picocli's own syntax, paths. */
    private static final List<String> WORDS = List.of("--json", "--detail", "--markdown", "--html", "--all", "--debug",
            "--json=true", "--JSON", "--js", "-V", "--version", "-h", "--help", "--", "@no-such-args.txt", "", "--kube", "-n", "ns",
            "--thresholds", "t.txt", "--flows", "--thresholds", "--flows", "flows/", "--thresholds=t.txt", "--answer",
            "f/s=yes", "--prometheus", "-", "-x", "a.txt", "dir/b.log",
            "summary", "x y.txt", "p\0q", "=", "--all=false");

    @TempDir
    Path dir;

    @Test
    void everyLineItTakesPicocliReadsTheSameWay() throws Exception {
        Path argFile = Files.writeString(dir.resolve("args.txt"), "--json\n--detail\n");
        List<String> words = new ArrayList<>(WORDS);
        words.add("@" + argFile); // picocli reads the words of a file that exists
        Random random = new Random(27);
        int taken = 0;
        for (int n = 0; n < 8_000; n++) {
            List<String> line = new ArrayList<>();
            if (random.nextInt(4) == 0) {
                line.add("--debug");
            }
            line.add(random.nextInt(20) == 0 ? "export" : COMMANDS.get(random.nextInt(COMMANDS.size())));
            for (int w = random.nextInt(6); w > 0; w--) {
                line.add(random.nextInt(3) == 0 ? "a.txt" : words.get(random.nextInt(words.size())));
            }
            String[] args = line.toArray(String[]::new);
            QuickLine.Parsed quick = QuickLine.parse(args);
            if (quick == null) {
                continue;
            }
            taken++;
            ParseResult parsed;
            try {
                parsed = FabricScopeCommand.commandLine(args).parseArgs(args);
            } catch (CommandLine.ParameterException e) {
                throw new AssertionError("taken, but picocli refuses " + line + ": " + e.getMessage(), e);
            }
            assertNotNull(parsed.subcommand(), line.toString());
            assertEquals(options(parsed.subcommand().commandSpec().userObject()), options(quick.command()), line.toString());
            assertEquals(FabricScopeCommand.debugRequested(parsed), quick.debug(), line.toString());
        }
        assertTrue(taken > 800, "only " + taken + " lines taken");
    }

    @Test
    void linesOfPathsAndEachCommandsOwnOptionsAreTaken() {
        Map<String, List<String>> flags = Map.of("summary", List.of("--json", "--detail"),
                "diagnose", List.of("--json", "--markdown", "--html"), "timeline", List.of("--json", "--all"));
        flags.forEach((command, options) -> {
            for (String option : options) {
                assertNotNull(QuickLine.parse(new String[] {command, option, "a.txt", "b"}), command + " " + option);
                assertNotNull(QuickLine.parse(new String[] {"--debug", command, "a.txt", option}), command + " " + option);
            }
            assertNotNull(QuickLine.parse(new String[] {command, "x"}));
            assertNull(QuickLine.parse(new String[] {command, "--json"}), "no path: picocli's usage error");
            assertNull(QuickLine.parse(new String[] {command, "--help", "x"}));
            assertNull(QuickLine.parse(new String[] {command, "x", "--json", "--json"}));
        });
        for (String command : List.of("summary", "diagnose", "timeline")) {
            QuickLine.Parsed p = QuickLine.parse(new String[] {command, "--thresholds", "t.txt", "x"});
            assertEquals(Path.of("t.txt"), p.command().input.thresholdsFile);
            assertEquals(List.of(Path.of("x")), p.command().input.paths);
            assertNull(QuickLine.parse(new String[] {command, "x", "--thresholds"}), "no value: picocli's error");
            assertNull(QuickLine.parse(new String[] {command, "x", "--thresholds", "--json"}));
            assertNull(QuickLine.parse(new String[] {command, "x", "--thresholds=t.txt"}));
        }
        assertNotNull(QuickLine.parse(new String[] {"diagnose", "--flows", "f", "x"}));
        assertNull(QuickLine.parse(new String[] {"summary", "--flows", "f", "x"}), "diagnose's option, not summary's");
        assertNull(QuickLine.parse(new String[] {"summary", "--all", "x"}), "timeline's option, not summary's");
        assertNull(QuickLine.parse(new String[] {"export", "x"}));
        assertNull(QuickLine.parse(new String[0]));
    }

    @Test
    void aQuickRunWritesWhatPicocliWritesWithTheSameStatus() throws java.io.IOException {
        String rail = Path.of("..", "sample-fabrics", "rail-2su-hdr").toString();
        String training = Path.of("..", "sample-fabrics", "training-incident").toString();
        String missing = Path.of("..", "sample-fabrics", "no-such-capture.txt").toString();
        String thresholds = Files.writeString(dir.resolve("thresholds.conf"), "SymbolErrorCounter=1\n").toString();
        String flows = Files.createDirectory(dir.resolve("flows")).toString();
        List<String[]> lines = List.of(
                new String[] {"summary", rail},
                new String[] {"summary", "--json", "--detail", training},
                new String[] {"diagnose", rail},
                new String[] {"diagnose", "--json", training, rail},
                new String[] {"timeline", training},
                new String[] {"--debug", "timeline", "--json", "--all", training},
                new String[] {"diagnose", missing},
                new String[] {"summary", "--thresholds", thresholds, rail},
                new String[] {"diagnose", "--json", "--thresholds", thresholds, "--flows", flows, rail},
                new String[] {"diagnose", "--thresholds", missing, rail},
                new String[] {"diagnose", "--flows", thresholds, rail});
        for (String[] args : lines) {
            assertNotNull(QuickLine.parse(args), List.of(args).toString());
            assertEquals(execute(args, false), execute(args, true), List.of(args).toString());
        }
        assertEquals(1, execute(new String[] {"diagnose", missing}, true).get("status"));
    }

    private static Map<String, Object> execute(String[] args, boolean quick) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = FabricScopeCommand.execute(args, new PrintWriter(out), new PrintWriter(err), quick);
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("status", status);
        run.put("out", out.toString());
        run.put("err", err.toString());
        return run;
    }

    /** The values of a command's options and parameters, its mixins' included, by field name. */
    private static Map<String, Object> options(Object command) throws IllegalAccessException {
        Map<String, Object> values = new LinkedHashMap<>();
        collect(command, command.getClass().getSimpleName(), values);
        return values;
    }

    private static void collect(Object object, String prefix, Map<String, Object> values) throws IllegalAccessException {
        for (Class<?> c = object.getClass(); c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                f.setAccessible(true);
                if (f.isAnnotationPresent(Mixin.class)) {
                    Object mixin = f.get(object);
                    if (mixin == null) {
                        fail(prefix + "." + f.getName() + " is null");
                    }
                    collect(mixin, prefix + "." + f.getName(), values);
                } else if (f.isAnnotationPresent(Option.class) || f.isAnnotationPresent(Parameters.class)) {
                    values.put(prefix + "." + f.getName(), f.get(object));
                }
            }
        }
    }
}
