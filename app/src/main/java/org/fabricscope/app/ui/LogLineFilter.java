package org.fabricscope.app.ui;

import java.util.Locale;
import java.util.function.Predicate;

import org.fabricscope.app.ui.LogConsole.Line;

/**
 * The log console's filters as one test of a line: its pod (not for a file's lines), a rank typed as a number, a level
 * ({@link LogConsoleViewModel#LEVELS}) and a text, case-insensitive. A rank that is not a number matches nothing and is
 * flagged ({@link #rankInvalid}).
 */
record LogLineFilter(Predicate<Line> test, boolean rankInvalid) {
    private static final int ANY_RANK = -2;
    private static final int BAD_RANK = -3;

    static LogLineFilter of(String pod, String level, String rank, String text) {
        int r;
        try {
            r = rank == null || rank.isBlank() ? ANY_RANK : Integer.parseInt(rank.strip());
        } catch (NumberFormatException e) {
            r = BAD_RANK;
        }
        String needle = text == null ? "" : text.toLowerCase(Locale.ROOT);
        int wantRank = r;
        String lv = level == null ? "" : level;
        Predicate<Line> f = l -> (pod == null || pod.equals(LogConsoleViewModel.ALL_PODS) || pod.equals(l.pod()))
                && (wantRank == ANY_RANK || l.rank() == wantRank)
                && switch (lv) {
                    case "NCCL lines" -> l.level() != Line.Level.OTHER || l.text().contains("NCCL");
                    case "warnings and errors" -> l.level() == Line.Level.WARN || l.level() == Line.Level.ERROR;
                    case "errors" -> l.level() == Line.Level.ERROR;
                    default -> true;
                }
                && (needle.isEmpty() || l.text().toLowerCase(Locale.ROOT).contains(needle));
        return new LogLineFilter(f, r == BAD_RANK);
    }
}
