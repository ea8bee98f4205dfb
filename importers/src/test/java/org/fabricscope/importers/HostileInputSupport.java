package org.fabricscope.importers;

import org.fabricscope.importers.core.Cancellation;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Severity;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the hostile-input tests share (issue 10, the parser-level findings of the hostile-input report): a
 * folder to write small generated inputs to, an import through {@link FabricImporter} (format detection,
 * readers, model build), and the checks every diagnostic must pass (file and line, one line, no Java class name).
 */
abstract class HostileInputSupport {
    /** A Java class name in a message: {@code java.lang.X}, {@code NumberFormatException}, {@code `io.fabric8...`}. */
    static final Pattern CLASS_NAME = Pattern.compile(
            "\\b(?:java|javax|jdk|sun|com\\.fasterxml|com\\.sun|org\\.yaml|org\\.snakeyaml|io\\.fabric8|org\\.fabricscope)\\.\\w"
                    + "|\\b\\w+(?:Exception|Error)\\b|`[\\w.]+`");

    @TempDir
    Path dir;

    Path write(String name, String text) throws IOException {
        return write(name, text.getBytes(StandardCharsets.UTF_8));
    }

    Path write(String name, byte[] bytes) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.write(p, bytes);
        return p;
    }

    static ImportResult importPaths(Path... paths) {
        return assertDoesNotThrow(() -> new FabricImporter().importPaths(List.of(paths), ImportProgress.NONE,
                Cancellation.NEVER));
    }

    /** The warnings and errors of one file; none may name a Java class. */
    static List<Diagnostic> problems(FabricModel m, Path file) {
        return problems(m, file.toString());
    }

    static List<Diagnostic> problems(FabricModel m, String source) {
        List<Diagnostic> out = m.diagnostics().stream().filter(d -> d.severity().compareTo(Severity.WARNING) <= 0)
                .filter(d -> d.source().startsWith(source)).toList();
        for (Diagnostic d : out) {
            assertFalse(CLASS_NAME.matcher(d.message()).find(), "a Java class name in: " + d);
            assertFalse(d.message().contains("\n"), "one line: " + d);
        }
        return out;
    }

    static Diagnostic only(FabricModel m, Path file) {
        List<Diagnostic> ds = problems(m, file);
        assertEquals(1, ds.size(), TestSupport.dump(m.diagnostics()));
        return ds.get(0);
    }

    static void assertMentions(Diagnostic d, String... parts) {
        for (String p : parts) {
            assertTrue(d.message().contains(p), "\"" + p + "\" in: " + d);
        }
    }

    /** A good NCCL log to put beside a bad file: its rank must survive. */
    static final String GOOD_LOG = """
            node-a:701:701 [0] NCCL INFO NCCL version 2.21.5+cuda12.4
            node-a:701:701 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x5 - Init COMPLETE
            node-b:702:702 [0] NCCL INFO ncclCommInitRank comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x5 - Init COMPLETE
            """;
}
