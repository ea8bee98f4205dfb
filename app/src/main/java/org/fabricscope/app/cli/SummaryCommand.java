package org.fabricscope.app.cli;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.fabricscope.model.Diagnostic;
import org.fabricscope.model.FabricSummary;

import com.fasterxml.jackson.core.JsonProcessingException;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code fabricscope summary}: counts of what the dumps describe. */
@Command(name = "summary", mixinStandardHelpOptions = true,
        description = "Count switches by tier, CAs, hosts, cables by speed, degraded cables and ports with errors.")
final class SummaryCommand implements Callable<Integer> {
    @Mixin
    InputOptions input;

    @Option(names = "--json", description = "Print JSON (field names are stable for scripts).")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws JsonProcessingException {
        InputOptions.Loaded in = input.load();
        FabricSummary s = FabricSummary.of(in.result().model(), in.thresholds());
        List<Diagnostic> all = in.diagnostics();
        var out = spec.commandLine().getOut();
        if (json) {
            out.println(Json.MAPPER.writeValueAsString(new FabricSummary(s.switches(), s.switchTiers(), s.cas(),
                    s.hostCas(), s.hosts(), s.routers(), s.cables(), s.cablesBySpeed(), s.cablesDegraded(),
                    s.portsWithErrors(), all)));
            return 0;
        }
        out.printf("Switches        %7d   (leaf %d, spine %d, core %d, other %d)%n", s.switches(),
                s.switchTiers().get("leaf"), s.switchTiers().get("spine"), s.switchTiers().get("core"),
                s.switchTiers().get("other"));
        out.printf("CAs             %7d   (%d host HCAs on %d hosts)%n", s.cas(), s.hostCas(), s.hosts());
        if (s.routers() > 0) {
            out.printf("Routers         %7d%n", s.routers());
        }
        out.printf("Cables          %7d%n", s.cables());
        for (Map.Entry<String, Integer> e : s.cablesBySpeed().entrySet()) {
            out.printf("  %-13s %7d%n", e.getKey(), e.getValue());
        }
        out.printf("Degraded cables %7d%n", s.cablesDegraded());
        out.printf("Ports w/ errors %7d%n", s.portsWithErrors());
        if (!all.isEmpty()) {
            out.printf("%nDiagnostics (%d):%n", all.size());
            all.stream().limit(50).forEach(d -> out.println("  " + d));
            if (all.size() > 50) {
                out.println("  ... " + (all.size() - 50) + " more (use --json for all)");
            }
        }
        return 0;
    }
}
