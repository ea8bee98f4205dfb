package org.fabricscope.app.report;

import org.fabricscope.app.render.XmlText;

/**
 * Text from the inputs (log lines, pod and node names, finding titles that quote them) made inert in
 * Markdown: a report is read rendered, and a renderer passes raw HTML through and follows links. Outside
 * code, {@code & < >} become entities (no tag, no {@code <javascript:...>} autolink, no entity can form)
 * and {@code \ [ ] `} are backslash-escaped (no {@code [text](javascript:...)} link or image, no code
 * span opened by the input); in a code span a backtick becomes {@code '} so that input cannot close it;
 * in a fenced block a run of three backticks becomes {@code '''}. Everywhere the controls XML 1.0
 * forbids are replaced ({@link XmlText}) and, outside fenced blocks, line breaks become spaces.
 */
final class MarkdownText {
    private MarkdownText() {
    }

    /** Running text: one line, no HTML, no link, no code span. */
    static String inline(String s) {
        String t = oneLine(s);
        StringBuilder b = new StringBuilder(t.length() + 8);
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '\\', '[', ']', '`' -> b.append('\\').append(c);
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    /** A GitHub table cell: {@link #inline}, and a pipe escaped so that it cannot end the cell. */
    static String cell(String s) {
        return inline(s).replace("|", "\\|");
    }

    /** A code span around one line of text; a backtick inside becomes {@code '}. */
    static String code(String s) {
        return "`" + oneLine(s).replace("`", "'") + "`";
    }

    /** A line inside a fenced code block: no run of backticks that could close the fence. */
    static String fenced(String s) {
        return XmlText.clean(s).replace("```", "'''");
    }

    /** One line with the forbidden controls replaced. */
    static String oneLine(String s) {
        return XmlText.clean(s == null ? "" : s.replaceAll("\\R", " "));
    }
}
