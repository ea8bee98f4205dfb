package org.fabricscope.app.ui;

import org.fabricscope.app.logs.LogFile;
import org.fabricscope.app.ui.LogConsole.Line;

import javafx.collections.ObservableListBase;

/**
 * A log file's lines as the console's rows, made when a row is shown: all lines, or those a filter
 * matched ({@code rows}: 0-based line indices, ascending). Never changes: a new filter makes a new
 * list. The list view asks only for the rows in view (fixed cell size), so a file of millions of
 * lines costs a few lines a frame; each is read from the file's mapping, a memory access.
 */
final class LogFileRows extends ObservableListBase<Line> {
    private final LogFile file;
    private final String name;
    private final int[] rows;
    private final int size;

    /** {@code rows} null: every line. */
    LogFileRows(LogFile file, int[] rows, int size) {
        this.file = file;
        this.rows = rows;
        this.size = rows == null ? file.lineCount() : size;
        this.name = nameOf(file.source());
    }

    /** A source's file name, as the rows name their file. */
    static String nameOf(String source) {
        int slash = Math.max(source.lastIndexOf('/'), source.lastIndexOf('\\'));
        return slash >= 0 ? source.substring(slash + 1) : source;
    }

    @Override
    public Line get(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException(index + " of " + size);
        }
        int line = rows == null ? index : rows[index];
        return Line.ofFile(name, line + 1, file.line(line));
    }

    @Override
    public int size() {
        return size;
    }

    LogFile file() {
        return file;
    }

    /** The row showing this 1-based line, or -1 when the filter hides it. */
    int rowOf(int lineNumber) {
        int line = lineNumber - 1;
        if (rows == null) {
            return line >= 0 && line < size ? line : -1;
        }
        int at = java.util.Arrays.binarySearch(rows, 0, size, line);
        return at >= 0 ? at : -1;
    }
}
