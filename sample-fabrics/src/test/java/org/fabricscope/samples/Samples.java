package org.fabricscope.samples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.diagnosis.Diagnosis;
import org.fabricscope.model.diagnosis.ErrorThresholds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Shared helpers: where the samples are, importing a capture, checking faults against findings. */
final class Samples {
    private Samples() {
    }

    static Path root() {
        String p = System.getProperty("fabricscope.samples");
        return p != null ? Path.of(p) : Path.of("").toAbsolutePath();
    }

    static JsonNode json(Path p) throws IOException {
        return new ObjectMapper().readTree(p.toFile());
    }

    /** The capture files of a folder: what the real tools wrote (not the net file, docs or scripts). */
    static List<Path> captureFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> {
                String n = p.getFileName().toString();
                return n.equals("ibnetdiscover.txt") || n.equals("iblinkinfo.txt") || n.equals("ibqueryerrors.txt")
                        || (n.startsWith("perfquery-") && n.endsWith(".txt"));
            }).sorted().toList();
        }
    }

    static ImportResult load(List<Path> files) {
        return new FabricImporter().importPaths(files, ImportProgress.NONE, Cancellation.NEVER);
    }

    static List<Finding> diagnose(FabricModel m) {
        return Diagnosis.standard(ErrorThresholds.defaults()).run(m, ErrorThresholds.defaults());
    }

    /** A finding with this id whose typed subjects include this port of the node with this name (switch or HCA). */
    static boolean hasFinding(FabricModel model, List<Finding> findings, String id, String nodeName, int port) {
        java.util.Set<Long> guids = new java.util.HashSet<>();
        model.nodes().stream().filter(n -> n.displayName().equals(nodeName)).forEach(n -> guids.add(n.guid()));
        return findings.stream().anyMatch(f -> f.id().equals(id) && f.refs().stream().anyMatch(r ->
                r instanceof org.fabricscope.model.core.Subject.PortRef p && guids.contains(p.guid()) && p.port() == port));
    }

    /** The finding id FabricScope reports for each kind of fault the generators inject. */
    static final Map<String, String> FINDING_FOR_FAULT = Map.of(
            "symbol_errors", "link-errors",
            "link_error_recovery", "link-errors",
            "unplugged_cable", "link-down",
            "unplugged_cable_counter", "link-down",
            "degraded_width", "link-degraded");
}
