package org.fabricscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.fabricscope.model.incident.Signature;
import org.fabricscope.model.incident.SignatureCatalogue;
import org.fabricscope.model.incident.Target;
import org.junit.jupiter.api.Test;

/**
 * The catalogue's literals are rare in healthy logs: a literal held by many lines makes every one of
 * them pay for its pattern (a literal of {@code "] "} once made log import ten times slower), and no
 * signature recognises a line of a healthy real capture.
 */
class LiteralSelectivityTest {
    /** Healthy real captures: NCCL_DEBUG=INFO logs and torchrun's output of runs that ended well. */
    private static List<String> healthyLines() throws IOException {
        List<String> lines = new ArrayList<>();
        Path captures = Samples.root().resolve("gpu-captures");
        for (String dir : List.of("h100x1-nccl-2.28.9", "h200x2-nccl-2.28.9/shm", "h200x2-busbw-nccl-2.28.9",
                "incidents-h100x2-nccl-2.28.9/healthy", "incidents-h100x2-nccl-2.28.9/shm-nccl-1pod-cumem-ok")) {
            try (Stream<Path> s = Files.walk(captures.resolve(dir))) {
                for (Path p : s.filter(f -> f.toString().endsWith(".log") || f.toString().endsWith(".txt")).sorted().toList()) {
                    lines.addAll(Files.readAllLines(p, StandardCharsets.ISO_8859_1));
                }
            }
        }
        return lines;
    }

    @Test
    void everyLiteralIsRareInHealthyLogs() throws IOException {
        List<String> lines = healthyLines();
        assertTrue(lines.size() > 1500, "healthy lines: " + lines.size());
        TreeMap<String, Integer> common = new TreeMap<>();
        for (Signature s : SignatureCatalogue.bundled().signatures()) {
            if (s.on() != Target.LOG) {
                continue;
            }
            for (String literal : s.literals()) {
                int n = 0;
                for (String l : lines) {
                    if (l.contains(literal)) {
                        n++;
                    }
                }
                if (n * 100 > lines.size()) { // more than 1% of lines
                    common.put(s.id() + " '" + literal + "'", n);
                }
            }
        }
        assertEquals(new TreeMap<>(), common, "literals held by more than 1% of " + lines.size() + " healthy lines");
    }

    @Test
    void noSignatureRecognisesALineOfAHealthyCapture() throws IOException {
        SignatureCatalogue.Matcher m = SignatureCatalogue.bundled().matcher(Target.LOG);
        List<String> hits = new ArrayList<>();
        for (String l : healthyLines()) {
            SignatureCatalogue.Hit h = m.first(l);
            if (h != null && h.signature().severity() != org.fabricscope.model.core.Severity.INFO
                    && h.signature().role() != org.fabricscope.model.incident.Role.CONTEXT) {
                hits.add(h.signature().id() + ": " + l);
            }
        }
        assertEquals(List.of(), hits);
    }
}
