package org.fabricscope.app.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

import org.fabricscope.model.flows.FactCall;
import org.fabricscope.model.flows.Flow;
import org.fabricscope.model.flows.FlowFacts;
import org.fabricscope.model.flows.FlowLibrary;

import com.fasterxml.jackson.core.JsonProcessingException;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fabricscope flows}: the troubleshooting flows in force (built-in, the user's folder, --flows)
 * with their entry symptoms and where each comes from; {@code --facts} lists the facts flow files may
 * ask. Flow-file errors go to standard error and make the status 1, so the command checks a folder of
 * flows before they are used.
 */
@Command(name = "flows", mixinStandardHelpOptions = true,
        description = "List the troubleshooting flows (id, title, entry symptom, source), or with --facts the facts flows may ask. "
                + "Exit status 1 when a flow file has errors (they are printed).")
final class FlowsCommand implements Callable<Integer> {
    @Mixin
    FlowOptions flows;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Option(names = "--facts", description = "List the facts (name, parameters, what answers them) instead of the flows.")
    boolean facts;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws JsonProcessingException {
        var out = spec.commandLine().getOut();
        if (facts) {
            printFacts(out);
            return 0;
        }
        FlowLibrary lib = flows.library();
        if (json) {
            out.println(Json.MAPPER.writeValueAsString(lib.flows().stream().map(FlowsCommand::json).toList()));
        } else {
            for (Flow f : lib.flows()) {
                out.printf("%-24s %s%n", f.id(), f.title());
                out.printf("%-24s entry: %s%n", "", entry(f.entry()));
                out.printf("%-24s %d steps (%d manual), %d conclusions; %s%n", "", f.steps().size(),
                        f.steps().stream().filter(s -> s.kind() == Flow.Kind.MANUAL).count(), f.conclusions().size(), f.source());
            }
        }
        return FlowOptions.report(lib, spec.commandLine().getErr()) > 0 ? 1 : 0;
    }

    private void printFacts(java.io.PrintWriter out) throws JsonProcessingException {
        if (json) {
            out.println(Json.MAPPER.writeValueAsString(FlowFacts.standard().all().stream().map(f -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", f.name());
                m.put("description", f.description());
                m.put("params", f.params().stream().map(p -> {
                    Map<String, Object> pm = new LinkedHashMap<>();
                    pm.put("name", p.name());
                    pm.put("type", p.type().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
                    pm.put("required", p.required());
                    if (!p.choices().isEmpty()) {
                        pm.put("choices", p.choices());
                    }
                    pm.put("description", p.description());
                    return pm;
                }).toList());
                m.put("answeredBy", f.answeredBy());
                return m;
            }).toList()));
            return;
        }
        for (FlowFacts.Fact f : FlowFacts.standard().all()) {
            out.printf("%-26s %s%n", f.name(), f.description());
            for (FlowFacts.Param p : f.params()) {
                out.printf("%-26s   %s (%s%s): %s%n", "", p.name(), p.required() ? "required " : "",
                        p.type().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'), p.description());
            }
            out.printf("%-26s   answered by: %s%n", "", f.answeredBy());
        }
    }

    /** {@code findings nccl-timeout; facts rank-failed}. */
    static String entry(Flow.Entry e) {
        StringBuilder b = new StringBuilder();
        if (!e.findings().isEmpty()) {
            b.append("findings ").append(String.join(", ", e.findings()));
        }
        if (!e.facts().isEmpty()) {
            b.append(b.length() == 0 ? "" : "; ").append("facts ")
                    .append(String.join(", ", e.facts().stream().map(FactCall::toString).toList()));
        }
        if ("job".equals(e.scope())) {
            b.append(" (about the job)");
        }
        return b.toString();
    }

    static Map<String, Object> json(Flow f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", f.id());
        m.put("title", f.title());
        m.put("description", f.description());
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("findings", f.entry().findings());
        entry.put("facts", f.entry().facts().stream().map(Json::fact).toList());
        entry.put("scope", f.entry().scope());
        m.put("entry", entry);
        m.put("steps", f.steps().stream().map(s -> {
            Map<String, Object> sm = new LinkedHashMap<>();
            sm.put("id", s.id());
            sm.put("kind", s.kind().label());
            return sm;
        }).toList());
        m.put("conclusions", f.conclusions().stream().map(Flow.Conclusion::id).toList());
        m.put("sources", f.sources());
        m.put("source", f.source());
        return m;
    }
}
