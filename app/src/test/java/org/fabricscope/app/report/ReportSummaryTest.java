package org.fabricscope.app.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.junit.jupiter.api.Test;

/** The report's opening summary: root cause, impact, what to do first; before the timeline and the findings, in both formats. */
class ReportSummaryTest {
    private static final Instant WHEN = Instant.parse("2026-11-23T09:00:00Z");
    private static final Evidence E = Evidence.at("w1.log", 7, "line 7");

    private static Finding root() {
        return new Finding("incident-root-cause", Severity.ERROR, "rank 1 <GPU 0> ran out of memory",
                List.of(new Subject.RankRef("c1", 1, "w1", "rank 1"), new Subject.HostRef("w1", "host w1 & co")), List.of(E),
                List.of("Lower the batch size on <rank 1>", "Check the other ranks"));
    }

    private static Finding other() {
        return new Finding("nccl-timeout", Severity.ERROR, "the watchdog fired", List.of(), List.of(E),
                List.of("Find the rank that lagged"));
    }

    @Test
    void markdownOpensWithTheRootCauseItsImpactAndFirstRemedy() {
        String md = new IncidentReport("Incident", List.of("x"), List.of(other(), root()), List.of(), null, WHEN).markdown();
        int summary = md.indexOf("## Summary");
        assertTrue(summary > 0 && summary < md.indexOf("## Findings"), md);
        assertTrue(md.contains("- **Root cause:** rank 1 &lt;GPU 0&gt; ran out of memory\n"), md);
        assertTrue(md.contains("- **Impact:** rank 1; host w1 &amp; co\n"), md);
        assertTrue(md.contains("- **What to do first:** Lower the batch size on &lt;rank 1&gt;\n"), md);
        assertFalse(md.contains("Check the other ranks\n- "), "only the first remedy in the summary");
        MarkdownSafety.assertInert(md); // the input's <GPU 0> and & are text when rendered, not markup
    }

    @Test
    void htmlSummaryIsEscapedAndComesFirst() {
        String html = new IncidentReport("Incident", List.of("x"), List.of(other(), root()), List.of(), null, WHEN).html();
        int summary = html.indexOf("<h2>Summary</h2>");
        assertTrue(summary > 0 && summary < html.indexOf("<h2>Findings"), html);
        assertTrue(html.contains("<dt>Root cause</dt><dd>rank 1 &lt;GPU 0&gt; ran out of memory</dd>"), html);
        assertTrue(html.contains("<li>host w1 &amp; co</li>"), html);
        assertTrue(html.contains("<dt>What to do first</dt><dd>Lower the batch size on &lt;rank 1&gt;</dd>"), html);
        assertFalse(html.contains("<GPU 0>"), "never raw");
    }

    @Test
    void withoutARootCauseItSaysNoFailureFoundNotHealthy() {
        ReportSummary s = ReportSummary.of(List.of(), null);
        assertFalse(s.failureFound());
        String md = s.markdown();
        assertTrue(md.contains("**Root cause:** no failure found in the evidence. This is not a clean bill of health"), md);
        assertTrue(md.contains("**What to do first:** Load more evidence"), md);
        String html = new IncidentReport("Incident", List.of(), List.of(other()), List.of(), null, WHEN).html();
        assertTrue(html.contains("<dd>no failure found in the evidence. This is not a clean bill of health"), html);
        assertTrue(html.contains("<dd>Find the rank that lagged (for nccl-timeout: the watchdog fired)</dd>"), html);
        assertEquals(List.of(), ReportSummary.of(List.of(other()), null).impact());
    }

    @Test
    void theTrainingIncidentNamesItsRootCauseAndTheRanksThatFollowed() {
        var a = org.fabricscope.app.nav.Samples.analysis(org.fabricscope.app.nav.Samples.TRAINING);
        var incident = org.fabricscope.model.incident.reasoning.IncidentReasoner.of(a.model());
        ReportSummary s = ReportSummary.of(a.findings(), incident);
        Finding root = org.fabricscope.app.nav.Samples.finding(a.findings(), "incident-root-cause");
        assertTrue(s.failureFound());
        assertEquals(root.title(), s.rootCause());
        assertEquals(root.remedies().get(0), s.doFirst());
        assertTrue(s.impact().containsAll(root.subjects()), s.impact().toString());
        String md = new IncidentReport("Incident", List.of(), a.findings(), List.of(), null, WHEN).withTimeline(incident).markdown();
        assertTrue(md.indexOf("## Summary") < md.indexOf("## Timeline") && md.indexOf("## Timeline") < md.indexOf("## Findings"), md);
    }
}
