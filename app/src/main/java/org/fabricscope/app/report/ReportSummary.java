package org.fabricscope.app.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.fabricscope.model.core.Finding;
import org.fabricscope.model.incident.reasoning.Incident;
import org.fabricscope.model.incident.reasoning.IncidentEvent;

/**
 * What an incident report opens with: the root cause (the {@code incident-root-cause} finding, else
 * plainly that the evidence shows no failure, which is not a clean bill of health), its impact (the
 * finding's subjects and the parties whose failures followed from it on the timeline), and what to do
 * first (the root cause's first remedy). Worked out from the findings and the incident; no toolkit.
 */
public record ReportSummary(String rootCause, List<String> impact, String doFirst, boolean failureFound) {
    static final String ROOT_CAUSE_ID = "incident-root-cause";
    static final String NO_FAILURE = "no failure found in the evidence";
    static final String NOT_HEALTH = "This is not a clean bill of health: only what the loaded inputs show was checked, "
            + "and checks whose inputs were not loaded did not run.";
    static final String MORE_EVIDENCE = "Load more evidence: every rank's log with NCCL_DEBUG=INFO, the job's pods and events "
            + "(kubectl get pods,events -o json), the fabric (ibnetdiscover) and its error counters (perfquery, ibqueryerrors).";

    public ReportSummary {
        impact = List.copyOf(impact);
    }

    /** The summary of these findings; {@code incident} (may be null) adds the parties that followed the root cause. */
    public static ReportSummary of(List<Finding> findings, Incident incident) {
        Finding root = findings.stream().filter(f -> f.id().equals(ROOT_CAUSE_ID)).findFirst().orElse(null);
        if (root == null) {
            Finding worst = findings.stream().filter(f -> !f.remedies().isEmpty())
                    .min(Comparator.comparing(Finding::severity)).orElse(null);
            String first = worst == null ? MORE_EVIDENCE
                    : worst.remedies().get(0) + " (for " + worst.id() + ": " + worst.title() + ")";
            return new ReportSummary(NO_FAILURE, List.of(), first, false);
        }
        Set<String> who = new LinkedHashSet<>(root.subjects());
        if (incident != null && incident.rootCause() != null) {
            for (IncidentEvent e : incident.consequencesOf(incident.rootCause())) {
                if (!e.who().isNobody()) {
                    who.add("followed by " + e.who().label());
                }
            }
        }
        String first = root.remedies().isEmpty() ? "Read the root cause's evidence below." : root.remedies().get(0);
        return new ReportSummary(root.title(), new ArrayList<>(who), first, true);
    }

    /** The summary as a Markdown section. */
    public String markdown() {
        StringBuilder b = new StringBuilder("## Summary\n\n");
        b.append("- **Root cause:** ").append(md(failureFound ? rootCause : NO_FAILURE + ". " + NOT_HEALTH)).append('\n');
        b.append("- **Impact:** ").append(impact.isEmpty() ? (failureFound ? "no rank, pod or node named" : "none shown by the evidence")
                : md(String.join("; ", impact))).append('\n');
        b.append("- **What to do first:** ").append(md(doFirst)).append("\n\n");
        return b.toString();
    }

    /** The summary as an HTML section, every text escaped. */
    public String html() {
        StringBuilder b = new StringBuilder("<h2>Summary</h2>\n<dl class=\"summary\">\n");
        b.append("<dt>Root cause</dt><dd>").append(IncidentReport.esc(failureFound ? rootCause : NO_FAILURE + ". " + NOT_HEALTH))
                .append("</dd>\n");
        b.append("<dt>Impact</dt><dd>");
        if (impact.isEmpty()) {
            b.append(failureFound ? "no rank, pod or node named" : "none shown by the evidence");
        } else {
            b.append("<ul>");
            impact.forEach(i -> b.append("<li>").append(IncidentReport.esc(i)).append("</li>"));
            b.append("</ul>");
        }
        b.append("</dd>\n<dt>What to do first</dt><dd>").append(IncidentReport.esc(doFirst)).append("</dd>\n</dl>\n");
        return b.toString();
    }

    /** Input text in the summary's list: no HTML, no link ({@link MarkdownText#inline}), no emphasis. */
    private static String md(String s) {
        return MarkdownText.inline(s).replace("*", "\\*").replace("_", "\\_");
    }
}
