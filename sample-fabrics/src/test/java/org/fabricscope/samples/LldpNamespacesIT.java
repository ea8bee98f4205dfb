package org.fabricscope.samples;

import org.fabricscope.importers.ImportResult;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.diagnosis.CheckContext;
import org.fabricscope.model.diagnosis.Diagnosis;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Capture, import, diagnose: tools/gen-lldp-fabric.sh builds the two-tier fabric of network namespaces, runs
 * lldpd in each and captures lldpcli's tables; imported, they must give the fabric built and the finding its
 * variant plants. Needs root (network namespaces) and lldpd; on CI their absence is a failure, elsewhere the
 * test is skipped.
 */
class LldpNamespacesIT {
    @TempDir
    Path work;

    @ParameterizedTest(name = "{0}")
    @CsvSource({"healthy, ''", "miscabled, roce-nic-miscabled", "one-sided, lldp-one-sided lldp-one-sided"})
    void capturedTablesGiveTheFabricBuilt(String variant, String findings) throws Exception {
        boolean lldpd = Files.isExecutable(Path.of("/usr/sbin/lldpd")) && Files.isExecutable(Path.of("/usr/sbin/lldpcli"));
        boolean root = "root".equals(System.getProperty("user.name"));
        if (System.getenv("CI") != null) {
            assertTrue(lldpd && root, "lldpd and root are needed: .ci/install-tools.sh installs lldpd, CI runs as root");
        }
        assumeTrue(lldpd, "lldpd not installed (apt-get install lldpd)");
        assumeTrue(root, "network namespaces need root");
        Path out = work.resolve(variant);
        Path log = work.resolve("gen.log");
        Process p = new ProcessBuilder("bash", Samples.root().resolve("tools/gen-lldp-fabric.sh").toString(), variant,
                out.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out\n" + Files.readString(log));
        }
        assumeTrue(p.exitValue() != 77, "namespaces not allowed here: " + Files.readString(log));
        assertEquals(0, p.exitValue(), Files.readString(log));
        List<Path> json = new ArrayList<>();
        try (Stream<Path> s = Files.walk(out)) {
            s.filter(f -> f.getFileName().toString().equals("lldpcli-neighbors.json")).sorted().forEach(json::add);
        }
        assertEquals(8, json.size());
        ImportResult r = Samples.load(json);
        assertEquals(4, r.model().fabric().nodes().values().stream().filter(n -> n.isSwitch()).count());
        assertEquals(4, r.model().fabric().hosts().size());
        assertEquals(12, r.model().fabric().cables().size());
        assertTrue(r.model().diagnostics().stream().noneMatch(d -> d.severity() != Severity.INFO), r.model().diagnostics().toString());
        List<String> ids = Diagnosis.standard(ErrorThresholds.defaults()).run(CheckContext.of(r.model())).stream()
                .map(Finding::id).toList();
        assertEquals(findings.isBlank() ? List.of() : List.of(findings.split(" ")), ids);
    }
}
