package org.fabricscope.importers.k8s;

import java.io.IOException;
import java.io.Reader;
import java.util.Arrays;

import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.reader.ReaderException;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.scanner.Constant;

/**
 * SnakeYAML's {@link StreamReader} with linear cost. SnakeYAML 2.5 copies its whole unread window
 * into a new array for every 1,024 characters it reads, and the scanner never moves past a scalar
 * until it has seen all of it, so one long line (an 8 MB annotation) costs time in the square of
 * its length: 32 s for 8 MB. This reader keeps one window that doubles when a token outgrows it
 * and is compacted in place only when half of it has been consumed, so each character is copied a
 * bounded number of times. Everything else is SnakeYAML's: the same code points, printable check,
 * surrogate handling, line and column counting and marks (each mark gets a copy of the few
 * characters around it, since the window is reused).
 */
final class LinearStreamReader extends StreamReader {
    /** Characters kept on each side of a mark for SnakeYAML's error snippet (it shows at most 37). */
    private static final int SNIPPET = 40;

    private final String name = "'reader'";
    private final Reader stream;
    private final char[] buffer = new char[1025];
    private int[] window = new int[2048];
    private int pointer;
    private int dataLength;
    private boolean eof;
    private int index;
    private int documentIndex;
    private int line;
    private int column;

    LinearStreamReader(Reader reader) {
        super(reader);
        this.stream = reader;
    }

    @Override
    public Mark getMark() {
        int from = Math.max(0, pointer - SNIPPET);
        int to = Math.min(dataLength, pointer + SNIPPET);
        return new Mark(name, index, line, column, Arrays.copyOfRange(window, from, Math.max(from, to)), pointer - from);
    }

    @Override
    public void forward() {
        forward(1);
    }

    @Override
    public void forward(int length) {
        for (int i = 0; i < length && ensureEnoughData(0); i++) {
            int c = window[pointer++];
            index++;
            documentIndex++;
            if (Constant.LINEBR.has(c) || (c == '\r' && ensureEnoughData(0) && window[pointer] != '\n')) {
                line++;
                column = 0;
            } else if (c != 0xFEFF) {
                column++;
            }
        }
    }

    @Override
    public int peek() {
        return ensureEnoughData(0) ? window[pointer] : 0;
    }

    @Override
    public int peek(int k) {
        return ensureEnoughData(k) ? window[pointer + k] : 0;
    }

    @Override
    public String prefix(int length) {
        if (length == 0) {
            return "";
        }
        if (ensureEnoughData(length)) {
            return new String(window, pointer, length);
        }
        return new String(window, pointer, Math.min(length, dataLength - pointer));
    }

    @Override
    public String prefixForward(int length) {
        String prefix = prefix(length);
        pointer += length;
        index += length;
        documentIndex += length;
        column += length;
        return prefix;
    }

    @Override
    public int getColumn() {
        return column;
    }

    @Override
    public int getDocumentIndex() {
        return documentIndex;
    }

    @Override
    public void resetDocumentIndex() {
        documentIndex = 0;
    }

    @Override
    public int getIndex() {
        return index;
    }

    @Override
    public int getLine() {
        return line;
    }

    private boolean ensureEnoughData(int size) {
        while (!eof && pointer + size >= dataLength) {
            update();
        }
        return pointer + size < dataLength;
    }

    /** Reads up to 1,024 more characters (and the low half of a split surrogate pair) into the window. */
    private void update() {
        try {
            int read = stream.read(buffer, 0, buffer.length - 1);
            if (read <= 0) {
                eof = true;
                return;
            }
            if (Character.isHighSurrogate(buffer[read - 1])) {
                if (stream.read(buffer, read, 1) == -1) {
                    throw new ReaderException(name, index + read, buffer[read - 1],
                            "The last char is HighSurrogate (no LowSurrogate detected).");
                }
                read++;
            }
            makeRoom(read);
            int nonPrintable = ' ';
            int at = dataLength;
            for (int i = 0; i < read; ) {
                int codePoint = Character.codePointAt(buffer, i, read);
                window[at++] = codePoint;
                if (isPrintable(codePoint)) {
                    i += Character.charCount(codePoint);
                } else {
                    nonPrintable = codePoint;
                    i = read;
                }
            }
            dataLength = at;
            if (nonPrintable != ' ') {
                throw new ReaderException(name, index + (dataLength - pointer) - 1, nonPrintable,
                        "special characters are not allowed");
            }
        } catch (IOException e) {
            throw new YAMLException(e);
        }
    }

    /**
     * Room for {@code more} code points after the unread part. When they do not fit, the unread part
     * moves to the front: in place when it fills at most half the window (so at least half was
     * consumed since the last move), otherwise into a window twice as large.
     */
    private void makeRoom(int more) {
        if (dataLength + more <= window.length) {
            return;
        }
        int live = dataLength - pointer;
        if (live + more <= window.length / 2) {
            System.arraycopy(window, pointer, window, 0, live);
        } else {
            int[] bigger = new int[Math.max(window.length * 2, live + more)];
            System.arraycopy(window, pointer, bigger, 0, live);
            window = bigger;
        }
        pointer = 0;
        dataLength = live;
    }
}
