package org.fabricscope.app.cli;

import java.io.FilterWriter;
import java.io.IOException;
import java.io.Writer;

/**
 * Everything the CLI writes as text (standard output and standard error, to a terminal or not) goes
 * through here: a character that could drive a terminal is written as the six characters
 * {@code \}{@code u001b} instead. Node names, log lines, file names, flow texts and {@code --answer} values
 * come from files anyone can write; copied raw, an ESC or OSC sequence could retitle the window, rewrite
 * lines already printed (CR), hide text, ring the bell, or on some terminals write files. Escaped are
 * the C0 controls but tab and line feed (CR too, unless it ends a line as CR LF), DEL, the C1 controls
 * (U+0080-U+009F, 8-bit CSI and OSC) and the bidirectional overrides (U+202A-U+202E, U+2066-U+2069), which
 * reorder what a line shows. The escape is a JSON escape, so JSON output stays valid JSON with the same
 * meaning (Jackson already escapes the C0 controls; it writes DEL, C1 and the overrides raw). Output to a
 * file or a pipe is escaped too: text files are read with {@code cat} and {@code less -R}.
 */
final class ControlEscapingWriter extends FilterWriter {
    private boolean pendingCr;

    ControlEscapingWriter(Writer out) {
        super(out);
    }

    /** Whether the CLI writes this character as an escape. */
    static boolean escaped(char c) {
        return (c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c <= 0x9f) || (c >= 0x202a && c <= 0x202e)
                || (c >= 0x2066 && c <= 0x2069);
    }

    /** A text as the CLI writes it (CR LF kept). */
    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\r' && i + 1 < s.length() && s.charAt(i + 1) == '\n') {
                b.append(c);
            } else if (escaped(c)) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    @Override
    public void write(int c) throws IOException {
        char ch = (char) c;
        if (pendingCr) {
            pendingCr = false;
            if (ch == '\n') {
                out.write('\r');
                out.write('\n');
                return;
            }
            out.write("\\u000d");
        }
        if (ch == '\r') {
            pendingCr = true;
        } else if (escaped(ch)) {
            out.write(String.format("\\u%04x", c & 0xffff));
        } else {
            out.write(c);
        }
    }

    @Override
    public void write(char[] cbuf, int off, int len) throws IOException {
        int start = off;
        int end = off + len;
        for (int i = off; i < end; i++) {
            if (cbuf[i] == '\r' || escaped(cbuf[i]) || pendingCr) {
                out.write(cbuf, start, i - start);
                write(cbuf[i]);
                start = i + 1;
            }
        }
        out.write(cbuf, start, end - start);
    }

    /** As {@link #write(char[], int, int)}, without copying the string (a JSON document can be hundreds of megabytes). */
    @Override
    public void write(String str, int off, int len) throws IOException {
        int start = off;
        int end = off + len;
        for (int i = off; i < end; i++) {
            char c = str.charAt(i);
            if (c == '\r' || escaped(c) || pendingCr) {
                out.write(str, start, i - start);
                write(c);
                start = i + 1;
            }
        }
        out.write(str, start, end - start);
    }

    /** A CR still waiting to see whether a line feed follows is written escaped: it ended the text. */
    @Override
    public void flush() throws IOException {
        if (pendingCr) {
            pendingCr = false;
            out.write("\\u000d");
        }
        out.flush();
    }

    @Override
    public void close() throws IOException {
        if (pendingCr) {
            pendingCr = false;
            out.write("\\u000d");
        }
        out.close();
    }
}
