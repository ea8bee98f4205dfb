package org.fabricscope.app.nav;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.core.Finding;

/** The repository's sample folders (tests run in app/), imported and analysed as the app does. */
public final class Samples {
    public static final Path RAIL = Path.of("..", "sample-fabrics", "rail-2su-hdr");
    public static final Path TRAINING = Path.of("..", "sample-fabrics", "training-incident");
    public static final Path K8S = Path.of("..", "sample-fabrics", "k8s-incident");

    private Samples() {
    }

    public static List<Path> paths(Path... folders) {
        for (Path p : folders) {
            assumeTrue(Files.isDirectory(p), "run from the app module of the repository: " + p);
        }
        return Arrays.asList(folders);
    }

    public static Analysis analysis(Path... folders) {
        ImportResult r = new FabricImporter().importPaths(paths(folders), ImportProgress.NONE, Cancellation.NEVER);
        return Analysis.of(r.model(), r.thresholds());
    }

    /** The first finding with this id. */
    public static Finding finding(List<Finding> findings, String id) {
        return findings.stream().filter(f -> f.id().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + id + " in " + findings.stream().map(Finding::id).toList()));
    }
}
