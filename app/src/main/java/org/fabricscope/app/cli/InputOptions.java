package org.fabricscope.app.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.importers.bundle.BundleReader;
import org.fabricscope.app.live.StandardSources;
import org.fabricscope.app.live.kube.KubeTarget;
import org.fabricscope.app.live.source.LiveSnapshot;
import org.fabricscope.app.live.source.LiveSource;
import org.fabricscope.app.live.source.LiveSourceException;
import org.fabricscope.app.live.source.LiveSources;
import org.fabricscope.app.live.source.LiveTarget;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.diagnosis.ErrorThresholds;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The inputs every reading command takes: paths, a live cluster ({@code --kube}, one read, no
 * follow), or both; and optional counter thresholds.
 */
final class InputOptions {
    @Parameters(arity = "0..*", paramLabel = "PATH",
            description = "Files, folders of dumps, or .tar.gz/.tgz/.tar/.zip bundles of one fabric (optional with --kube "
                    + "or --prometheus).")
    List<Path> paths = new ArrayList<>();

    @Option(names = "--kube", description = "Also read a live Kubernetes cluster through the kubeconfig: nodes, the "
            + "namespace's pods (of --job or --selector), events, Kubeflow jobs and the pods' logs. Read-only; one read.")
    boolean kube;

    @Option(names = "--kubeconfig", paramLabel = "FILE",
            description = "With --kube: this kubeconfig instead of $KUBECONFIG or ~/.kube/config.")
    Path kubeconfig;

    @Option(names = "--context", paramLabel = "C", description = "With --kube: this kubeconfig context (default: the current one).")
    String context;

    @Option(names = {"-n", "--namespace"}, paramLabel = "N",
            description = "With --kube: this namespace (default: the context's, else default).")
    String namespace;

    @Option(names = "--job", paramLabel = "J", description = "With --kube: the pods of this training job "
            + "(training.kubeflow.org/job-name, JobSet or Arena release label, or J-master-N/J-worker-N/J-launcher names).")
    String job;

    @Option(names = {"-l", "--selector"}, paramLabel = "S",
            description = "With --kube: the pods matching this label selector, e.g. app=bert (instead of --job).")
    String selector;

    @Option(names = "--no-logs", description = "With --kube: do not read the pods' logs.")
    boolean noLogs;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** --prometheus, its auth, --at and --window. */
    @Mixin
    PrometheusOptions prometheus = new PrometheusOptions();

    @Option(names = "--thresholds", paramLabel = "FILE",
            description = "Counter thresholds in infiniband-diags error_thresholds format (Name=value).")
    Path thresholdsFile;

    /** What a command works on: the import, its analysis (thresholds in force, ranks, findings, summary), and every diagnostic. */
    record Loaded(ImportResult result, org.fabricscope.model.analysis.Analysis analysis, List<Diagnostic> diagnostics) {
        ErrorThresholds thresholds() {
            return analysis.thresholds();
        }
    }

    /** Imports the paths and reads the thresholds; fails with status 1 when nothing could be read. */
    Loaded load() {
        Read r = read();
        return new Loaded(r.result(), org.fabricscope.model.analysis.Analysis.of(r.result().model(), r.thresholds()),
                r.diagnostics());
    }

    /**
     * What {@code summary} works on: the import, its counts and every diagnostic. No check runs: counting
     * needs none, and the checks were a fifth of the CLI's time on Selene (BENCHMARKS.md "CLI start-up").
     */
    record Counted(ImportResult result, org.fabricscope.model.analysis.FabricSummary summary, List<Diagnostic> diagnostics) {
    }

    /** Imports the paths, reads the thresholds and counts; fails with status 1 when nothing could be read. */
    Counted count() {
        Read r = read();
        return new Counted(r.result(), org.fabricscope.model.analysis.FabricSummary.of(r.result().model(), r.thresholds()),
                r.diagnostics());
    }

    /** The import, the thresholds in force and every diagnostic of both: what {@link #load} and {@link #count} share. */
    private record Read(ImportResult result, ErrorThresholds thresholds, List<Diagnostic> diagnostics) {
    }

    private Read read() {
        ImportResult r = importPaths();
        List<Diagnostic> problems = new ArrayList<>(r.model().diagnostics());
        ErrorThresholds t = thresholds(r, problems);
        return new Read(r, t, List.copyOf(problems));
    }

    /** Imports the paths and the live read; fails with status 1 when nothing could be read. */
    ImportResult importPaths() {
        validate();
        List<LiveTarget> live = new ArrayList<>();
        if (kube) {
            live.add(target());
        }
        if (prometheus.given()) {
            live.add(prometheus.target(command));
        }
        ImportResult r = !live.isEmpty() ? importWithLive(live) : new FabricImporter().importPaths(paths, ImportProgress.NONE,
                Cancellation.NEVER);
        if (!r.readAnything()) {
            String why = r.model().diagnostics().stream().filter(d -> d.severity() != org.fabricscope.model.core.Severity.INFO)
                    .findFirst().map(Diagnostic::toString).orElse("no fabric dump found in " + paths);
            throw new CliFailure(1, "nothing to read: " + why);
        }
        return r;
    }

    /**
     * Files (expanded as importPaths does) plus one read of each live source (a cluster, a Prometheus
     * server), into one model: each source is opened through the live source registry and its snapshot
     * contributed to the model builder.
     */
    private ImportResult importWithLive(List<LiveTarget> targets) {
        List<Diagnostic> early = new ArrayList<>();
        List<ImportSource> files = new ArrayList<>();
        BundleReader bundles = new BundleReader(early);
        for (Path p : paths) {
            files.addAll(bundles.expand(p));
        }
        List<LiveSnapshot> reads = new ArrayList<>();
        for (LiveTarget target : targets) {
            LiveSnapshot read;
            try (LiveSource source = StandardSources.registry().open(target, LiveSources.Hints.CLI)) {
                read = source.readOnce(Cancellation.NEVER);
            } catch (LiveSourceException e) {
                throw new CliFailure(1, e.getMessage());
            }
            files.addAll(read.texts());
            early.addAll(read.diagnostics());
            reads.add(read);
        }
        return new FabricImporter().importSources(files, early, ImportProgress.NONE, Cancellation.NEVER,
                b -> reads.forEach(r -> r.contribute(b)));
    }

    /** The cluster read the options describe; a usage error (status 2) for contradictory options. */
    KubeTarget target() {
        try {
            return new KubeTarget(kubeconfig, context, namespace, job, selector, !noLogs, KubeTarget.DEFAULT_LOG_TAIL_LINES,
                    KubeTarget.DEFAULT_LOG_LIMIT_BYTES);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), e.getMessage());
        }
    }

    /** Paths or --kube are required; the cluster options only mean something with --kube. */
    private void validate() {
        if (kubeconfig != null) {
            OptionFiles.requireRegular("--kubeconfig", kubeconfig);
        }
        if (!kube && (kubeconfig != null || context != null || namespace != null || job != null || selector != null
                || noLogs)) {
            throw new ParameterException(command.commandLine(),
                    "--kubeconfig, --context, --namespace, --job, --selector and --no-logs go with --kube");
        }
        prometheus.target(command); // its options' usage errors first
        if (!kube && !prometheus.given() && paths.isEmpty()) {
            throw new ParameterException(command.commandLine(), "Missing required parameter: 'PATH' (or read a cluster "
                    + "with --kube)");
        }
    }

    private ErrorThresholds thresholds(ImportResult r, List<Diagnostic> problems) {
        return thresholds(thresholdsFile, r, problems);
    }

    /**
     * The thresholds to judge an import by: those of {@code --thresholds FILE} when given (its problems added
     * to {@code problems}), else those the inputs carried, else the defaults.
     */
    static ErrorThresholds thresholds(Path thresholdsFile, ImportResult r, List<Diagnostic> problems) {
        if (thresholdsFile != null) {
            byte[] text = OptionFiles.read("--thresholds", thresholdsFile, OptionFiles.MAX_THRESHOLDS_BYTES);
            try (Reader in = new java.io.StringReader(new String(text, StandardCharsets.UTF_8))) {
                return ErrorThresholds.parse(in, thresholdsFile.toString(), problems);
            } catch (IOException e) {
                throw new CliFailure(1, "cannot read thresholds " + thresholdsFile + ": " + e.getMessage());
            }
        }
        return r.thresholds() != null ? r.thresholds() : ErrorThresholds.defaults();
    }
}
