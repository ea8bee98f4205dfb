package org.fabricscope.app.report;

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.fabricscope.app.render.MapPalette;
import org.fabricscope.app.render.PairHeat;
import org.fabricscope.app.render.XmlText;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.pairwise.PairCell;
import org.fabricscope.model.pairwise.PairEnds;
import org.fabricscope.model.pairwise.PairMatrices;
import org.fabricscope.model.pairwise.PairMatrix;
import org.fabricscope.model.pairwise.PairVerdict;

/**
 * The pairwise matrices as a person reads them: a grid per test (a row and a column per node, the value
 * of each measured pair), what the values are, how the pairs were told, the verdict's sentences and the
 * runs no pair was found for. Plain text for {@code fabricscope pairs}, Markdown and HTML (each cell
 * coloured by its fraction of the best pair, {@link PairHeat}) for the incident report.
 */
public final class PairMatrixReport {
    /** Unplaced runs listed at most; the rest are counted. */
    static final int MAX_UNPLACED = 20;
    /** The diagonal and a pair that was not measured. */
    public static final String SELF = "—";
    public static final String NONE = "·";

    private PairMatrixReport() {
    }

    /** {@code 5 nodes, 10 pairs: the highest BW average over each run's sizes; pairs told by the file name (10)}. */
    public static String about(PairMatrix m) {
        return m.nodes().size() + " nodes, " + m.cells().size() + (m.cells().size() == 1 ? " pair: " : " pairs: ")
                + m.kind().measure() + " (" + m.kind().unit() + (m.kind().higherIsBetter() ? ", higher is better" : ", lower is better")
                + "); pairs told by " + told(m);
    }

    /** How the pairs were told, most used first: {@code LIDs in the hosts' ibstat (9), the file name (1)}. */
    public static String told(PairMatrix m) {
        Map<PairEnds.How, Integer> n = new EnumMap<>(PairEnds.How.class);
        for (PairCell c : m.cells()) {
            n.merge(c.how(), 1, Integer::sum);
        }
        return String.join(", ", n.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue())
                .map(e -> e.getKey().label() + " (" + e.getValue() + ")").toList());
    }

    /** A cell's text: its value, {@code failed}, the diagonal's dash or a dot for a pair not measured. */
    public static String value(PairMatrix m, String row, String col) {
        if (row.equals(col)) {
            return SELF;
        }
        PairCell c = m.cell(row, col);
        return c == null ? NONE : c.failed() ? "failed" : number(c.value());
    }

    /** A value in a grid: one decimal below 1,000 (healthy pairs differ by less than a unit of 392 Gb/s), two below 10. */
    public static String number(double v) {
        return String.format(Locale.ROOT, v >= 1000 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
    }

    /** The plain text of every matrix, for a terminal or a file; controls from the inputs replaced ({@link XmlText}). */
    public static String text(PairMatrices p) {
        StringBuilder b = new StringBuilder();
        if (p.matrices().isEmpty()) {
            b.append("No pair measured: the inputs hold no perftest run (ib_*_bw, ib_*_lat) placed on two hosts and no "
                    + "nccl-tests run between two hosts.\n");
        }
        for (PairMatrix m : p.matrices()) {
            b.append(m.title()).append('\n').append(about(m)).append("\n\n");
            int w = 6;
            for (String n : m.nodes()) {
                w = Math.max(w, n.length());
            }
            b.append(pad("", w));
            for (String n : m.nodes()) {
                b.append("  ").append(pad(n, w));
            }
            b.append('\n');
            for (String r : m.nodes()) {
                b.append(String.format(Locale.ROOT, "%-" + w + "s", r));
                for (String c : m.nodes()) {
                    b.append("  ").append(pad(value(m, r, c), w));
                }
                b.append('\n');
            }
            b.append('\n');
            for (String s : m.verdict().sentences(m)) {
                b.append(s).append('\n');
            }
            b.append('\n');
        }
        unplaced(p, b, "", XmlText::clean);
        return XmlText.clean(b.toString()); // a node name's controls (a terminal escape) replaced, one for one
    }

    private static String pad(String s, int w) {
        return String.format(Locale.ROOT, "%" + w + "s", s);
    }

    /** The runs no pair was found for, each text through {@code text} (Markdown: {@link MarkdownText#inline}). */
    private static void unplaced(PairMatrices p, StringBuilder b, String bullet, UnaryOperator<String> text) {
        if (p.unplaced().isEmpty()) {
            return;
        }
        b.append("Runs on no known pair (" + p.unplaced().size() + "):\n" + (bullet.isEmpty() ? "" : "\n"));
        for (PairMatrices.Unplaced u : p.unplaced().subList(0, Math.min(MAX_UNPLACED, p.unplaced().size()))) {
            b.append(bullet.isEmpty() ? "  " : bullet).append(bullet.isEmpty() ? XmlText.clean(where(u.at())) : code(where(u.at())))
                    .append(' ').append(text.apply(u.test())).append(": ").append(text.apply(u.reason())).append('\n');
        }
        if (p.unplaced().size() > MAX_UNPLACED) {
            b.append(bullet.isEmpty() ? "  " : bullet).append("... and ").append(p.unplaced().size() - MAX_UNPLACED)
                    .append(" more\n");
        }
        b.append('\n');
    }

    private static String where(Evidence e) {
        return e.where();
    }

    /** The report's section in Markdown; empty when no pairwise test was loaded. */
    public static String markdown(PairMatrices p) {
        if (p.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder("## Pairwise tests\n\n");
        for (PairMatrix m : p.matrices()) {
            b.append("### ").append(MarkdownText.inline(m.title())).append("\n\n").append(MarkdownText.inline(about(m)))
                    .append("; in brackets, the fraction of the best pair (").append(PairVerdict.num(m.best())).append(' ')
                    .append(m.kind().unit()).append(").\n\n|  |");
            for (String n : m.nodes()) {
                b.append(' ').append(MarkdownText.cell(n)).append(" |");
            }
            b.append("\n| --- |");
            b.append(" ---: |".repeat(m.nodes().size()));
            b.append('\n');
            for (String r : m.nodes()) {
                b.append("| **").append(MarkdownText.cell(r)).append("** |");
                for (String c : m.nodes()) {
                    PairCell cell = r.equals(c) ? null : m.cell(r, c);
                    b.append(' ').append(MarkdownText.cell(value(m, r, c)));
                    if (cell != null && !cell.failed()) {
                        b.append(" (").append(Math.round(m.fractionOfBest(cell) * 100)).append("%)");
                    }
                    b.append(" |");
                }
                b.append('\n');
            }
            b.append('\n');
            for (String s : m.verdict().sentences(m)) {
                b.append("- ").append(MarkdownText.inline(s)).append('\n');
            }
            b.append('\n');
        }
        unplaced(p, b, "- ", MarkdownText::inline);
        return b.toString();
    }

    /** The report's section in HTML, each cell coloured by its fraction of the best pair; empty when none was loaded. */
    public static String html(PairMatrices p, MapPalette palette) {
        if (p.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder("<h2>Pairwise tests</h2>\n");
        for (PairMatrix m : p.matrices()) {
            b.append("<h3>").append(esc(m.title())).append("</h3>\n<p class=\"meta\">").append(esc(about(m)))
                    .append("; colour: the fraction of the best pair (").append(esc(PairVerdict.num(m.best()))).append(' ')
                    .append(esc(m.kind().unit())).append(").</p>\n<table class=\"pairs\">\n<tr><th></th>");
            for (String n : m.nodes()) {
                b.append("<th>").append(esc(n)).append("</th>");
            }
            b.append("</tr>\n");
            for (String r : m.nodes()) {
                b.append("<tr><th>").append(esc(r)).append("</th>");
                for (String c : m.nodes()) {
                    PairCell cell = r.equals(c) ? null : m.cell(r, c);
                    if (cell == null) {
                        b.append("<td>").append(esc(value(m, r, c))).append("</td>");
                        continue;
                    }
                    int bg = PairHeat.argb(palette, m.fractionOfBest(cell), cell.failed());
                    b.append("<td style=\"background:").append(PairHeat.hex(bg)).append(";color:")
                            .append(PairHeat.hex(PairHeat.text(palette, bg))).append("\" title=\"")
                            .append(esc(tooltip(m, cell))).append("\">").append(esc(value(m, r, c))).append("</td>");
                }
                b.append("</tr>\n");
            }
            b.append("</table>\n<ul class=\"verdict\">\n");
            for (String s : m.verdict().sentences(m)) {
                b.append("<li>").append(esc(s)).append("</li>\n");
            }
            b.append("</ul>\n");
        }
        StringBuilder u = new StringBuilder();
        unplaced(p, u, "- ", XmlText::clean); // escaped below
        if (u.length() > 0) {
            b.append("<pre class=\"evidence\">").append(esc(u.toString().strip())).append("</pre>\n");
        }
        return b.toString();
    }

    /**
     * A cell's hover text: the pair, its value and what it is, as a fraction of the best, how the pair
     * was told, how many runs, then its evidence lines ({@code file:line: text}).
     */
    public static String tooltip(PairMatrix m, PairCell c) {
        StringBuilder b = new StringBuilder();
        b.append(c.label()).append(": ").append(c.failed() ? "every run failed" : number(c.value()) + " " + c.unit()
                + " (" + c.what() + "), " + Math.round(m.fractionOfBest(c) * 100) + "% of the best pair").append('\n');
        b.append("pair told by ").append(c.how().label()).append("; ").append(c.runs()).append(c.runs() == 1 ? " run" : " runs")
                .append('\n');
        List<Evidence> ev = c.evidence();
        for (Evidence e : ev.subList(0, Math.min(8, ev.size()))) {
            b.append(e.where()).append(": ").append(e.text().strip().replaceAll("\\s+", " ")).append('\n');
        }
        if (ev.size() > 8) {
            b.append("... and ").append(ev.size() - 8).append(" more lines\n");
        }
        return b.toString().stripTrailing();
    }

    private static String code(String s) {
        return MarkdownText.code(s);
    }

    private static String esc(String s) {
        return IncidentReport.esc(s);
    }
}
