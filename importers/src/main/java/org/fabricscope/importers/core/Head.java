package org.fabricscope.importers.core;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

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

    private static final Pattern JSON_ARRAY_START = Pattern.compile("^\\[\\s*(?:[{\\[\"\\]]|$).*");

    private final List<String> lines;
    /** The raw bytes of a binary head (a pickle): only readers of binary formats look at them; empty for text. */
    private final byte[] binary;
    private String text;
    private Boolean json;
    private Map<Class<?>, Object> derived;

    private Head(List<String> lines) {
        this(lines, new byte[0]);
    }

    private Head(List<String> lines, byte[] binary) {
        this.lines = List.copyOf(lines);
        this.binary = binary;
    }

    /**
     * The head of a binary file: no lines (no text reader claims it), only its first bytes, for the
     * few readers of binary formats (PyTorch's flight recorder pickles).
     */
    public static Head binary(byte[] bytes) {
        return binary(bytes, bytes.length);
    }

    /** {@link #binary(byte[])} of the first {@code length} bytes (a reused read buffer's). */
    public static Head binary(byte[] bytes, int length) {
        return new Head(List.of(), java.util.Arrays.copyOf(bytes, Math.min(length, MAX_BYTES)));
    }

    /**
     * {@link #binary(byte[], int)} without the copy when the buffer is full ({@code length == buffer.length},
     * at most {@link #MAX_BYTES}): a head to detect the format with while the buffer is not reused, and
     * to keep no longer. Sniffing 1,024 flight recorder dumps copied 64 MB into fresh memory, most of its
     * time in page faults.
     */
    public static Head binaryView(byte[] buffer, int length) {
        return length == buffer.length && length <= MAX_BYTES ? new Head(List.of(), buffer) : binary(buffer, length);
    }

    /**
     * Whether the first bytes of a binary file pass {@code test}, without the copy {@link #bytes} makes
     * (sniffing 1,024 flight recorder dumps copied 64 MB); the test must not change the bytes. False
     * for a text file.
     */
    public boolean binaryMatches(java.util.function.Predicate<byte[]> test) {
        return binary.length > 0 && test.test(binary);
    }

    /** Whether this is the head of a binary file ({@link #binary(byte[])}). */
    public boolean isBinary() {
        return binary.length > 0;
    }

    /** The first bytes of a binary file (a copy); empty for a text file. */
    public byte[] bytes() {
        return binary.clone();
    }

    /** The head of a file whose first bytes are these (only the first {@link #MAX_BYTES} are used). */
    public static Head of(byte[] bytes) {
        return of(bytes, bytes.length);
    }

    /**
     * {@link #of(byte[])} of the first {@code length} bytes (a reused read buffer's). Bytes that open with a
     * Python pickle's {@code PROTO} opcode (0x80, then protocol 2 to 5: never the start of UTF-8 text) make a
     * {@link #binary} head whatever else they hold: a flight recorder pickle of a 16,384-rank job has its
     * process group's members, one 90 KB string, in its first 64 KiB, and so almost no control bytes there.
     */
    public static Head of(byte[] bytes, int length) {
        if (opensPickle(bytes, length)) {
            return binary(bytes, length);
        }
        return of(new String(bytes, 0, Math.min(length, MAX_BYTES), StandardCharsets.UTF_8));
    }

    /** Whether the bytes start with {@code PROTO 2}-{@code PROTO 5}, as every pickle of those protocols does. */
    public static boolean opensPickle(byte[] bytes, int length) {
        return length >= 3 && (bytes[0] & 0xff) == 0x80 && bytes[1] >= 2 && bytes[1] <= 5;
    }

    /** The head of a file with this content. */
    public static Head of(String content) {
        int start = content.startsWith("\uFEFF") ? 1 : 0;
        List<String> lines = new ArrayList<>();
        int n = content.length();
        while (lines.size() < MAX_LINES && start < n) {
            // a line ends at LF, CRLF or a lone CR (classic Mac line ends), as TextLines reads it
            int nl = start;
            while (nl < n && content.charAt(nl) != '\n' && content.charAt(nl) != '\r') {
                nl++;
            }
            String line = content.substring(start, Math.min(nl, start + MAX_LINE_CHARS));
            if (line.indexOf('\0') < 0) {
                lines.add(line); // a line holding a NUL is unreadable by itself; the rest still tells the format
            }
            start = nl < n && content.charAt(nl) == '\r' && nl + 1 < n && content.charAt(nl + 1) == '\n' ? nl + 2 : nl + 1;
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
     * Whether the first non-blank line opens a JSON document: {@code {}, or {@code [} followed by
     * {@code {}, {@code [}, {@code "}, {@code ]} or nothing ({@code [0] host:...} and {@code [rank0]:}
     * log prefixes are not). A JSON document is only ever a JSON format: line-oriented readers leave
     * it alone, even when its strings quote their lines (FabricScope's own {@code --json} output
     * quotes log lines as evidence).
     */
    public boolean jsonDocument() {
        if (json == null) {
            boolean j = false;
            for (String l : lines) {
                String t = l.replace("\uFEFF", "").strip();
                if (!t.isEmpty()) {
                    j = t.startsWith("{") || JSON_ARRAY_START.matcher(t).matches();
                    break;
                }
            }
            json = j;
        }
        return json;
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
