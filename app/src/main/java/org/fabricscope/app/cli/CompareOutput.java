package org.fabricscope.app.cli;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.fabricscope.model.compare.Change;
import org.fabricscope.model.compare.Comparison;
import org.fabricscope.model.compare.CounterDelta;
import org.fabricscope.model.core.Finding;

import com.fasterxml.jackson.core.JsonProcessingException;

/**
 * What {@code fabricscope compare} prints: the comparison as text (a terminal), Markdown (a ticket) or JSON (a
 * program; the fields are a contract, documented in {@code docs/compare.md}, and only grow).
 */
final class CompareOutput {
    /** The output formats of {@code --format}. */
    enum Format { text, markdown, json }

    private final CompareCommand.Side before;
    private final CompareCommand.Side after;
    private final Comparison c;

    CompareOutput(CompareCommand.Side before, CompareCommand.Side after, Comparison c) {
        this.before = before;
        this.after = after;
        this.c = c;
    }

    String render(Format f) throws JsonProcessingException {
        return switch (f) {
            case text -> text();
            case markdown -> markdown();
            case json -> JsonDocs.write(json()) + System.lineSeparator();
        };
    }

    private static String inputs(CompareCommand.Side s) {
        return String.join(", ", s.inputs().stream().map(java.nio.file.Path::toString).toList());
    }

    private String text() {
        StringBuilder s = new StringBuilder();
        s.append("old: ").append(inputs(before)).append('\n');
        s.append("new: ").append(inputs(after)).append('\n');
        var d = c.findings();
        s.append('\n').append(String.format(Locale.ROOT, "Findings: %d new, %d resolved, %d unchanged%n", d.added().size(),
                d.resolved().size(), d.unchanged().size()));
        findingLines(s, "NEW", d.added());
        findingLines(s, "RESOLVED", d.resolved());
        findingLines(s, "SAME", d.unchanged());
        for (String layer : Comparison.LAYERS) {
            if (layer.equals(Change.HOSTS)) {
                counterText(s);
            }
            List<Change> changes = c.changes(layer);
            s.append('\n').append(Change.layerTitle(layer)).append(": ").append(count(changes.size())).append('\n');
            for (Change ch : changes) {
                s.append(String.format(Locale.ROOT, "  %-8s %s%n", ch.kind(), ch.text()));
            }
        }
        return s.toString();
    }

    private static String count(int n) {
        return n == 0 ? "no change" : n == 1 ? "1 change" : n + " changes";
    }

    private void counterText(StringBuilder s) {
        s.append('\n').append("Counters: ").append(count(c.counters().size())).append('\n');
        for (CounterDelta d : c.counters()) {
            s.append("  ").append(d.text()).append('\n');
        }
    }

    private static void findingLines(StringBuilder s, String label, List<Finding> findings) {
        for (Finding f : findings) {
            s.append(String.format(Locale.ROOT, "  %-8s %-7s %-16s %s%n", label, f.severity().label().toUpperCase(Locale.ROOT),
                    f.id(), f.title().replace('\n', ' ')));
        }
    }

    private String markdown() {
        StringBuilder s = new StringBuilder("# FabricScope comparison\n\n");
        s.append("- old: ").append(code(inputs(before))).append('\n');
        s.append("- new: ").append(code(inputs(after))).append("\n\n");
        var d = c.findings();
        s.append(String.format(Locale.ROOT, "## Findings: %d new, %d resolved, %d unchanged%n%n", d.added().size(),
                d.resolved().size(), d.unchanged().size()));
        if (d.added().size() + d.resolved().size() + d.unchanged().size() > 0) {
            s.append("| | severity | id | title |\n| --- | --- | --- | --- |\n");
            findingRows(s, "new", d.added());
            findingRows(s, "resolved", d.resolved());
            findingRows(s, "unchanged", d.unchanged());
            s.append('\n');
        }
        for (String layer : Comparison.LAYERS) {
            if (layer.equals(Change.HOSTS)) {
                s.append("## Counters\n\n");
                if (c.counters().isEmpty()) {
                    s.append("No change.\n\n");
                } else {
                    s.append("| port | counter | old | new | increase | per hour |\n| --- | --- | --- | --- | --- | --- |\n");
                    for (CounterDelta x : c.counters()) {
                        s.append("| ").append(cell(x.port())).append(" | ").append(cell(x.counter())).append(" | ")
                                .append(value(x.before())).append(" | ").append(value(x.after())).append(" | ")
                                .append(x.before() == null || x.after() == null ? "" : Long.toUnsignedString(x.delta())
                                        + (x.reset() ? " (after a reset)" : ""))
                                .append(" | ").append(x.perHour() == null ? "" : String.format(Locale.ROOT, "%.1f", x.perHour()))
                                .append(" |\n");
                    }
                    s.append('\n');
                }
            }
            List<Change> changes = c.changes(layer);
            s.append("## ").append(Change.layerTitle(layer)).append("\n\n");
            if (changes.isEmpty()) {
                s.append("No change.\n\n");
                continue;
            }
            s.append("| change | subject | what | old | new |\n| --- | --- | --- | --- | --- |\n");
            for (Change ch : changes) {
                s.append("| ").append(ch.kind()).append(" | ").append(cell(ch.subject())).append(" | ").append(cell(ch.field()))
                        .append(" | ").append(cell(ch.before())).append(" | ").append(cell(ch.after())).append(" |\n");
            }
            s.append('\n');
        }
        return s.toString();
    }

    private static void findingRows(StringBuilder s, String label, List<Finding> findings) {
        for (Finding f : findings) {
            s.append("| ").append(label).append(" | ").append(f.severity().label()).append(" | ").append(cell(f.id())).append(" | ")
                    .append(cell(f.title())).append(" |\n");
        }
    }

    private static String value(Long v) {
        return v == null ? "" : Long.toUnsignedString(v);
    }

    /** A table cell's text: pipes escaped, line breaks as spaces, backticks and angle brackets made harmless. */
    static String cell(String v) {
        if (v == null) {
            return "";
        }
        return v.replace("\\", "\\\\").replace("|", "\\|").replace("\r", " ").replace("\n", " ").replace("<", "&lt;")
                .replace(">", "&gt;").replace("`", "'");
    }

    private static String code(String v) {
        return "`" + v.replace("`", "'").replace("\n", " ") + "`";
    }

    /** The JSON document: {@code old, new, summary, changes, counters, findings} (docs/compare.md). */
    Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("old", side(before));
        m.put("new", side(after));
        Map<String, Object> summary = new LinkedHashMap<>();
        for (String layer : Comparison.LAYERS) {
            summary.put(layer, c.changes(layer).size());
        }
        summary.put("counters", c.counters().size());
        summary.put("findingsNew", c.findings().added().size());
        summary.put("findingsResolved", c.findings().resolved().size());
        summary.put("findingsUnchanged", c.findings().unchanged().size());
        m.put("summary", summary);
        m.put("changes", c.changes().stream().map(CompareOutput::change).toList());
        m.put("counters", c.counters().stream().map(CompareOutput::counter).toList());
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("new", c.findings().added().stream().map(Json::finding).toList());
        f.put("resolved", c.findings().resolved().stream().map(Json::finding).toList());
        f.put("unchanged", c.findings().unchanged().stream().map(Json::finding).toList());
        m.put("findings", f);
        return m;
    }

    private static Map<String, Object> side(CompareCommand.Side s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("inputs", s.inputs().stream().map(java.nio.file.Path::toString).toList());
        m.put("findings", s.analysis().findings().size());
        m.put("problems", s.diagnostics().stream().filter(d -> d.severity() != org.fabricscope.model.core.Severity.INFO).count());
        return m;
    }

    private static Map<String, Object> change(Change ch) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("layer", ch.layer());
        m.put("kind", ch.kind());
        m.put("subject", ch.subject());
        m.put("field", ch.field());
        m.put("old", ch.before());
        m.put("new", ch.after());
        m.put("text", ch.text());
        return m;
    }

    private static Map<String, Object> counter(CounterDelta d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("port", d.port());
        m.put("guid", org.fabricscope.model.core.Guids.format(d.guid()));
        m.put("portNumber", d.portNumber());
        m.put("counter", d.counter());
        m.put("old", unsigned(d.before()));
        m.put("new", unsigned(d.after()));
        m.put("increase", d.before() == null || d.after() == null ? null : unsigned(d.delta()));
        m.put("reset", d.reset());
        m.put("perHour", d.perHour());
        return m;
    }

    private static BigInteger unsigned(Long v) {
        return v == null ? null : new BigInteger(Long.toUnsignedString(v));
    }
}
