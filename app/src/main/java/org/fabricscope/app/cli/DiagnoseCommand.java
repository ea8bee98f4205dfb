package org.fabricscope.app.cli;

import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.flows.Flow;
import org.fabricscope.model.flows.FlowContext;
import org.fabricscope.model.flows.FlowEngine;
import org.fabricscope.model.flows.FlowLibrary;
import org.fabricscope.model.flows.FlowResult;
import org.fabricscope.model.flows.Verdict;


import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code fabricscope diagnose}: run the checks and print findings, most severe first, then walk the
 * troubleshooting flows ("What's wrong?") and print each applicable flow's status and conclusion.
 */
@Command(name = "diagnose", mixinStandardHelpOptions = true,
        description = "Run the troubleshooting checks and print findings, most severe first.")
final class DiagnoseCommand extends QuickCommand {
    @Option(names = "--json", description = "Print {\"findings\": [...], \"diagnostics\": [...], \"flows\": [...]} as JSON.")
    boolean json;

    @Option(names = "--markdown", description = "Print an incident report as Markdown: findings, the flows walked with "
            + "their answers and evidence, conclusions and remedies.")
    boolean markdown;

    @Option(names = "--html", description = "Print the incident report as one self-contained HTML page.")
    boolean html;

    @Mixin
    FlowOptions flowOptions = new FlowOptions();

    @Option(names = "--answer", paramLabel = "FLOW/STEP=yes|no",
            description = "Answer a step the inputs cannot, e.g. a manual step's command you ran: "
                    + "--answer roce-gid-index/gid-matches=yes (repeatable).")
    Map<String, String> answers = new java.util.LinkedHashMap<>();

    /** What {@code diagnose --json} prints: {@code findings}, {@code diagnostics}, {@code flows}. Fields only grow. */
    static Map<String, Object> document(List<Finding> findings, List<Diagnostic> diagnostics,
                                        List<FlowResult> flows) {
        Map<String, Object> doc = new java.util.LinkedHashMap<>();
        doc.put("findings", findings.stream().map(Json::finding).toList());
        doc.put("diagnostics", diagnostics);
        doc.put("flows", flows.stream().map(Json::flow).toList());
        return doc;
    }

    @Override
    boolean pathOption(String name, java.nio.file.Path value) {
        if ("--flows".equals(name)) {
            flowOptions.dirs.add(value);
            return true;
        }
        return super.pathOption(name, value);
    }

    @Override
    boolean flag(String name) {
        switch (name) {
            case "--json" -> json = true;
            case "--markdown" -> markdown = true;
            case "--html" -> html = true;
            default -> {
                return false;
            }
        }
        return true;
    }

    @Override
    public Integer call() throws java.io.IOException {
        FlowLibrary library = flowOptions.library();
        Map<String, Verdict> given = given(library);
        InputOptions.Loaded in = input.load();
        List<Finding> findings = in.analysis().findings();
        List<FlowResult> flows = FlowEngine.standard().run(library.flows(), FlowContext.of(in.analysis()), given);
        FlowOptions.report(library, err());
        var out = out();
        if (json) {
            out.println(JsonDocs.write(document(findings, in.diagnostics(), flows)));
            return 0;
        }
        if (markdown || html) {
            var report = new org.fabricscope.app.report.IncidentReport("FabricScope incident report",
                    input.paths.stream().map(java.nio.file.Path::toString).toList(), findings, flows,
                    html ? mapPng(in, input.paths) : null, java.time.Instant.now())
                    .withTimeline(org.fabricscope.model.incident.reasoning.IncidentReasoner.of(in.analysis().model()))
                    .withPairs(org.fabricscope.model.pairwise.PairMatrices.of(in.analysis().model()));
            out.print(html ? report.html() : report.markdown());
            out.flush();
            return 0;
        }
        long problems = in.diagnostics().stream().filter(d -> d.severity() != org.fabricscope.model.core.Severity.INFO).count();
        if (problems > 0) {
            var err = err();
            err.printf("%d input problems (fabricscope summary lists them), first:%n", problems);
            in.diagnostics().stream().filter(d -> d.severity() != org.fabricscope.model.core.Severity.INFO).limit(5)
                    .forEach(d -> err.println("  " + d));
        }
        if (findings.isEmpty()) {
            out.println("No findings: counters within thresholds, links at full rate, all linked ports active.");
        }
        for (Finding f : findings) {
            out.printf("%-7s %-16s %s%n", f.severity().label().toUpperCase(java.util.Locale.ROOT), f.id(), f.title());
            for (Evidence e : f.evidence()) {
                out.printf("        evidence: %s: %s%n", e.where(), e.text());
            }
            for (String remedy : f.remedies()) {
                out.printf("        - %s%n", remedy);
            }
        }
        printFlows(out, flows);
        return 0;
    }

    /** After the findings, one line per flow that applies: its status, and its conclusion or what it waits for. */
    static void printFlows(java.io.PrintWriter out, List<FlowResult> flows) {
        List<FlowResult> applicable = flows.stream().filter(FlowResult::applicable).toList();
        out.println();
        if (applicable.isEmpty()) {
            out.println("Troubleshooting flows: none applies.");
            return;
        }
        out.println("Troubleshooting flows (diagnose --json lists their steps and remedies):");
        for (FlowResult r : applicable) {
            String what = r.conclusion() != null
                    ? (r.conclusion().finding().isEmpty() ? "" : r.conclusion().finding() + ": ") + r.conclusion().text()
                    : r.reason();
            out.printf("  %-12s %-23s %s%n", r.status().label(), r.flow().id(), what.replace('\n', ' '));
        }
    }

    /** The --answer values, checked against the flows: FLOW/STEP=yes|no. */
    private Map<String, Verdict> given(FlowLibrary library) {
        Map<String, Verdict> out = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, String> e : answers.entrySet()) {
            String key = e.getKey();
            int slash = key.indexOf('/');
            Flow flow = slash < 0 ? null : library.flow(key.substring(0, slash));
            if (flow == null || flow.step(key.substring(slash + 1)) == null) {
                throw new ParameterException(spec.commandLine(), "--answer " + key + ": no such flow step (FLOW/STEP, e.g. "
                        + "roce-gid-index/gid-matches; fabricscope flows --json lists them)");
            }
            Verdict v = Verdict.of(e.getValue().trim().toLowerCase(java.util.Locale.ROOT));
            if (v == null || v == Verdict.UNKNOWN) {
                throw new ParameterException(spec.commandLine(), "--answer " + key + "=" + e.getValue() + ": answer yes or no");
            }
            out.put(key, v);
        }
        return out;
    }

    /**
     * The HTML report's map: the errors colours at fit, as {@code export -f png} draws it; null when the
     * inputs hold no fabric to draw (a report of logs alone), and the report then goes without it.
     */
    private static byte[] mapPng(InputOptions.Loaded in, java.util.List<java.nio.file.Path> paths) throws java.io.IOException {
        if (in.result().model().nodes().isEmpty()) {
            return null;
        }
        System.setProperty("java.awt.headless", "true");
        java.io.ByteArrayOutputStream png = new java.io.ByteArrayOutputStream();
        ExportCommand.picture(in, paths, org.fabricscope.app.render.ColourMode.ERRORS, 1600, 1000, false).writePng(png);
        return png.toByteArray();
    }
}
