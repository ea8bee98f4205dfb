package org.fabricscope.importers.k8s;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.reader.ReaderException;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;

/**
 * Turns a failed JSON or YAML read into one line for a user: the problem as the parser states it
 * (not its "while parsing ..." context), the line the problem is on (SnakeYAML's problem mark, not
 * the mark of the construct it was inside; for a forbidden character, the line of that character),
 * and the limit that was hit in words. Never a Java class name, never a multi-line snippet.
 */
public final class YamlProblems {
    /** A problem's line (1-based, 0 when unknown) and text. */
    public record Problem(int line, String text) {
    }

    private static final Pattern CLASS_NAME = Pattern.compile(
            "(?:\\b[a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*(?:Exception|Error)\\b:?\\s*");
    private static final Pattern BACKTICKED = Pattern.compile("`[^`]*`");

    private YamlProblems() {
    }

    /**
     * The problem of {@code e}, thrown while reading {@code bytes}; {@code at} is where the parser
     * stood (used when the exception carries no location).
     */
    public static Problem describe(Throwable e, byte[] bytes, JsonLocation at) {
        int fallbackLine = at == null ? 0 : Math.max(0, at.getLineNr());
        if (e instanceof StackOverflowError) {
            return new Problem(fallbackLine, "nested too deeply to read");
        }
        MarkedYAMLException marked = find(e, MarkedYAMLException.class);
        if (marked != null) {
            Mark problemMark = marked.getProblemMark();
            Mark contextMark = marked.getContextMark();
            String problem = marked.getProblem();
            String context = marked.getContext();
            Mark mark = problemMark != null ? problemMark : contextMark;
            int line = mark == null ? fallbackLine : mark.getLine() + 1;
            String text = problem != null ? problem : context != null ? context : "not valid YAML";
            if (problem != null && context != null && contextMark != null && contextMark.getLine() + 1 != line) {
                text += " (" + context + " that starts at line " + (contextMark.getLine() + 1) + ")";
            }
            return new Problem(line, clean(text));
        }
        ReaderException reader = find(e, ReaderException.class);
        if (reader != null) {
            int cp = reader.getCodePoint();
            String what = cp == 0xFEFF ? "a byte order mark inside the text"
                    : String.format("character U+%04X", cp) + (Character.isISOControl(cp) ? " (a control character)" : "");
            return new Problem(lineOfCodePoint(bytes, reader.getPosition(), fallbackLine),
                    what + " is not allowed in YAML (binary data?)");
        }
        StreamConstraintsException limit = find(e, StreamConstraintsException.class);
        if (limit != null) {
            String m = String.valueOf(limit.getOriginalMessage());
            String text;
            if (m.contains("nesting depth")) {
                text = "nested deeper than " + KubeMappers.MAX_DEPTH + " levels (the limit)";
            } else if (m.contains("String value length")) {
                text = "a string longer than " + (KubeMappers.MAX_STRING >> 20) + " MiB (the limit)";
            } else if (m.contains("Number value length")) {
                text = "a number longer than 64 digits (the limit)";
            } else {
                text = clean(m);
            }
            return new Problem(fallbackLine, text);
        }
        JsonProcessingException json = find(e, JsonProcessingException.class);
        if (json != null) {
            String m = json.getOriginalMessage();
            JsonLocation l = json.getLocation();
            return new Problem(l != null && l.getLineNr() > 0 ? l.getLineNr() : fallbackLine,
                    m == null ? "not valid text" : clean(m.lines().findFirst().orElse(m)));
        }
        String m = null;
        for (Throwable c = e; c != null && m == null; c = c.getCause() == c ? null : c.getCause()) {
            m = c.getMessage();
        }
        if (m != null && m.contains("Nesting Depth exceeded")) {
            return new Problem(fallbackLine, "nested deeper than " + KubeMappers.MAX_DEPTH + " levels (the limit)");
        }
        if (m != null && m.contains("Number of aliases")) {
            return new Problem(fallbackLine, "more than " + KubeMappers.MAX_ALIASES + " aliases to collections (the limit)");
        }
        if (m != null && m.contains("exceeds the limit")) {
            return new Problem(fallbackLine, "a document larger than " + (KubeMappers.MAX_BYTES >> 20) + " MiB (the limit)");
        }
        return new Problem(fallbackLine, m == null || clean(m).isEmpty() ? "could not be read" : clean(m));
    }

    /** The first line of a parser's message without Java class names or backticked code references. */
    public static String clean(String message) {
        String first = message == null ? "" : message.lines().findFirst().orElse("");
        String t = CLASS_NAME.matcher(first).replaceAll("");
        t = BACKTICKED.matcher(t).replaceAll("").replace("(, ", "(").replace(", )", ")").replace("()", "");
        t = t.replaceAll("\\s+", " ").strip();
        return t.length() > 200 ? t.substring(0, 197) + "..." : t;
    }

    private static <T extends Throwable> T find(Throwable e, Class<T> type) {
        int depth = 0;
        for (Throwable c = e; c != null && depth < 16; c = c.getCause() == c ? null : c.getCause(), depth++) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }

    /** The 1-based line of the {@code position}-th code point of UTF-8 {@code bytes} (a BOM counts as one). */
    static int lineOfCodePoint(byte[] bytes, int position, int fallback) {
        if (bytes == null || position < 0) {
            return fallback;
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        int line = 1;
        int cp = 0;
        for (int i = 0; i < text.length() && cp < position; cp++) {
            int c = text.codePointAt(i);
            if (c == '\n' || (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'))) {
                line++;
            }
            i += Character.charCount(c);
        }
        return line;
    }
}
