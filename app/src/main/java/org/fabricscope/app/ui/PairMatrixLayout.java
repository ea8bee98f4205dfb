package org.fabricscope.app.ui;

import java.util.List;

/**
 * Where a pair matrix's parts are drawn, without a toolkit: a column of row labels, a row of column
 * labels, then a square grid of cells, each wide enough for the longest node name (within limits; a
 * longer name is shortened with an ellipsis). Which cell a point is on. Immutable.
 */
public final class PairMatrixLayout {
    /** Height of a cell and of the column label row. */
    public static final double CELL_HEIGHT = 28;
    public static final double HEADER_HEIGHT = 26;
    /** Approximate width of one character of the 12 px label font. */
    public static final double CHAR_WIDTH = 7;
    static final double MIN_CELL_WIDTH = 64;
    static final double MAX_CELL_WIDTH = 150;
    static final double PAD = 8;

    private final int size;
    private final double labelWidth;
    private final double cellWidth;

    public PairMatrixLayout(List<String> nodes) {
        this.size = nodes.size();
        int longest = nodes.stream().mapToInt(String::length).max().orElse(0);
        this.labelWidth = Math.min(2 * MAX_CELL_WIDTH, longest * CHAR_WIDTH + 2 * PAD);
        this.cellWidth = Math.max(MIN_CELL_WIDTH, Math.min(MAX_CELL_WIDTH, longest * CHAR_WIDTH + 2 * PAD));
    }

    public int size() {
        return size;
    }

    public double labelWidth() {
        return labelWidth;
    }

    public double cellWidth() {
        return cellWidth;
    }

    /** The left edge of column {@code col}'s cells. */
    public double x(int col) {
        return labelWidth + col * cellWidth;
    }

    /** The top edge of row {@code row}'s cells. */
    public double y(int row) {
        return HEADER_HEIGHT + row * CELL_HEIGHT;
    }

    public double width() {
        return labelWidth + size * cellWidth + 1;
    }

    public double height() {
        return HEADER_HEIGHT + size * CELL_HEIGHT + 1;
    }

    /** The grid position under a point, or null off the cells. */
    public PairMatrixViewModel.At pick(double px, double py) {
        if (px < labelWidth || py < HEADER_HEIGHT) {
            return null;
        }
        int col = (int) ((px - labelWidth) / cellWidth);
        int row = (int) ((py - HEADER_HEIGHT) / CELL_HEIGHT);
        return row < size && col < size ? new PairMatrixViewModel.At(row, col) : null;
    }

    /** {@code text} shortened with an ellipsis to what fits {@code width}. */
    public static String fit(String text, double width) {
        int max = (int) Math.floor((width - PAD) / CHAR_WIDTH);
        return text.length() <= max || max < 2 ? text : text.substring(0, max - 1) + "…";
    }
}
