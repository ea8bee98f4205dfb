package org.fabricscope.importers;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The start of one file, what formats are told apart by: the first {@link #MAX_BYTES} bytes as
 * UTF-8, without a leading byte order mark, split into at most {@link #MAX_LINES} lines of at
 * most {@link #MAX_LINE_CHARS} characters, each without its CR. The last line may be cut where
 * the head ends.
 */
public final class Head {
    public static final int MAX_BYTES = 64 * 1024;
    public static final int MAX_LINES = 64;
    public static final int MAX_LINE_CHARS = 4096;

    private final List<String> lines;
    private String text;
    private Map<Class<?>, Object> derived;

    private Head(List<String> lines) {
        this.lines = List.copyOf(lines);
    }

    /** The head of a file whose first bytes are these (only the first {@link #MAX_BYTES} are used). */
    public static Head of(byte[] bytes) {
        return of(new String(bytes, 0, Math.min(bytes.length, MAX_BYTES), StandardCharsets.UTF_8));
    }

    /** The head of a file with this content. */
    public static Head of(String content) {
        int start = content.startsWith("\uFEFF") ? 1 : 0;
        List<String> lines = new ArrayList<>();
        while (lines.size() < MAX_LINES && start < content.length()) {
            int nl = content.indexOf('\n', start);
            if (nl < 0) {
                nl = content.length();
            }
            int end = Math.min(nl, start + MAX_LINE_CHARS);
            if (end == nl && end > start && content.charAt(end - 1) == '\r') {
                end--;
            }
            lines.add(content.substring(start, end));
            start = nl + 1;
        }
        return new Head(lines);
    }

    public List<String> lines() {
        return lines;
    }

    /** The lines joined with {@code \n}. */
    public String text() {
        if (text == null) {
            text = String.join("\n", lines);
        }
        return text;
    }

    /**
     * What {@code compute} makes of this head, computed once per head and type: lets the readers
     * of one family (the infiniband-diags tools, the kubectl outputs) share one scan of the lines.
     */
    public <T> T derived(Class<T> type, Function<Head, ? extends T> compute) {
        if (derived == null) {
            derived = new HashMap<>(4);
        }
        Object v = derived.get(type);
        if (v == null) {
            v = compute.apply(this);
            derived.put(type, v);
        }
        return type.cast(v);
    }

    @Override
    public String toString() {
        return lines.size() + " lines" + (lines.isEmpty() ? "" : ", first: " + lines.get(0));
    }
}
