package org.fabricscope.app.report;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Checks that Markdown holds no live HTML and no link: outside fenced blocks and code spans, no {@code <},
 * no unescaped {@code [ ]}, no {@code &} but the entities the report writes. That is what a CommonMark
 * (or GitHub) renderer needs to emit a tag, an autolink, a link or an image.
 */
public final class MarkdownSafety {
    private MarkdownSafety() {
    }

    public static void assertInert(String md) {
        boolean fence = false;
        int n = 0;
        for (String line : md.split("\n", -1)) {
            n++;
            if (line.strip().startsWith("```")) {
                fence = !fence;
                continue;
            }
            if (fence) {
                continue;
            }
            for (int i = 0; i < line.length(); i++) {
                char c = line.charAt(i);
                if (c == '\\') {
                    i++;
                } else if (c == '`') {
                    int end = line.indexOf('`', i + 1);
                    if (end < 0) {
                        fail("line " + n + ": a code span left open: " + line);
                    }
                    i = end;
                } else if (c == '<' || c == '[' || c == ']') {
                    fail("line " + n + ": a live '" + c + "' at " + i + ": " + line);
                } else if (c == '&' && !(line.startsWith("&amp;", i) || line.startsWith("&lt;", i) || line.startsWith("&gt;", i))) {
                    fail("line " + n + ": a live '&' at " + i + ": " + line);
                } else if (c < 0x20 && c != '\t' || c >= 0x7F && c <= 0x9F) {
                    fail("line " + n + ": control character " + (int) c);
                }
            }
        }
        if (fence) {
            fail("a fenced block left open");
        }
    }
}
