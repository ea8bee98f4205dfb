package org.fabricscope.app.cli;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;

import com.fasterxml.jackson.core.JsonProcessingException;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code fabricscope diagnose}: run the checks and print findings, most severe first. */
@Command(name = "diagnose", mixinStandardHelpOptions = true,
        description = "Run the troubleshooting checks and print findings, most severe first.")
final class DiagnoseCommand implements Callable<Integer> {
    @Mixin
    InputOptions input;

    @Option(names = "--json", description = "Print {\"findings\": [...]} as JSON.")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws JsonProcessingException {
        InputOptions.Loaded in = input.load();
        List<Finding> findings = in.analysis().findings();
        var out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> doc = new java.util.LinkedHashMap<>();
            doc.put("findings", findings.stream().map(Json::finding).toList());
            doc.put("diagnostics", in.diagnostics());
            out.println(Json.MAPPER.writeValueAsString(doc));
            return 0;
        }
        long problems = in.diagnostics().stream().filter(d -> d.severity() != org.fabricscope.model.core.Severity.INFO).count();
        if (problems > 0) {
            var err = spec.commandLine().getErr();
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
                out.printf("        evidence: %s:%d: %s%n", e.source(), e.line(), e.text());
            }
            for (String remedy : f.remedies()) {
                out.printf("        - %s%n", remedy);
            }
        }
        return 0;
    }
}
