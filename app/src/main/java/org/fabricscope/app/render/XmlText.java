package org.fabricscope.app.render;

/**
 * Text from the inputs made safe for XML 1.0 (SVG, GraphML) and for the files the app writes. Names and
 * log lines come from files anyone could have written: a control character in a node description would
 * make GraphML or SVG not well-formed (XML 1.0 allows no C0 control but tab, LF and CR, not even as
 * {@code &#1;}) and could act on a terminal that shows the file. Each character XML 1.0 forbids, and
 * each control a terminal acts on, is replaced by U+FFFD (so the reader sees that something was there):
 * the C0 controls but tab, LF and CR; DEL and the C1 controls; U+FFFE and U+FFFF; a surrogate not in a
 * pair.
 */
public final class XmlText {
    /** What a forbidden character becomes. */
    public static final char REPLACEMENT = '\uFFFD';

    private XmlText() {
    }

    /** {@code s} with its forbidden characters replaced; null is empty. */
    public static String clean(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean paired = Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
            if (paired) {
                if (b != null) {
                    b.append(c).append(s.charAt(i + 1));
                }
                i++;
                continue;
            }
            boolean bad = forbidden(c);
            if (bad && b == null) {
                b = new StringBuilder(s.length()).append(s, 0, i);
            }
            if (b != null) {
                b.append(bad ? REPLACEMENT : c);
            }
        }
        return b == null ? s : b.toString();
    }

    /** Whether a character (not the first half of a surrogate pair) is replaced. */
    static boolean forbidden(char c) {
        return c < 0x20 ? c != '\t' && c != '\n' && c != '\r'
                : c >= 0x7F && c <= 0x9F || c == '\uFFFE' || c == '\uFFFF' || Character.isSurrogate(c);
    }

    /** {@link #clean} and escaped for XML element content and attribute values in either quotes. */
    public static String escape(String s) {
        String t = clean(s);
        StringBuilder b = new StringBuilder(t.length() + 16);
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
