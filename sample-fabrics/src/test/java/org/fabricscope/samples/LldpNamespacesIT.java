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
        Path out = generate(variant);
        List<Path> json = files(out, "lldpcli-neighbors.json");
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

    /**
     * The switches' config_db.json and the hosts' ip -j addr and ip -d link that the generator also writes, with the
     * tables: every MTU and PFC setting placed, and only the finding the variant plants.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"healthy, 12, ''", "mtu-mismatch, 12, roce-mtu-mismatch roce-mtu-mismatch",
            "pfc-one-end, 12, ''", "neighbour-missing, 11, lldp-neighbour-missing lldp-neighbour-missing lldp-neighbour-missing"})
    void configurationAndAddressesGiveTheirFindings(String variant, int cables, String findings) throws Exception {
        Path out = generate(variant);
        List<Path> in = new ArrayList<>(files(out, "lldpcli-neighbors.json"));
        in.addAll(files(out, "config_db.json"));
        in.addAll(files(out, "ip-j-addr.json"));
        in.addAll(files(out, "ip-d-link.txt"));
        assertEquals(8 + 4 + 4 + 4, in.size());
        ImportResult r = Samples.load(in);
        assertTrue(r.model().diagnostics().stream().noneMatch(d -> d.severity() != Severity.INFO), r.model().diagnostics().toString());
        assertEquals(cables, r.model().fabric().cables().size());
        long configured = r.model().fabric().nodes().values().stream().flatMap(n -> n.ports().stream())
                .filter(p -> p.switchConfig() != null).count();
        long mtus = r.model().fabric().nodes().values().stream().flatMap(n -> n.ports().stream())
                .filter(p -> p.netdevLink() != null && p.netdevLink().mtu() > 0).count();
        assertEquals(16, configured, "every switch port cabled or planned has its config_db.json entry");
        assertEquals(variant.equals("neighbour-missing") ? 7 : 8, mtus, "every placed host NIC has its MTU");
        List<String> ids = Diagnosis.standard(ErrorThresholds.defaults()).run(CheckContext.of(r.model())).stream()
                .map(Finding::id).toList();
        // pfc-one-end plants its finding in leaf-02's PORT_QOS_MAP; without the hosts' mlnx_qos only the info says so
        assertEquals(findings.isBlank() ? List.of() : List.of(findings.split(" ")), ids);
        assertTrue(r.model().diagnostics().stream().anyMatch(d -> d.message().startsWith("PFC is known at one end only of")),
                "the hosts' PFC was not loaded: the import says the links could not be checked");
    }

    private static List<Path> files(Path out, String name) throws IOException {
        List<Path> found = new ArrayList<>();
        try (Stream<Path> s = Files.walk(out)) {
            s.filter(f -> f.getFileName().toString().equals(name)).sorted().forEach(found::add);
        }
        return found;
    }

    private Path generate(String variant) throws Exception {
        boolean lldpd = Files.isExecutable(Path.of("/usr/sbin/lldpd")) && Files.isExecutable(Path.of("/usr/sbin/lldpcli"));
        boolean root = "root".equals(System.getProperty("user.name"));
        if (System.getenv("CI") != null) {
            assertTrue(lldpd && root, "lldpd and root are needed: .ci/install-tools.sh installs lldpd, CI runs as root");
        }
        assumeTrue(lldpd, "lldpd not installed (apt-get install lldpd)");
        assumeTrue(root, "network namespaces need root");
        Path out = work.resolve(variant);
        Path log = work.resolve(variant + ".log");
        Process p = new ProcessBuilder("bash", Samples.root().resolve("tools/gen-lldp-fabric.sh").toString(), variant,
                out.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out\n" + Files.readString(log));
        }
        assumeTrue(p.exitValue() != 77, "namespaces not allowed here: " + Files.readString(log));
        assertEquals(0, p.exitValue(), Files.readString(log));
        return out;
    }
}
