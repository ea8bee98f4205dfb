package org.fabricscope.app.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.junit.jupiter.api.Test;

/** Input text that would be HTML, a link or a terminal escape when the report is rendered or shown: inert. */
class HostileReportTest {
    static final String IMG = "<img src=x onerror=alert(1)>";
    static final String LINK = "[click](javascript:alert(1))";
    static final String AUTOLINK = "<javascript:alert(2)>";
    static final String SCRIPT = "<script>alert(3)</script>";

    private static IncidentReport hostile() {
        Finding f = new Finding("x-y", Severity.ERROR, "pod " + IMG + " " + LINK + " \\" + LINK + " &lt;b&gt;",
                List.of(new Subject.HostRef("h", "host `" + SCRIPT + "` \u001b[31mred")),
                List.of(Evidence.at("f.log", 3, "```\n" + SCRIPT + " \u0007 ``` " + AUTOLINK)),
                List.of(IMG + " first line " + AUTOLINK + "\n```\n" + SCRIPT, "![x](javascript:alert(4)) `a` b`"));
        return new IncidentReport("report " + SCRIPT, List.of("in`" + IMG), List.of(f), List.of(), null,
                Instant.parse("2026-11-23T09:00:00Z"));
    }

    @Test
    void markdownHasNoLiveHtmlLinkOrControl() {
        String md = hostile().markdown();
        MarkdownSafety.assertInert(md);
        assertTrue(md.contains("pod &lt;img src=x onerror=alert(1)&gt; \\[click\\](javascript:alert(1)) \\\\\\[click\\]"), md);
        assertTrue(md.contains("&amp;lt;b&amp;gt;"), "an entity in the input is shown as typed: " + md);
        assertTrue(md.contains("`host '" + SCRIPT + "' \uFFFD[31mred`"), "a backtick cannot close the subject's span: " + md);
        assertTrue(md.contains("- &lt;img src=x onerror=alert(1)&gt; first line &lt;javascript:alert(2)&gt;"), md);
        assertTrue(md.contains("- !\\[x\\](javascript:alert(4)) \\`a\\` b\\`"), md);
        assertTrue(md.startsWith("# report &lt;script&gt;"), md);
    }

    @Test
    void htmlForbidsScriptsAndEscapesEverything() {
        String html = hostile().html();
        assertTrue(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                + "style-src 'unsafe-inline'; img-src data:;"), html);
        assertFalse(html.contains("<script"), html);
        assertFalse(html.contains("<img src"), html);
        assertFalse(html.contains("<javascript"), html);
        assertFalse(html.contains("\u001b") || html.contains("\u0007"), "no control characters");
        assertTrue(html.contains("&lt;img src=x onerror=alert(1)&gt;"), html);
    }

    @Test
    void markdownTextPieces() {
        assertEquals("a &amp; &lt;b&gt; \\\\ \\[ \\] \\` c d", MarkdownText.inline("a & <b> \\ [ ] ` c\nd"));
        assertEquals("`a'b'`", MarkdownText.code("a`b`"));
        assertEquals("a \\| b", MarkdownText.cell("a | b"));
        assertEquals("''' x \uFFFD", MarkdownText.fenced("``` x \u001b"));
        assertEquals("", MarkdownText.inline(null));
    }
}
