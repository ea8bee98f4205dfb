package org.fabricscope.app.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import org.fabricscope.model.incident.Signature;
import org.fabricscope.model.incident.SignatureCatalogue;
import org.fabricscope.model.incident.SignatureProblem;

import com.fasterxml.jackson.core.JsonProcessingException;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fabricscope signatures}: the failure-signature catalogue (bundled files and the user's folder),
 * one line per signature, as JSON or as Markdown; the files or entries that did not load go to stderr
 * with the file, entry and field, and make the exit status 1.
 */
@Command(name = "signatures", mixinStandardHelpOptions = true,
        description = "List the failure signatures: each message template of NCCL, PyTorch, the kernel and driver and"
                + " Kubernetes that FabricScope recognises, with its role, cause class and upstream source.")
final class SignaturesCommand implements Callable<Integer> {
    @Option(names = "--json", description = "Print [{id, source, title, template, origin, on, literal, match, fields, role,"
            + " class, severity, blames, remedies, examples, notes, file}] as JSON.")
    boolean json;

    @Option(names = "--markdown", description = "Print the catalogue as a Markdown table.")
    boolean markdown;

    @Option(names = "--source", paramLabel = "SOURCE", description = "Only this source: nccl, pytorch, kernel, kubernetes, user.")
    String source;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws JsonProcessingException {
        var out = spec.commandLine().getOut();
        SignatureCatalogue catalogue = SignatureCatalogue.active();
        List<Signature> list = catalogue.signatures().stream()
                .filter(s -> source == null || s.source().equals(source)).toList();
        if (json) {
            out.println(JsonDocs.write(list.stream().map(SignaturesCommand::json).toList()));
        } else if (markdown) {
            out.print(markdown(list));
        } else {
            for (Signature s : list) {
                out.printf("%-44s %-11s %-8s %-15s %s%n", s.id(), s.role().label(), s.severity().label().toUpperCase(Locale.ROOT),
                        s.causeClass().id(), s.originText());
            }
            out.printf("%d signatures%n", list.size());
        }
        for (SignatureProblem p : catalogue.problems()) {
            spec.commandLine().getErr().println("fabricscope: signature not loaded: " + p.text());
        }
        return catalogue.problems().isEmpty() ? 0 : 1;
    }

    static String markdown(List<Signature> list) {
        StringBuilder b = new StringBuilder("| id | role | class | severity | template | upstream |\n| --- | --- | --- | --- | --- | --- |\n");
        for (Signature s : list) {
            b.append("| `").append(s.id()).append("` | ").append(s.role().label()).append(" | ").append(s.causeClass().id())
                    .append(" | ").append(s.severity().label()).append(" | ").append(cell(s.template())).append(" | ")
                    .append(cell(s.originText())).append(" |\n");
        }
        return b.toString();
    }

    private static String cell(String s) {
        return "`" + s.replace("|", "\\|").replace("`", "'").replace("\n", " ") + "`";
    }

    static Map<String, Object> json(Signature s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", s.id());
        m.put("source", s.source());
        m.put("title", s.title());
        m.put("template", s.template());
        m.put("origin", s.origins().stream().map(o -> {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("file", o.file());
            x.put("versions", o.versions());
            if (!o.function().isEmpty()) {
                x.put("function", o.function());
            }
            return x;
        }).toList());
        m.put("on", s.on().id());
        m.put("literal", s.literals().size() == 1 ? s.literals().get(0) : s.literals());
        m.put("match", s.regex().source());
        m.put("fields", s.fields());
        m.put("role", s.role().label());
        m.put("class", s.causeClass().id());
        m.put("severity", s.severity().label());
        m.put("blames", s.blames());
        m.put("remedies", s.remedies());
        m.put("examples", s.examples().stream().map(e -> {
            Map<String, Object> x = new LinkedHashMap<>(); // text, then fields: one order on every run
            x.put("text", e.text());
            x.put("fields", e.fields());
            return x;
        }).toList());
        m.put("notes", s.notes());
        m.put("file", s.file());
        return m;
    }
}
