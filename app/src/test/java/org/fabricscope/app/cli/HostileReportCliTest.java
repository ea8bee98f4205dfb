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
 * {@code diagnose --markdown|--html} on training-incident with a worker pod renamed to markup: an image
 * with an onerror handler, a javascript: link and autolink, a backtick and a script. The name reaches the
 * report (the timeline and the findings name the pod) and is text there, never markup.
 */
class HostileReportCliTest {
    static final String POD = "w0<img/src=x/onerror=alert(1)>[x](javascript:alert(1))<javascript:alert(2)>`<script>alert(3)</script>";

    @TempDir
    Path dir;

    @BeforeEach
    void hostileCopy() throws IOException {
        Path from = Path.of("..", "sample-fabrics", "training-incident");
        assumeTrue(Files.isDirectory(from));
        List<Path> files;
        try (Stream<Path> s = Files.walk(from)) {
            files = s.filter(Files::isRegularFile).toList();
        }
        for (Path f : files) {
            Path to = dir.resolve(from.relativize(f).toString());
            Files.createDirectories(to.getParent());
            byte[] bytes = Files.readAllBytes(f);
            String text = new String(bytes, StandardCharsets.ISO_8859_1); // byte for byte, whatever the encoding
            Files.write(to, text.replace("gpt-train-worker-0", POD).getBytes(StandardCharsets.ISO_8859_1));
        }
    }

    @Test
    void markdownShowsThePodNameAsText() {
        CliTest.Run r = CliTest.run("diagnose", "--markdown", dir.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("w0&lt;img/src=x/onerror=alert(1)&gt;\\[x\\](javascript:alert(1))&lt;javascript:alert(2)&gt;\\`"
                + "&lt;script&gt;alert(3)&lt;/script&gt;"), "the pod's name reached the report, as text: " + r.out());
        MarkdownSafety.assertInert(r.out());
    }

    @Test
    void htmlShowsThePodNameAsTextAndForbidsScripts() {
        CliTest.Run r = CliTest.run("diagnose", "--html", dir.toString());
        assertEquals(0, r.status(), r.err());
        String html = r.out();
        assertTrue(html.contains("Content-Security-Policy\" content=\"default-src 'none';"), html);
        assertTrue(html.contains("w0&lt;img/src=x/onerror=alert(1)&gt;"), "the pod's name reached the report: " + html);
        assertFalse(html.contains("<img/src") || html.contains("<script") || html.contains("<javascript"), html);
    }
}
