package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.model.analysis.Analysis;

/** The pairwise sample's inputs (sample-fabrics/pairwise, as its golden.inputs lists them), and their analysis. */
final class PairSamples {
    static final Path DIR = Path.of("..", "sample-fabrics", "pairwise");

    private PairSamples() {
    }

    static List<Path> paths() {
        assumeTrue(Files.isDirectory(DIR), "run from the app module of the repository");
        List<Path> in = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            in.add(DIR.resolve("gpu-node-0" + i).resolve("ibstat.txt"));
        }
        in.add(DIR.resolve("perftest"));
        in.add(DIR.resolve("nccl-tests"));
        return in;
    }

    static Analysis analysis() {
        var r = new FabricImporter().importPaths(paths(), ImportProgress.NONE, Cancellation.NEVER);
        return Analysis.of(r.model(), r.thresholds());
    }
}
