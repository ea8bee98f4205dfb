package org.fabricscope.app.report;

import static org.fabricscope.app.nav.Samples.TRAINING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.fabricscope.app.nav.Samples;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.flows.FlowContext;
import org.fabricscope.model.flows.FlowEngine;
import org.fabricscope.model.flows.FlowLibrary;
import org.fabricscope.model.flows.FlowResult;
import org.junit.jupiter.api.Test;

/** The incident report on training-incident, as Markdown and HTML: findings, the nccl-timeout flow, evidence, escaping. */
class IncidentReportTest {
    private static final Instant WHEN = Instant.parse("2026-11-23T09:00:00Z");

    private static IncidentReport training(byte[] png) {
        Analysis a = Samples.analysis(TRAINING);
        List<FlowResult> flows = FlowEngine.standard().runGiven(FlowLibrary.builtIn().flows(), FlowContext.of(a), Map.of());
        return new IncidentReport("Incident", List.of("sample-fabrics/training-incident"), a.findings(), flows, png, WHEN);
    }

    static FlowResult ncclTimeout() {
        Analysis a = Samples.analysis(TRAINING);
        return FlowEngine.standard().runGiven(FlowLibrary.builtIn().flows(), FlowContext.of(a), Map.of()).stream()
                .filter(r -> r.flow().id().equals("nccl-timeout")).findFirst().orElseThrow();
    }

    @Test
    void markdownHasTheFindingTheFlowItsConclusionAndEvidence() {
        String md = training(null).markdown();
        FlowResult flow = ncclTimeout();
        assertEquals(FlowResult.Status.CONCLUDED, flow.status());
        assertTrue(md.startsWith("# Incident\n"), md);
        assertTrue(md.contains("Generated 2026-11-23T09:00:00Z"), md);
        assertTrue(md.contains("`nccl-timeout`: "), "the finding's heading");
        assertTrue(md.contains("(`nccl-timeout`, concluded)"), "the flow's heading");
        assertTrue(md.contains("**Conclusion** (`" + flow.conclusion().id() + "`"), md);
        assertTrue(md.contains(flow.conclusion().text().replaceAll("\\R", " ")), "the conclusion's text");
        for (FlowResult.StepResult s : flow.steps()) {
            assertTrue(md.contains(s.question().replaceAll("\\R", " ") + " **" + s.answer().verdict().label() + "**"), s.id());
        }
        Evidence e = flow.steps().stream().flatMap(s -> s.answer().evidence().stream()).findFirst().orElseThrow();
        assertTrue(md.contains("evidence: `" + IncidentReport.evidence(e).replace("`", "'") + "`"), "a step's evidence line");
        Finding timeout = Samples.finding(Samples.analysis(TRAINING).findings(), "nccl-timeout");
        assertTrue(md.contains(IncidentReport.evidence(timeout.evidence().get(0))), "the finding's evidence");
        assertTrue(md.contains("Not applicable: "), md);
    }

    @Test
    void htmlIsSelfContainedAndEscaped() {
        String html = training(new byte[] {(byte) 0x89, 'P', 'N', 'G'}).html();
        assertTrue(html.startsWith("<!DOCTYPE html>"), html);
        assertTrue(html.contains("<style>"), "inline CSS");
        assertFalse(html.contains("<link"), "no external stylesheet");
        assertTrue(html.contains("src=\"data:image/png;base64,iVBORw==\""), "the map inline");
        assertTrue(html.contains("<code>nccl-timeout</code>"), html);
        assertTrue(html.contains("<b>Conclusion</b> <code>" + ncclTimeout().conclusion().id() + "</code>"), html);
        assertTrue(html.endsWith("</html>\n"));
    }

    @Test
    void htmlEscapesWhatTheInputsSay() {
        Finding f = new Finding("x-y", Severity.ERROR, "a <script>alert('x')</script> & more", List.of(new org.fabricscope.model.core.Subject.HostRef("h", "host <a>")),
                List.of(Evidence.at("f.log", 3, "if a < b && c > d")), List.of("run \"this\""));
        String html = new IncidentReport("T <1>", List.of("in<put>"), List.of(f), List.of(), null, WHEN).html();
        assertFalse(html.contains("<script>"), html);
        assertTrue(html.contains("a &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; more"), html);
        assertTrue(html.contains("f.log:3: if a &lt; b &amp;&amp; c &gt; d"), html);
        assertTrue(html.contains("<title>T &lt;1&gt;</title>"), html);
        assertTrue(html.contains("run &quot;this&quot;"), html);
        assertEquals("&lt;&gt;&amp;&quot;&#39;", IncidentReport.esc("<>&\"'"));
    }
}
