package org.fabricscope.app.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.compare.Comparison;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.diagnosis.ErrorThresholds;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fabricscope compare OLD NEW}: reads two captures of the same cluster (each a bundle, a folder or files, as
 * {@code diagnose} takes them), runs the same diagnosis on both and prints what changed across every layer
 * ({@link Comparison}), as text, Markdown or JSON ({@link CompareOutput}).
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Compare two captures (OLD then NEW: bundles, folders or files): cables, counters, hosts, training, "
                + "Kubernetes nodes and findings, what changed.")
final class CompareCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "OLD", description = "The older capture: a .tar.gz/.tgz/.tar/.zip bundle, "
            + "a folder of dumps, or a file.")
    Path oldPath;

    @Parameters(index = "1", arity = "0..1", paramLabel = "NEW", description = "The newer capture, in the same forms.")
    Path newPath;

    @Option(names = "--old", paramLabel = "PATH", description = "One more input of the older capture (repeatable; OLD may then be left out).")
    List<Path> olds = new ArrayList<>();

    @Option(names = "--new", paramLabel = "PATH", description = "One more input of the newer capture (repeatable; NEW may then be left out).")
    List<Path> news = new ArrayList<>();

    @Option(names = "--format", defaultValue = "text", paramLabel = "FORMAT",
            description = "text (default), markdown or json (fields documented in docs/compare.md).")
    CompareOutput.Format format;

    @Option(names = "--thresholds", paramLabel = "FILE",
            description = "Counter thresholds in infiniband-diags error_thresholds format (Name=value), for both diagnoses.")
    Path thresholdsFile;

    @Spec
    CommandSpec spec;

    /** One capture read and diagnosed: its inputs, analysis and the problems its inputs had. */
    record Side(List<Path> inputs, Analysis analysis, List<Diagnostic> diagnostics) {
    }

    @Override
    public Integer call() throws IOException {
        List<Path> before = inputs(oldPath, olds, "OLD", "--old");
        List<Path> after = inputs(newPath, news, "NEW", "--new");
        Side b = read("old", before);
        Side a = read("new", after);
        Comparison c = Comparison.of(b.analysis().model(), b.analysis().findings(), a.analysis().model(), a.analysis().findings());
        var out = spec.commandLine().getOut();
        for (Side s : List.of(b, a)) {
            long problems = s.diagnostics().stream().filter(d -> d.severity() != org.fabricscope.model.core.Severity.INFO).count();
            if (problems > 0) {
                spec.commandLine().getErr().printf("%d input problems in %s (fabricscope summary lists them), first: %s%n", problems,
                        s.inputs(), s.diagnostics().stream().filter(d -> d.severity() != org.fabricscope.model.core.Severity.INFO)
                                .findFirst().map(Diagnostic::toString).orElse(""));
            }
        }
        out.print(new CompareOutput(b, a, c).render(format));
        out.flush();
        return 0;
    }

    /** The positional path and the repeated option's, in that order; a usage error when there are none. */
    private List<Path> inputs(Path positional, List<Path> more, String label, String option) {
        List<Path> out = new ArrayList<>();
        if (positional != null) {
            out.add(positional);
        }
        out.addAll(more);
        if (out.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "Missing required parameter: '" + label + "' (compare OLD NEW, or "
                    + option + " PATH)");
        }
        return out;
    }

    private Side read(String which, List<Path> paths) {
        ImportResult r = new FabricImporter().importPaths(paths, ImportProgress.NONE, Cancellation.NEVER);
        List<Diagnostic> problems = new ArrayList<>(r.model().diagnostics());
        if (!r.readAnything()) {
            String why = problems.stream().filter(d -> d.severity() != org.fabricscope.model.core.Severity.INFO)
                    .findFirst().map(Diagnostic::toString).orElse("no dump found in " + paths);
            throw new CliFailure(1, "nothing to read in the " + which + " capture: " + why);
        }
        ErrorThresholds t = InputOptions.thresholds(thresholdsFile, r, problems);
        return new Side(List.copyOf(paths), Analysis.of(r.model(), t), List.copyOf(problems));
    }
}
