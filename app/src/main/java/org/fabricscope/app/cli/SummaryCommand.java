package org.fabricscope.app.cli;

import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.analysis.FabricSummary;


import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code fabricscope summary}: counts of what the dumps describe. */
@Command(name = "summary", mixinStandardHelpOptions = true,
        description = "Count switches by tier, CAs, hosts, cables by speed, degraded cables and ports with errors.")
final class SummaryCommand extends QuickCommand {
    @Option(names = "--json", description = "Print JSON (field names are stable for scripts).")
    boolean json;

    @Option(names = "--detail", description = "With --json: add hostDetails, per-host GPU/NIC/net/NVLink counts.")
    boolean detail;

    /**
     * What {@code summary --json} prints: the summary's fields with every diagnostic; {@code ncclTests} and
     * {@code collectives} only when the inputs had any (nccl-tests output; flight recorder dumps or RAS reports);
     * {@code hostDetails} when asked for ({@code details} not null). Fields only grow.
     */
    static Map<String, Object> document(FabricSummary s, List<Diagnostic> all, List<FabricSummary.HostDetail> details) {
        Map<String, Object> doc = JsonDocs.fieldsOf(s.withDiagnostics(all));
        if (s.ncclTests().isEmpty()) {
            doc.remove("ncclTests");
        }
        if (s.collectives().isEmpty()) {
            doc.remove("collectives");
        }
        if (details != null) {
            doc.put("hostDetails", details);
        }
        return doc;
    }

    @Override
    boolean flag(String name) {
        switch (name) {
            case "--json" -> json = true;
            case "--detail" -> detail = true;
            default -> {
                return false;
            }
        }
        return true;
    }

    @Override
    public Integer call() throws java.io.IOException {
        InputOptions.Counted in = input.count();
        FabricSummary s = in.summary();
        List<Diagnostic> all = in.diagnostics();
        var out = out();
        if (json) {
            out.println(JsonDocs.write(document(s, all, detail ? FabricSummary.hostDetails(in.result().model()) : null)));
            return 0;
        }
        out.printf("Switches        %7d   (leaf %d, spine %d, core %d, other %d)%n", s.switches(),
                s.switchTiers().get("leaf"), s.switchTiers().get("spine"), s.switchTiers().get("core"),
                s.switchTiers().get("other"));
        out.printf("CAs             %7d   (%d host HCAs on %d hosts)%n", s.cas(), s.hostCas(), s.hosts());
        if (s.routers() > 0) {
            out.printf("Routers         %7d%n", s.routers());
        }
        if (s.gpus() + s.nets() > 0) {
            out.printf("GPUs            %7d   (%d NVLinks)%n", s.gpus(), s.nvlinks());
            out.printf("NICs            %7d   (%d ports)%n", s.nics(), s.nets());
        }
        if (s.k8sNodes() + s.pods() > 0) {
            out.printf("K8s nodes       %7d   (%d pods)%n", s.k8sNodes(), s.pods());
        }
        if (s.ranks() > 0) {
            out.printf("NCCL ranks      %7d   (NCCL %s; rank pairs by transport %s)%n", s.ranks(),
                    String.join(", ", s.ncclVersions()), s.transports());
        }
        for (org.fabricscope.model.analysis.ForensicsSummary.NcclTest t : s.ncclTests()) {
            out.printf("nccl-tests      %-15s %d ranks, avg busbw %s GB/s, peak busbw %.2f GB/s%s, %d wrong (%s)%n", t.test(),
                    t.ranks(), t.avgBusBw() == null ? "-" : String.format(java.util.Locale.ROOT, "%.2f", t.avgBusBw()),
                    t.peakBusBw(), t.expectedBusBw() == null ? "" : String.format(java.util.Locale.ROOT,
                            " (expected %.2f GB/s: %s)", t.expectedBusBw(), t.expectedSource()), t.wrong(), t.source());
        }
        for (org.fabricscope.model.analysis.ForensicsSummary.Collective c : s.collectives()) {
            out.printf("Collectives     %s %s (%s): last sequence per rank %s%n", c.from(), c.communicator(),
                    c.name(), c.lastSequence());
        }
        out.printf("Cables          %7d%n", s.cables());
        for (Map.Entry<String, Integer> e : s.cablesBySpeed().entrySet()) {
            out.printf("  %-13s %7d%n", e.getKey(), e.getValue());
        }
        out.printf("Degraded cables %7d%n", s.cablesDegraded());
        if (s.countersUnread()) {
            out.printf("Ports w/ errors       -   (%s)%n", FabricSummary.NO_COUNTERS);
        } else {
            out.printf("Ports w/ errors %7d   (of %d ports with counters)%n", s.portsWithErrors(), s.portsWithCounters());
        }
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
