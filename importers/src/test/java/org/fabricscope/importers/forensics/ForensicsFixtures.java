package org.fabricscope.importers.forensics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.diagnosis.Diagnosis;
import org.fabricscope.model.diagnosis.ErrorThresholds;

/** Where the forensics fixtures are, and loading them through the whole import pipeline. */
final class ForensicsFixtures {
    /** The real 2x H200 captures (sample-fabrics/gpu-captures/h200x2-forensics-nccl-2.28.9). */
    static final Path CAPTURES = Path.of("..", "sample-fabrics", "gpu-captures", "h200x2-forensics-nccl-2.28.9");

    private ForensicsFixtures() {
    }

    static Path resource(String name) {
        try {
            return Path.of(ForensicsFixtures.class.getResource("/forensics/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] bytes(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static FabricModel load(Path... paths) {
        return new FabricImporter().importPaths(List.of(paths), ImportProgress.NONE, Cancellation.NEVER).model();
    }

    static FabricModel load(List<Path> paths) {
        return new FabricImporter().importPaths(paths, ImportProgress.NONE, Cancellation.NEVER).model();
    }

    static List<Path> files(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isRegularFile).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Finding> diagnose(FabricModel m) {
        return Diagnosis.standard(ErrorThresholds.defaults()).run(m, ErrorThresholds.defaults());
    }

    static List<Finding> findings(FabricModel m, String id) {
        List<Finding> out = new ArrayList<>();
        for (Finding f : diagnose(m)) {
            if (f.id().equals(id)) {
                out.add(f);
            }
        }
        return out;
    }

    static String diagnostics(FabricModel m) {
        StringBuilder b = new StringBuilder();
        for (Diagnostic d : m.diagnostics()) {
            b.append(d).append('\n');
        }
        return b.toString();
    }
}
