package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.fabricscope.app.report.MarkdownSafety;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pairwise sample with a node (its folder, its files' names and texts) renamed to a table pipe,
 * markup, a link, a terminal escape and a backtick: the pairwise tables of {@code diagnose --markdown}
 * keep their columns and show the name as text, {@code pairs} prints no escape, {@code --html} no tag.
 */
class HostilePairsCliTest {
    static final String NODE = "n1|<b>[x](javascript:1)\u001b[31m`";

    @TempDir
    Path dir;

    @BeforeEach
    void hostileCopy() throws IOException {
        Path from = Path.of("..", "sample-fabrics", "pairwise");
        assumeTrue(Files.isDirectory(from));
        List<Path> files;
        try (Stream<Path> s = Files.walk(from)) {
            files = s.filter(Files::isRegularFile).toList();
        }
        for (Path f : files) {
            Path to = dir.resolve(from.relativize(f).toString().replace("gpu-node-01", NODE));
            Files.createDirectories(to.getParent());
            String text = new String(Files.readAllBytes(f), StandardCharsets.UTF_8);
            Files.writeString(to, text.replace("gpu-node-01", NODE), StandardCharsets.UTF_8);
        }
    }

    @Test
    void markdownTablesKeepTheirColumnsAndShowTheNameAsText() {
        CliTest.Run r = CliTest.run("diagnose", "--markdown", dir.toString());
        assertEquals(0, r.status(), r.err());
        String md = r.out();
        String shown = "n1\\|&lt;b&gt;\\[x\\](javascript:1)\uFFFD\\[31m\\`";
        assertTrue(md.contains("| **" + shown + "** |"), "the node's row, its name as text: " + md);
        MarkdownSafety.assertInert(md);
        int cells = -1;
        int tables = 0;
        for (String line : md.split("\n", -1)) {
            if (!line.startsWith("|")) {
                cells = -1;
                continue;
            }
            int n = line.split("(?<!\\\\)\\|", -1).length; // split only at unescaped pipes
            if (cells < 0) {
                cells = n;
                tables++;
            }
            assertEquals(cells, n, "every row of a table has the header's columns: " + line);
        }
        assertTrue(tables > 0, md);
    }

    @Test
    void pairsTextHasNoTerminalEscape() {
        CliTest.Run r = CliTest.run("pairs", dir.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("n1|<b>[x](javascript:1)\uFFFD[31m`"), r.out());
        assertFalse(r.out().contains("\u001b"), "no escape reaches the terminal");
    }

    @Test
    void htmlShowsTheNameAsText() {
        CliTest.Run r = CliTest.run("diagnose", "--html", dir.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("<th>n1|&lt;b&gt;[x](javascript:1)\uFFFD[31m`</th>"), r.out());
        assertFalse(r.out().contains("<b>[x]") || r.out().contains("\u001b"), r.out());
    }
}
