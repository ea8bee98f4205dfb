package org.fabricscope.app.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import org.fabricscope.model.core.FindingSpec;
import org.fabricscope.model.diagnosis.Diagnosis;
import org.fabricscope.model.diagnosis.ErrorThresholds;

import com.fasterxml.jackson.core.JsonProcessingException;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fabricscope checks}: the catalogue of finding ids the checks may raise, as each check
 * declares them (id, layer, severity, description, source of the rule). The README's "What it
 * checks" table is this command's {@code --markdown} output; a test keeps them equal.
 */
@Command(name = "checks", mixinStandardHelpOptions = true,
        description = "List every finding id the checks may raise, with its layer, severity, meaning and source.")
final class ChecksCommand implements Callable<Integer> {
    @Option(names = "--json", description = "Print [{id, layer, severity, description, source}] as JSON.")
    boolean json;

    @Option(names = "--markdown", description = "Print the catalogue as a Markdown table (the README's \"What it checks\").")
    boolean markdown;

    @Spec
    CommandSpec spec;

    /** The catalogue of the standard diagnosis, in check order. */
    static List<FindingSpec> catalogue() {
        return Diagnosis.standard(ErrorThresholds.defaults()).catalogue();
    }

    static String markdown(List<FindingSpec> specs) {
        StringBuilder b = new StringBuilder("| finding | layer | severity | what | where the rule comes from |\n")
                .append("| --- | --- | --- | --- | --- |\n");
        for (FindingSpec s : specs) {
            b.append("| `").append(s.id()).append("` | ").append(s.layer().label()).append(" | ")
                    .append(s.severity().label()).append(" | ").append(cell(s.description())).append(" | ")
                    .append(cell(s.source())).append(" |\n");
        }
        return b.toString();
    }

    private static String cell(String s) {
        return s.replace("|", "\\|");
    }

    @Override
    public Integer call() throws JsonProcessingException {
        var out = spec.commandLine().getOut();
        List<FindingSpec> specs = catalogue();
        if (json) {
            out.println(JsonDocs.write(specs.stream().map(ChecksCommand::json).toList()));
        } else if (markdown) {
            out.print(markdown(specs));
        } else {
            for (FindingSpec s : specs) {
                out.printf("%-28s %-10s %-8s %s%n", s.id(), s.layer().label(), s.severity().label().toUpperCase(Locale.ROOT),
                        s.description());
            }
        }
        return 0;
    }

    private static Map<String, Object> json(FindingSpec s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", s.id());
        m.put("layer", s.layer().label());
        m.put("severity", s.severity());
        m.put("description", s.description());
        m.put("source", s.source());
        return m;
    }
}
