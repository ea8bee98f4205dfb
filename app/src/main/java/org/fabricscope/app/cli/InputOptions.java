package org.fabricscope.app.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.importers.Cancellation;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.model.Diagnostic;
import org.fabricscope.model.diagnosis.ErrorThresholds;

import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The inputs every reading command takes: paths, and optional counter thresholds. */
final class InputOptions {
    @Parameters(arity = "1..*", paramLabel = "PATH",
            description = "Files, folders of dumps, or .tar.gz/.tgz/.tar/.zip bundles of one fabric.")
    List<Path> paths = new ArrayList<>();

    @Option(names = "--thresholds", paramLabel = "FILE",
            description = "Counter thresholds in infiniband-diags error_thresholds format (Name=value).")
    Path thresholdsFile;

    /** What a command works on: the import, the thresholds in force, and every diagnostic of both. */
    record Loaded(ImportResult result, ErrorThresholds thresholds, List<Diagnostic> diagnostics) {
    }

    /** Imports the paths and reads the thresholds; fails with status 1 when nothing could be read. */
    Loaded load() {
        ImportResult r = importPaths();
        List<Diagnostic> problems = new ArrayList<>(r.model().diagnostics());
        ErrorThresholds t = thresholds(r, problems);
        return new Loaded(r, t, List.copyOf(problems));
    }

    /** Imports the paths; fails with status 1 when nothing could be read. */
    ImportResult importPaths() {
        ImportResult r = new FabricImporter().importPaths(paths, ImportProgress.NONE, Cancellation.NEVER);
        if (!r.readAnything()) {
            String why = r.model().diagnostics().stream().filter(d -> d.severity() != org.fabricscope.model.Severity.INFO)
                    .findFirst().map(Diagnostic::toString).orElse("no fabric dump found in " + paths);
            throw new CliFailure(1, "nothing to read: " + why);
        }
        return r;
    }

    private ErrorThresholds thresholds(ImportResult r, List<Diagnostic> problems) {
        if (thresholdsFile != null) {
            try (Reader in = Files.newBufferedReader(thresholdsFile, StandardCharsets.UTF_8)) {
                return ErrorThresholds.parse(in, thresholdsFile.toString(), problems);
            } catch (IOException e) {
                throw new CliFailure(1, "cannot read thresholds " + thresholdsFile + ": " + e.getMessage());
            }
        }
        return r.thresholds() != null ? r.thresholds() : ErrorThresholds.defaults();
    }
}
