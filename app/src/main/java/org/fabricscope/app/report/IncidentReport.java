package org.fabricscope.app.report;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

import org.fabricscope.app.render.XmlText;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.flows.Flow;
import org.fabricscope.model.flows.FlowResult;

/**
 * An incident report: the inputs, a summary (root cause, impact, what to do first; {@link ReportSummary}),
 * the timeline, the findings (subjects, evidence, remedies), the troubleshooting
 * flows walked with each step's answer and evidence, and their conclusions, as Markdown or as one
 * self-contained HTML page (inline CSS; the map, when given, as a PNG {@code data:} URI). No toolkit:
 * {@code diagnose --markdown|--html} and the window's File &gt; Export incident report both use it.
 */
public final class IncidentReport {
    /** Evidence lines shown per finding, step or conclusion; the rest are counted. */
    static final int MAX_EVIDENCE = 8;

    private final String title;
    private final List<String> inputs;
    private final List<Finding> findings;
    private final List<FlowResult> flows;
    private final byte[] mapPng;
    private final Instant when;
    private org.fabricscope.model.incident.reasoning.Incident incident;
    private org.fabricscope.model.pairwise.PairMatrices pairs = org.fabricscope.model.pairwise.PairMatrices.EMPTY;
    /** Events the report's timeline lists at most (context events are left out). */
    static final int MAX_TIMELINE = 80;

    /**
     * @param inputs the files and folders loaded, as the user named them
     * @param flows the walked flows (not-applicable ones are listed by id only)
     * @param mapPng a picture of the map, or null
     */
    public IncidentReport(String title, List<String> inputs, List<Finding> findings, List<FlowResult> flows, byte[] mapPng,
                          Instant when) {
        this.title = Objects.requireNonNull(title, "title");
        this.inputs = List.copyOf(inputs);
        this.findings = List.copyOf(findings);
        this.flows = List.copyOf(flows);
        this.mapPng = mapPng == null ? null : mapPng.clone();
        this.when = Objects.requireNonNull(when, "when");
    }

    /** This report with the incident's timeline (the root cause and the events after it), between findings and flows. */
    public IncidentReport withTimeline(org.fabricscope.model.incident.reasoning.Incident i) {
        IncidentReport r = new IncidentReport(title, inputs, findings, flows, mapPng, when);
        r.incident = i;
        r.pairs = pairs;
        return r;
    }

    /** This report with the pairwise tests' matrices after the timeline (no section when none was loaded). */
    public IncidentReport withPairs(org.fabricscope.model.pairwise.PairMatrices p) {
        IncidentReport r = withTimeline(incident);
        r.pairs = Objects.requireNonNull(p, "pairs");
        return r;
    }

    private List<org.fabricscope.model.incident.reasoning.IncidentEvent> timelineEvents() {
        return incident == null ? List.of() : incident.events().stream()
                .filter(e -> e.role() != org.fabricscope.model.incident.Role.CONTEXT).limit(MAX_TIMELINE).toList();
    }

    private static String when(org.fabricscope.model.incident.reasoning.IncidentEvent e) {
        return e.stamp().known() ? e.stamp().iso() : "(no time)";
    }

    private String after(org.fabricscope.model.incident.reasoning.IncidentEvent e) {
        Integer cause = incident.causeOf().get(e.seq());
        var c = cause == null ? null : incident.event(cause);
        if (c == null) {
            return "";
        }
        return incident.rootCause() != null && c.seq() == incident.rootCause().seq() ? "after the root cause"
                : "after " + c.who().label() + "'s " + c.title();
    }

    private void timelineMd(StringBuilder b) {
        if (incident == null) {
            return;
        }
        b.append("## Timeline\n\n");
        var root = incident.rootCause();
        b.append(root == null ? "No failure found in the inputs.\n\n" : "Root cause: **" + md(root.line()) + "** ("
                + md(root.causeClass().id()) + ", " + code(root.id()) + "), " + code(evidence(root.evidence())) + "\n\n");
        for (String n : incident.notes()) {
            b.append("Note: ").append(md(n)).append("\n\n");
        }
        for (var e : timelineEvents()) {
            String mark = root != null && e.seq() == root.seq() ? "**root cause** " : "";
            String after = after(e);
            b.append("- ").append(code(when(e))).append(' ').append(mark).append(md(e.who().label())).append(": ")
                    .append(md(e.title())).append(" (").append(md(e.role().label())).append(')')
                    .append(after.isEmpty() ? "" : "; " + md(after)).append(" - ").append(code(e.evidence().where())).append('\n');
        }
        b.append('\n');
    }

    private void timelineHtml(StringBuilder b) {
        if (incident == null) {
            return;
        }
        b.append("<h2>Timeline</h2>\n");
        var root = incident.rootCause();
        b.append(root == null ? "<p>No failure found in the inputs.</p>\n" : "<p class=\"root\">Root cause: <b>" + esc(root.line())
                + "</b> (" + esc(root.causeClass().id()) + ", <code>" + esc(root.id()) + "</code>)</p>\n");
        for (String n : incident.notes()) {
            b.append("<p class=\"meta\">Note: ").append(esc(n)).append("</p>\n");
        }
        b.append("<table class=\"timeline\">\n<tr><th>time</th><th>who</th><th>role</th><th>what</th><th>line</th></tr>\n");
        for (var e : timelineEvents()) {
            boolean isRoot = root != null && e.seq() == root.seq();
            String after = after(e);
            b.append(isRoot ? "<tr class=\"root\">" : "<tr>").append("<td>").append(esc(when(e))).append("</td><td>")
                    .append(esc(e.who().label())).append("</td><td>").append(esc(e.role().label())).append("</td><td>")
                    .append(esc(e.title())).append(after.isEmpty() ? "" : "<br><i>" + esc(after) + "</i>").append("</td><td><code>")
                    .append(esc(e.evidence().where())).append("</code></td></tr>\n");
        }
        b.append("</table>\n");
    }

    private String stamp() {
        return DateTimeFormatter.ISO_INSTANT.format(when.atOffset(ZoneOffset.UTC).withNano(0).toInstant());
    }

    private List<FlowResult> applicable() {
        return flows.stream().filter(FlowResult::applicable).toList();
    }

    private List<FlowResult> notApplicable() {
        return flows.stream().filter(r -> !r.applicable()).toList();
    }

    /** The report as Markdown. */
    public String markdown() {
        StringBuilder b = new StringBuilder();
        b.append("# ").append(md(title)).append("\n\n");
        b.append("Generated ").append(stamp()).append(" by FabricScope from: ")
                .append(inputs.isEmpty() ? "(nothing loaded)" : String.join(", ", inputs.stream().map(IncidentReport::code).toList()))
                .append(".\n\n");
        b.append(ReportSummary.of(findings, incident).markdown());
        timelineMd(b);
        b.append("## Findings (").append(findings.size()).append(")\n\n");
        if (findings.isEmpty()) {
            b.append("No findings: counters within thresholds, links at full rate, all linked ports active.\n\n");
        }
        for (Finding f : findings) {
            b.append("### ").append(f.severity().label().toUpperCase(Locale.ROOT)).append(' ').append(code(f.id())).append(": ")
                    .append(md(f.title())).append("\n\n");
            if (!f.subjects().isEmpty()) {
                b.append("Subjects: ").append(String.join("; ", f.subjects().stream().map(IncidentReport::code).toList()))
                        .append("\n\n");
            }
            evidenceMd(b, f.evidence());
            if (!f.remedies().isEmpty()) {
                b.append("What to do:\n\n");
                for (String r : f.remedies()) {
                    listItemMd(b, r);
                }
                b.append('\n');
            }
        }
        b.append(PairMatrixReport.markdown(pairs));
        b.append("## Troubleshooting flows\n\n");
        if (applicable().isEmpty()) {
            b.append("None applies.\n\n");
        }
        for (FlowResult r : applicable()) {
            b.append("### ").append(md(r.flow().title())).append(" (").append(code(r.flow().id())).append(", ")
                    .append(md(r.status().label())).append(")\n\n");
            if (!r.symptoms().isEmpty()) {
                b.append("Symptoms: ").append(String.join("; ", r.symptoms().stream().map(IncidentReport::md).toList()))
                        .append("\n\n");
            }
            int n = 1;
            for (FlowResult.StepResult s : r.steps()) {
                b.append(n++).append(". ").append(md(s.question())).append(" **")
                        .append(md(s.answer().verdict().label())).append("**").append(s.given() ? " (answered by the user)" : "")
                        .append(" — ").append(md(s.answer().detail())).append('\n');
                if (s.kind() == Flow.Kind.MANUAL && !s.command().isEmpty()) {
                    b.append("   - command: ").append(code(s.command())).append('\n');
                }
                for (Evidence e : limit(s.answer().evidence())) {
                    b.append("   - evidence: ").append(code(evidence(e))).append('\n');
                }
            }
            b.append('\n');
            if (r.conclusion() != null) {
                FlowResult.ConclusionResult c = r.conclusion();
                b.append("**Conclusion** (").append(code(c.id()))
                        .append(c.finding().isEmpty() ? "" : ", finding " + code(c.finding())).append("): ")
                        .append(md(c.text())).append("\n\n");
                evidenceMd(b, c.evidence());
                if (!c.remedies().isEmpty()) {
                    b.append("Remedies:\n\n");
                    for (String rem : c.remedies()) {
                        listItemMd(b, rem);
                    }
                    b.append('\n');
                }
            } else {
                b.append("Waiting: ").append(md(r.reason())).append("\n\n");
            }
        }
        if (!notApplicable().isEmpty()) {
            b.append("Not applicable: ").append(String.join(", ", notApplicable().stream().map(r -> code(r.flow().id()))
                    .toList())).append(".\n");
        }
        return b.toString();
    }

    private static void evidenceMd(StringBuilder b, List<Evidence> ev) {
        if (ev.isEmpty()) {
            return;
        }
        b.append("Evidence:\n\n```text\n");
        for (Evidence e : limit(ev)) {
            b.append(MarkdownText.fenced(evidence(e))).append('\n');
        }
        if (ev.size() > MAX_EVIDENCE) {
            b.append("... and ").append(ev.size() - MAX_EVIDENCE).append(" more\n");
        }
        b.append("```\n\n");
    }

    /** A remedy: its first line as the item, further lines (commands, snippets) as an indented code block. */
    private static void listItemMd(StringBuilder b, String text) {
        String[] lines = text.split("\\R");
        b.append("- ").append(md(lines[0])).append('\n');
        if (lines.length > 1) {
            b.append("\n  ```text\n");
            for (int i = 1; i < lines.length; i++) {
                b.append("  ").append(MarkdownText.fenced(lines[i])).append('\n');
            }
            b.append("  ```\n\n");
        }
    }

    /** The report as one self-contained HTML page (inline CSS, the map inline). */
    public String html() {
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta http-equiv=\"Content-Security-Policy\" content=\"").append(CSP).append("\">\n<title>").append(esc(title))
                .append("</title>\n<style>\n").append(CSS).append("</style>\n</head>\n<body>\n");
        b.append("<h1>").append(esc(title)).append("</h1>\n<p class=\"meta\">Generated ").append(esc(stamp()))
                .append(" by FabricScope from: ")
                .append(inputs.isEmpty() ? "(nothing loaded)" : String.join(", ", inputs.stream().map(i -> "<code>" + esc(i) + "</code>").toList()))
                .append(".</p>\n");
        b.append(ReportSummary.of(findings, incident).html()); // the summary first, then the map and the timeline
        if (mapPng != null) {
            b.append("<h2>Map</h2>\n<img class=\"map\" alt=\"the fabric map\" src=\"data:image/png;base64,")
                    .append(Base64.getEncoder().encodeToString(mapPng)).append("\">\n");
        }
        timelineHtml(b);
        b.append("<h2>Findings (").append(findings.size()).append(")</h2>\n");
        if (findings.isEmpty()) {
            b.append("<p>No findings: counters within thresholds, links at full rate, all linked ports active.</p>\n");
        }
        for (Finding f : findings) {
            String sev = f.severity().label();
            b.append("<section class=\"finding ").append(esc(sev)).append("\">\n<h3><span class=\"sev\">")
                    .append(esc(sev.toUpperCase(Locale.ROOT))).append("</span> <code>").append(esc(f.id())).append("</code> ")
                    .append(esc(f.title())).append("</h3>\n");
            if (!f.subjects().isEmpty()) {
                b.append("<p>Subjects: ").append(esc(String.join("; ", f.subjects()))).append("</p>\n");
            }
            evidenceHtml(b, f.evidence());
            remediesHtml(b, "What to do", f.remedies());
            b.append("</section>\n");
        }
        b.append(PairMatrixReport.html(pairs, org.fabricscope.app.render.MapPalette.defaults()));
        b.append("<h2>Troubleshooting flows</h2>\n");
        if (applicable().isEmpty()) {
            b.append("<p>None applies.</p>\n");
        }
        for (FlowResult r : applicable()) {
            b.append("<section class=\"flow\">\n<h3>").append(esc(r.flow().title())).append(" <code>").append(esc(r.flow().id()))
                    .append("</code> <span class=\"status\">").append(esc(r.status().label())).append("</span></h3>\n");
            if (!r.symptoms().isEmpty()) {
                b.append("<p>Symptoms: ").append(esc(String.join("; ", r.symptoms()))).append("</p>\n");
            }
            b.append("<ol class=\"steps\">\n");
            for (FlowResult.StepResult s : r.steps()) {
                b.append("<li><span class=\"q\">").append(esc(s.question())).append("</span> <b class=\"ans ")
                        .append(esc(s.answer().verdict().label())).append("\">").append(esc(s.answer().verdict().label()))
                        .append("</b>").append(s.given() ? " <i>(answered by the user)</i>" : "").append("<br><span class=\"detail\">")
                        .append(esc(s.answer().detail())).append("</span>");
                if (s.kind() == Flow.Kind.MANUAL && !s.command().isEmpty()) {
                    b.append("<pre class=\"cmd\">").append(esc(s.command())).append("</pre>");
                }
                evidenceHtml(b, s.answer().evidence());
                b.append("</li>\n");
            }
            b.append("</ol>\n");
            if (r.conclusion() != null) {
                FlowResult.ConclusionResult c = r.conclusion();
                b.append("<div class=\"conclusion\"><p><b>Conclusion</b> <code>").append(esc(c.id())).append("</code>")
                        .append(c.finding().isEmpty() ? "" : " (finding <code>" + esc(c.finding()) + "</code>)")
                        .append(": ").append(esc(c.text())).append("</p>\n");
                evidenceHtml(b, c.evidence());
                remediesHtml(b, "Remedies", c.remedies());
                b.append("</div>\n");
            } else {
                b.append("<p class=\"waiting\">Waiting: ").append(esc(r.reason())).append("</p>\n");
            }
            b.append("</section>\n");
        }
        if (!notApplicable().isEmpty()) {
            b.append("<p class=\"meta\">Not applicable: ").append(esc(String.join(", ",
                    notApplicable().stream().map(r -> r.flow().id()).toList()))).append(".</p>\n");
        }
        b.append("</body>\n</html>\n");
        return b.toString();
    }

    private static void evidenceHtml(StringBuilder b, List<Evidence> ev) {
        if (ev.isEmpty()) {
            return;
        }
        b.append("<pre class=\"evidence\">");
        for (Evidence e : limit(ev)) {
            b.append(esc(evidence(e))).append('\n');
        }
        if (ev.size() > MAX_EVIDENCE) {
            b.append("... and ").append(ev.size() - MAX_EVIDENCE).append(" more\n");
        }
        b.append("</pre>\n");
    }

    private static void remediesHtml(StringBuilder b, String heading, List<String> remedies) {
        if (remedies.isEmpty()) {
            return;
        }
        b.append("<p>").append(esc(heading)).append(":</p>\n<ul class=\"remedies\">\n");
        for (String r : remedies) {
            String[] lines = r.split("\\R", 2);
            b.append("<li>").append(esc(lines[0]));
            if (lines.length > 1) {
                b.append("<pre class=\"cmd\">").append(esc(lines[1])).append("</pre>");
            }
            b.append("</li>\n");
        }
        b.append("</ul>\n");
    }

    private static List<Evidence> limit(List<Evidence> ev) {
        return ev.size() <= MAX_EVIDENCE ? ev : ev.subList(0, MAX_EVIDENCE);
    }

    static String evidence(Evidence e) {
        return e.where() + ": " + oneLine(e.text());
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\R", " ");
    }

    /** Input text in a code span that it cannot close ({@link MarkdownText#code}). */
    private static String code(String s) {
        return MarkdownText.code(s);
    }

    /** Input text in running Markdown: no HTML, no link ({@link MarkdownText#inline}). */
    private static String md(String s) {
        return MarkdownText.inline(s);
    }

    /**
     * HTML-escapes text for element content and attributes in either quotes, the controls XML 1.0
     * forbids replaced ({@link XmlText}); null is empty.
     */
    public static String esc(String s) {
        return XmlText.escape(s);
    }

    /**
     * What the page may load and run: nothing but its own inline CSS and the map's {@code data:} PNG. No
     * script runs, no form posts, nothing is fetched, so a name or log line that slipped past escaping
     * still could not act.
     */
    static final String CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
            + "form-action 'none'; frame-ancestors 'none'";

    private static final String CSS = String.join("\n",
            "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#1d2430;line-height:1.45}",
            "h1{font-size:1.6em;margin-bottom:.2em}h2{border-bottom:1px solid #d0d7de;padding-bottom:.2em;margin-top:1.6em}",
            "h3{font-size:1.05em;margin:.2em 0 .4em}.meta{color:#57606a}code{background:#f3f4f6;padding:0 .25em;border-radius:3px}",
            "pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:4px;padding:.5em;overflow-x:auto;white-space:pre-wrap;font-size:.9em}",
            "section{border-left:4px solid #8c959f;padding:.3em .8em;margin:.8em 0;background:#fcfcfd}",
            "section.error{border-color:#cf222e}section.warning{border-color:#bf8700}section.info{border-color:#0969da}",
            ".sev{font-weight:bold}.error .sev{color:#cf222e}.warning .sev{color:#9a6700}.info .sev{color:#0969da}",
            "section.flow{border-color:#8250df}.status{font-size:.8em;color:#57606a}.ans.yes{color:#1a7f37}.ans.no{color:#cf222e}",
            ".ans.unknown{color:#9a6700}.detail{color:#57606a}.conclusion{background:#eef6ee;border-radius:4px;padding:.4em .8em}",
            ".waiting{color:#9a6700}img.map{max-width:100%;border:1px solid #d0d7de}",
            "table.timeline{border-collapse:collapse;font-size:.9em}table.timeline td,table.timeline th{border-bottom:1px solid #d0d7de;"
                    + "padding:.2em .5em;text-align:left;vertical-align:top}tr.root{background:#ffebe9}p.root{color:#cf222e}",
            "table.pairs{border-collapse:collapse;font-size:.9em}table.pairs td,table.pairs th{border:1px solid #d0d7de;"
                    + "padding:.2em .5em;text-align:right}table.pairs th{background:#f6f8fa}",
            "dl.summary{display:grid;grid-template-columns:max-content 1fr;gap:.3em 1em;background:#f6f8fa;padding:.6em 1em;"
                    + "border-radius:4px}dl.summary dt{font-weight:bold}dl.summary dd{margin:0}dl.summary ul{margin:0;padding-left:1.2em}", "");
}
