package org.fabricscope.model.flows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.evidence.MemlockLimit;
import org.junit.jupiter.api.Test;

/**
 * Output pasted for a manual step is read as that step's command's output and nothing else: each
 * manual step of the built-in flows says what its command prints, a paste is checked against it (the
 * importers stand in as a fake that claims what a real reader would), and a paste that does not fit is
 * refused with a message naming what the step expects.
 */
class PastedOutputTest {
    /** A stand-in for the importers: ulimit claims one number or {@code max locked memory}, gid-table claims sysfs lines. */
    private static final PastedOutput.Readers READERS = new PastedOutput.Readers() {
        @Override
        public String claim(String text, List<String> formats) {
            return formats.stream().filter(f -> claims(f, text)).findFirst().orElse(null);
        }

        @Override
        public String detect(String text) {
            return claims("gid-table", text) ? "gid-table" : claims("ulimit", text) ? "ulimit" : null;
        }

        private boolean claims(String format, String text) {
            List<String> lines = PastedOutput.content(text);
            return switch (format) {
                case "ulimit" -> lines.size() == 1 && lines.get(0).matches("unlimited|\\d+")
                        || lines.stream().anyMatch(l -> l.startsWith("max locked memory"));
                case "gid-table" -> lines.stream().anyMatch(l -> l.contains("/sys/class/infiniband/"));
                default -> false;
            };
        }

        @Override
        public String label(String format) {
            return Map.of("ulimit", "ulimit -a / -l", "gid-table", "GID table", "ibstat", "ibstat").getOrDefault(format, format);
        }

        @Override
        public List<String> read(String text, String format) {
            FabricModelBuilder b = new FabricModelBuilder();
            if (format.equals("ulimit")) {
                String v = PastedOutput.content(text).get(0).replaceAll("\\D", "");
                b.hostEvidence().file("pasted output", List.of())
                        .memlock(new MemlockLimit(v.isEmpty(), v.isEmpty() ? -1 : Long.parseLong(v), Evidence.at("p", 1, text)));
            }
            return PasteReading.describe(b.build());
        }
    };

    private static Flow.Step step(String flow, String step) {
        return FlowLibrary.builtIn().flow(flow).step(step);
    }

    @Test
    void everyManualStepOfTheBuiltInFlowsSaysWhatItsCommandPrints() {
        assertEquals(StepOutput.NUMBER, step("roce-gid-index", "gid-matches").output());
        assertEquals(List.of("ulimit"), step("link-errors", "memlock-limit").output().formats());
        assertEquals(List.of("ibstat"), step("link-errors", "ports-active").output().formats());
        assertEquals(List.of("dev-infiniband"), step("link-errors", "permissions").output().formats());
        assertEquals(List.of("ibv-devinfo"), step("no-rdma-device", "port-active").output().formats());
        assertEquals(List.of("k8s-describe-pod"), step("insufficient-resources", "insufficient").output().formats());
        assertEquals(StepOutput.TEXT, step("slow-training", "pfc").output());
        for (Flow f : FlowLibrary.builtIn().flows()) {
            for (Flow.Step s : f.steps()) {
                if (s.kind() == Flow.Kind.MANUAL && s.output().kind() == StepOutput.Kind.FORMAT) {
                    // a declared format agrees with what the command runs, so the two cannot drift apart
                    assertEquals(s.output(), StepOutput.of(s.command()), f.id() + "/" + s.id() + ": " + s.command());
                }
            }
        }
    }

    @Test
    void aGidIndexPastedForTheGidStepIsReadAsANumberAndNeverImported() {
        Flow.Step gid = step("roce-gid-index", "gid-matches");
        PastedOutput.Result r = PastedOutput.check(gid.output(), "3\n", READERS);
        assertTrue(r.fits(), r.message());
        assertFalse(r.imported(), "a number is the answer's evidence, never an input a reader takes");
        assertEquals(List.of("3"), r.read());
        assertTrue(r.message().startsWith("Read from the paste: 3"), r.message());
        // a copied prompt around it is no content
        assertTrue(PastedOutput.check(gid.output(), "root@pod:/# grep ...\n7\n", READERS).fits());
    }

    @Test
    void aGidTablePastedForTheGidIndexStepIsRefused() {
        String table = "/sys/class/infiniband/mlx5_0/ports/1/gids/0:fe80:0000:0000:0000:0000:0000:0000:0000\n"
                + "/sys/class/infiniband/mlx5_0/ports/1/gids/3:0000:0000:0000:0000:0000:ffff:0a00:0105\n";
        PastedOutput.Result r = PastedOutput.check(step("roce-gid-index", "gid-matches").output(), table, READERS);
        assertFalse(r.fits());
        assertTrue(r.message().contains("prints one number") && r.message().contains("has 2 lines")
                && r.message().contains("reads as GID table output"), r.message());
    }

    @Test
    void aMemlockLimitPastedForUlimitIsReadAndShown() {
        Flow.Step memlock = step("link-errors", "memlock-limit");
        PastedOutput.Result r = PastedOutput.check(memlock.output(), "64\n", READERS);
        assertTrue(r.fits(), r.message());
        assertTrue(r.imported());
        assertEquals("ulimit", r.format());
        assertEquals(List.of("locked-memory limit 64 kB"), r.read());
        assertEquals("Read from the paste as ulimit -a / -l: locked-memory limit 64 kB", r.message());
    }

    @Test
    void whatTheStepsReaderDoesNotClaimIsRefusedNamingWhatTheStepExpects() {
        Flow.Step memlock = step("link-errors", "memlock-limit");
        PastedOutput.Result r = PastedOutput.check(memlock.output(),
                "/sys/class/infiniband/mlx5_0/ports/1/gids/3:0000:0000:0000:0000:0000:ffff:0a00:0105\n", READERS);
        assertFalse(r.fits());
        assertFalse(r.imported());
        assertEquals("Not read: this step takes ulimit -a / -l output, and the paste reads as "
                + "GID table output. Paste what the command prints, or answer without output.", r.message());
        PastedOutput.Result prose = PastedOutput.check(memlock.output(), "no idea, the pod is gone", READERS);
        assertFalse(prose.fits());
        assertTrue(prose.message().contains("is no output FabricScope reads"), prose.message());
        PastedOutput.Result ibstat = PastedOutput.check(step("link-errors", "ports-active").output(), "64", READERS);
        assertFalse(ibstat.fits(), "ulimit output for the ibstat step: the ibstat reader alone is asked");
        assertTrue(ibstat.message().contains("takes ibstat output") && ibstat.message().contains("reads as ulimit -a / -l output"),
                ibstat.message());
    }

    @Test
    void aClaimedPasteFromWhichNothingIsReadIsRefused() {
        PastedOutput.Readers nothing = new PastedOutput.Readers() {
            @Override
            public String claim(String text, List<String> formats) {
                return formats.get(0);
            }

            @Override
            public String detect(String text) {
                return null;
            }

            @Override
            public String label(String format) {
                return format;
            }

            @Override
            public List<String> read(String text, String format) {
                return List.of();
            }
        };
        PastedOutput.Result r = PastedOutput.check(StepOutput.formats(List.of("ibstat")), "CA 'mlx5_0'", nothing);
        assertFalse(r.fits());
        assertTrue(r.message().startsWith("Not read: nothing in the paste is ibstat output"), r.message());
    }

    @Test
    void textNoReaderTakesIsKeptAsEvidenceAndABlankPasteIsAnAnswerWithoutOutput() {
        PastedOutput.Result r = PastedOutput.check(step("slow-training", "pfc").output(),
                "PFC configuration:\n  priority 0 1 2 3\n  enabled  0 0 0 1\n", READERS);
        assertTrue(r.fits());
        assertFalse(r.imported());
        assertTrue(r.read().isEmpty());
        assertTrue(r.message().contains("Kept as this answer's evidence, not read") && r.message().contains("3 lines"), r.message());
        PastedOutput.Result blank = PastedOutput.check(StepOutput.NUMBER, "  \n", READERS);
        assertTrue(blank.fits());
        assertEquals("", blank.message());
    }

    @Test
    void theOutputIsWorkedOutFromTheCommandWhenAFlowDoesNotDeclareIt() {
        assertEquals(List.of("ulimit"), StepOutput.of("kubectl exec p -n ns -- sh -c 'ulimit -l'").formats());
        assertEquals(List.of("dev-infiniband"), StepOutput.of("ls -l /dev/infiniband/; id -nG").formats());
        assertEquals(List.of("ibstat"), StepOutput.of("ibstat").formats());
        assertEquals(List.of("ibstatus"), StepOutput.of("ibstatus").formats());
        assertEquals(List.of("k8s-describe-pod"), StepOutput.of("kubectl describe pod w-0 -n ml").formats());
        assertEquals(List.of("gid-table"), StepOutput.of("show_gids > gids.txt").formats());
        assertEquals(List.of("df-shm"), StepOutput.of("kubectl exec p -- df -h /dev/shm").formats());
        // an index extracted by sed is no GID table; commands FabricScope does not read are text
        assertEquals(StepOutput.TEXT, StepOutput.of("grep 'RoCE v2' $(grep ffff /sys/class/infiniband/mlx5_0/ports/1/gids/* "
                + "| cut -d ':' -f 1) | sed -e 's/x/y/'"));
        assertEquals(StepOutput.TEXT, StepOutput.of("mlnx_qos -i net1"));
        assertEquals(StepOutput.TEXT, StepOutput.of(""));
    }

    @Test
    void aFlowFileDeclaresTheOutputOfItsManualStepsOnly() {
        String flow = "{\"id\":\"x\",\"title\":\"X\",\"entry\":{\"findings\":[\"link-down\"]},\"steps\":["
                + "{\"id\":\"a\",\"question\":\"Q?\",\"kind\":\"manual\",\"ask\":{\"fact\":\"memlock-unlimited\"},"
                + "\"command\":\"cat /proc/x\",\"output\":%s,\"yes\":\"b\",\"no\":\"c\"},"
                + "{\"id\":\"b\",\"question\":\"Q?\",\"ask\":{\"fact\":\"multi-node\"},\"output\":\"text\",\"yes\":\"c\",\"no\":\"c\"}],"
                + "\"conclusions\":[{\"id\":\"c\",\"text\":\"T\",\"remedies\":[\"R\"]}]}";
        FlowLoader.Loaded ok = FlowLoader.standard().load("f.json", String.format(flow, "[\"ulimit\"]")
                .replace(",\"output\":\"text\"", "").getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of(), ok.errors());
        assertEquals(List.of("ulimit"), ok.flow().step("a").output().formats());
        FlowLoader.Loaded bad = FlowLoader.standard().load("f.json", String.format(flow, "\"Ulimit!\"").getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("/steps/0/output", "/steps/1/output"), bad.errors().stream().map(FlowError::pointer).toList(),
                bad.errors().toString());
    }
}
