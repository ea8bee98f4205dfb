package org.fabricscope.importers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.importers.ibnet.IbsimNetReader;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Severity;
import org.junit.jupiter.api.Test;

/** The standard registry's readers, detection by confidence, and the formats recognised only to be skipped. */
class FormatRegistryTest {
    private static final FormatRegistry STANDARD = FormatRegistry.standard();

    /** Each format's phase: the order files were read in before the registry (0 names/thresholds ... 7 logs). */
    private static final Map<String, ImportPhase> PHASES = new LinkedHashMap<>();

    static {
        PHASES.put("node-name-map", ImportPhase.NAMES_AND_THRESHOLDS);
        PHASES.put("error-thresholds", ImportPhase.NAMES_AND_THRESHOLDS);
        PHASES.put("ibnetdiscover", ImportPhase.TOPOLOGY);
        PHASES.put("ibnetdiscover-ports", ImportPhase.TOPOLOGY_DETAIL);
        PHASES.put("ibnetdiscover-list", ImportPhase.TOPOLOGY_DETAIL);
        PHASES.put("iblinkinfo", ImportPhase.LINK_STATE);
        PHASES.put("perfquery", ImportPhase.COUNTERS);
        PHASES.put("ibqueryerrors", ImportPhase.COUNTERS);
        PHASES.put("nccl-topology", ImportPhase.HOSTS);
        PHASES.put("nccl-graph", ImportPhase.HOSTS);
        PHASES.put("nvidia-smi-topo", ImportPhase.HOSTS);
        PHASES.put("k8s-objects", ImportPhase.KUBERNETES);
        PHASES.put("k8s-allocatable", ImportPhase.KUBERNETES);
        PHASES.put("k8s-describe-pod", ImportPhase.KUBERNETES);
        PHASES.put("k8s-events-table", ImportPhase.KUBERNETES);
        PHASES.put("flight-recorder", ImportPhase.LOGS);
        PHASES.put("nccl-ras", ImportPhase.LOGS);
        PHASES.put("nccl-tests", ImportPhase.LOGS);
        PHASES.put("nccl-inspector", ImportPhase.LOGS);
        PHASES.put("perftest", ImportPhase.LOGS);
        PHASES.put("nccl-log", ImportPhase.LOGS);
        PHASES.put("lldp-neighbors", ImportPhase.TOPOLOGY);
        PHASES.put("rdma-netdev", ImportPhase.TOPOLOGY);
        PHASES.put("mlnx-qos", ImportPhase.TOPOLOGY);
        PHASES.put("roce-counters", ImportPhase.TOPOLOGY);
        PHASES.put("ip-link", ImportPhase.TOPOLOGY);
        PHASES.put("sonic-config-db", ImportPhase.TOPOLOGY);
        PHASES.put("ibsim-net", ImportPhase.SKIPPED);
        PHASES.put("hwloc-xml", ImportPhase.SKIPPED);
        for (String host : List.of("ibstat", "ibstatus", "ibv-devinfo", "gid-table", "ulimit", "dev-infiniband", "ip-addr",
                "df-shm", "env", "lspci", "eadm-stat", "kernel-log")) {
            PHASES.put(host, ImportPhase.HOSTS);
        }
    }

    private static String detect(String content) {
        FormatReader r = STANDARD.detect(Head.of(content));
        return r == null ? FormatRegistry.UNKNOWN : r.id();
    }

    @Test
    void everyReaderIsRegisteredOnceWithAUniqueIdAndLabel() {
        List<FormatReader> readers = STANDARD.readers();
        Set<String> ids = new HashSet<>();
        Set<String> labels = new HashSet<>();
        Set<Class<?>> classes = new HashSet<>();
        for (FormatReader r : readers) {
            assertTrue(ids.add(r.id()), "id used twice: " + r.id());
            assertTrue(labels.add(r.label()), "label used twice: " + r.label());
            // one class per format, but for the forensics family, one class configured per format
            assertTrue(r instanceof org.fabricscope.importers.forensics.ForensicsFormat || classes.add(r.getClass()),
                    "registered twice: " + r.getClass());
            assertTrue(r.id().matches("[a-z0-9]+(-[a-z0-9]+)*"), r.id());
            assertFalse(r.label().isBlank(), r.id());
            assertSame(r, STANDARD.byId(r.id()));
        }
        assertEquals(PHASES.keySet(), ids, "every format, each once");
        assertFalse(ids.contains(FormatRegistry.UNKNOWN));
        assertNull(STANDARD.byId(FormatRegistry.UNKNOWN));
    }

    @Test
    void phasesKeepTheReadingOrder() {
        for (FormatReader r : STANDARD.readers()) {
            assertEquals(PHASES.get(r.id()), r.phase(), r.id());
        }
        assertEquals(List.of(ImportPhase.SKIPPED, ImportPhase.NAMES_AND_THRESHOLDS, ImportPhase.TOPOLOGY,
                ImportPhase.TOPOLOGY_DETAIL, ImportPhase.LINK_STATE, ImportPhase.COUNTERS, ImportPhase.HOSTS,
                ImportPhase.KUBERNETES, ImportPhase.LOGS), List.of(ImportPhase.values()));
    }

    @Test
    void confidencesStayOnTheScale() {
        List<String> heads = List.of("", "\n\n", "hello", "<system version=\"1\"></system>", "{\"cpu\": \"8\"}",
                "# Port counters: Lid 2 port 1 (CapMask: 0x5A00)\nSymbolErrorCounter:..............0");
        for (String h : heads) {
            for (FormatReader r : STANDARD.readers()) {
                int c = r.confidence(Head.of(h));
                assertTrue(c >= FormatReader.NONE && c <= FormatReader.CERTAIN, r.id() + " " + c);
            }
        }
        assertEquals(FormatRegistry.UNKNOWN, detect(""));
        assertEquals(FormatRegistry.UNKNOWN, detect("hello\nworld\n"));
    }

    /**
     * The registry asks few readers, and a reader's late look ({@link FormatReader#lateConfidence}) last, yet
     * picks what asking every reader's whole {@link FormatReader#confidence} picks (the surest; of equally sure
     * ones, the first registered): checked on the head of every file the repository's tests and samples hold.
     * Each reader's whole answer is its first look's, or its late look's when the first said NONE.
     */
    @Test
    void askingFewReadersPicksWhatAskingAllPicks() throws java.io.IOException {
        java.nio.file.Path root = java.nio.file.Path.of("").toAbsolutePath().getParent();
        List<java.nio.file.Path> files = new java.util.ArrayList<>();
        for (String d : List.of("importers/src/test/resources", "app/src/test/resources", "sample-fabrics")) {
            java.nio.file.Path dir = root.resolve(d);
            if (java.nio.file.Files.isDirectory(dir)) {
                try (var walk = java.nio.file.Files.walk(dir)) {
                    walk.filter(java.nio.file.Files::isRegularFile).filter(f -> !f.toString().contains("/target/"))
                            .sorted().forEach(files::add);
                }
            }
        }
        assertTrue(files.size() > 500, "the repository's files: " + files.size());
        int late = 0;
        for (java.nio.file.Path f : files) {
            byte[] bytes;
            try (var in = java.nio.file.Files.newInputStream(f)) {
                bytes = in.readNBytes(Head.MAX_BYTES);
            }
            Head head = Head.of(bytes);
            FormatReader all = null;
            int best = FormatReader.NONE;
            for (FormatReader r : STANDARD.readers()) {
                int whole = r.confidence(head);
                int first = r.firstConfidence(head);
                assertEquals(whole, first != FormatReader.NONE ? first : r.lateConfidence(head), r.id() + " on " + f);
                int c = Math.min(whole, r.maxConfidence());
                if (c > best) {
                    all = r;
                    best = c;
                }
            }
            FormatReader picked = STANDARD.detect(head);
            assertEquals(all == null ? null : all.id(), picked == null ? null : picked.id(), f.toString());
            if (picked != null && picked.firstConfidence(head) == FormatReader.NONE) {
                late++;
            }
        }
        assertTrue(late > 0, "some heads are claimed by a late look");
    }

    @Test
    void ibnetdiscoversOwnHeaderClaimsTheFileAboveTheLogAndHostReaders() {
        String nodes = "vendid=0x2c9\ndevid=0xd2f0\nswitchguid=0x1c34da0300728866(1c34da0300728866)\n"
                + "Switch\t41 \"S-1c34da0300728866\"\t\t# \"MF0;MLG01-02:MQM8700/U1\" enhanced port 0 lid 1600 lmc 0\n"
                + "[1]\t\"H-1c34da0300608820\"[1](1c34da0300608820) \t\t# \"selene-swift-01 HCA-2\" lid 837 4xHDR\n";
        String header = "#\n# Topology file: generated on Tue Feb 23 14:02:06 2021\n#\n"
                + "# Initiated from node 0c42a10300255562 port 0c42a10300255562\n\n";
        FormatReader ibnet = STANDARD.byId("ibnetdiscover");
        assertEquals(95, ibnet.confidence(Head.of(header + nodes)));
        assertEquals(60, ibnet.confidence(Head.of(nodes)), "node lines alone: as before");
        assertEquals("ibnetdiscover", detect(header + nodes));
        assertEquals("ibnetdiscover", detect(nodes));
        // the header quoted after other text, or above no node lines, claims nothing
        assertEquals(60, ibnet.confidence(Head.of("switch dump\n" + header + nodes)));
        assertEquals(FormatReader.NONE, ibnet.confidence(Head.of(header)));
        // an ibsim net file cut from a dump keeps the header, with symbolic names: ibsim's reader decides
        String ibsim = header + "Switch\t24 \"S-leaf-01\"\t# \"leaf 1\" enhanced port 0 lid 1\n"
                + "[1]\t\"H-host-01\"[1]\t# \"host 1\" lid 2 4xHDR\n";
        assertEquals(FormatReader.NONE, ibnet.firstConfidence(Head.of(ibsim)), "symbolic node names take no claim");
        assertEquals(IbsimNetReader.ID, detect(ibsim));
    }

    @Test
    void unknownFormatMessageListsTheLabelsOfTheFormatsRead() {
        String m = STANDARD.unknownFormatMessage();
        assertTrue(m.startsWith("not a format FabricScope reads (") && m.endsWith("); skipped"), m);
        for (FormatReader r : STANDARD.readers()) {
            assertEquals(r.phase() != ImportPhase.SKIPPED, m.contains(r.label()), r.label() + " in " + m);
        }
        ImportResult r = TestSupport.importTexts("notes.txt", "just some notes\n");
        assertEquals(FormatRegistry.UNKNOWN, r.formats().get("notes.txt"));
        assertEquals(List.of(Diagnostic.info("notes.txt", 1, m)), r.model().diagnostics());
    }

    @Test
    void skipFormatsAreDetectedAndReportedAsBefore() {
        String net = """
                Switch 36 "S-leaf-01"
                [1] "H-node-01"[1]
                [2] "S-spine-01"[1]
                """;
        String hwloc = """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE topology SYSTEM "hwloc2.dtd">
                <topology version="2.0">
                  <object type="Machine" os_index="0"/>
                </topology>
                """;
        assertEquals("ibsim-net", detect(net));
        assertEquals("hwloc-xml", detect(hwloc));
        assertEquals("hwloc-xml", detect("<!-- lstopo -->\n<topology>\n</topology>\n"));

        ImportResult r = TestSupport.importTexts("fabric.net", net, "topology.xml", hwloc);
        assertEquals("ibsim-net", r.formats().get("fabric.net"));
        assertEquals("hwloc-xml", r.formats().get("topology.xml"));
        assertFalse(r.readAnything(), "recognised only to be skipped");
        assertEquals(List.of(), r.sources());
        assertEquals(List.of(
                Diagnostic.info("fabric.net", 1, "ibsim net file: the simulator's input, not a capture of the fabric; skipped"),
                Diagnostic.warning("topology.xml", 1, "hwloc topology XML (<topology>, as lstopo and aws-ofi-nccl's test "
                        + "fixtures write it), not NCCL's topology format (<system version=\"1\">, what NCCL_TOPO_DUMP_FILE "
                        + "writes); skipped")), r.model().diagnostics());
    }

    @Test
    void headStripsCrAndByteOrderMarkAndKeepsSixtyFourLines() {
        Head h = Head.of("\uFEFFfirst\r\nsecond\r\n\r\nfourth");
        assertEquals(List.of("first", "second", "", "fourth"), h.lines());
        assertEquals("first\nsecond\n\nfourth", h.text());
        assertEquals(Head.MAX_LINES, Head.of("x\n".repeat(1000)).lines().size());
        assertEquals(Head.MAX_LINE_CHARS, Head.of("y".repeat(10_000)).lines().get(0).length());
        byte[] big = ("z".repeat(100) + "\n").repeat(2000).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(Head.MAX_LINES, Head.of(big).lines().size());
        assertSame(h.derived(StringBuilder.class, x -> new StringBuilder("once")),
                h.derived(StringBuilder.class, x -> new StringBuilder("twice")), "computed once per head");
        // CRLF captures are told apart as LF ones
        assertEquals("nvidia-smi-topo", detect("\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\r\nGPU0\t X \tNV18\t0-55\t0\r\n"));
    }

    @Test
    void aJsonDocumentIsOnlyEverAJsonFormat() {
        // FabricScope's own diagnose --json quotes log lines as evidence: not a log
        String report = """
                {
                  "findings" : [ {
                    "evidence" : [ {
                      "text" : "[E1122 04:35:10.918902647 ProcessGroupNCCL.cpp:689] [Rank 0] Watchdog caught collective operation timeout"
                    }, {
                      "text" : "vm:721:721 [1] NCCL INFO ncclCommInitRankConfig comm 0xc5c50a0 rank 1 nranks 2 - Init START"
                    } ]
                  } ]
                }
                """;
        assertEquals(FormatRegistry.UNKNOWN, detect(report));
        assertEquals(FormatRegistry.UNKNOWN, detect("[\"vm:721:721 [1] NCCL INFO Using network IB\"]\n"));
        assertEquals(FormatRegistry.UNKNOWN, detect("[\n  \"GPU0\\tCPU Affinity\",\n  \"switchguid=0x2c90200400000\"\n]\n"));
        assertTrue(Head.of("{\"a\": 1}").jsonDocument());
        assertTrue(Head.of("\uFEFF  [ ]").jsonDocument());
        assertFalse(Head.of("[0] vm:721:721 [1] NCCL INFO Using network IB").jsonDocument());
        assertFalse(Head.of("[rank0]:[E1122 04:35:10.918 ProcessGroupNCCL.cpp:689] [Rank 0] Watchdog").jsonDocument());
        // rank and glog prefixes open with '[' and stay logs
        assertEquals("nccl-log", detect("[0] vm:721:721 [1] NCCL INFO Using network IB\n"));
        assertEquals("nccl-log", detect("[rank0]:[E1122 04:35:10.918 ProcessGroupNCCL.cpp:689] [Rank 0] Watchdog caught\n"));
        // and the kubectl readers still read their JSON
        assertEquals("k8s-objects", detect("{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": []}\n"));
    }

    /** A reader for tests: claims heads whose first line is {@code marker} with the given confidence. */
    record Marker(String id, String marker, int score) implements FormatReader {
        @Override
        public String label() {
            return "marker " + id;
        }

        @Override
        public ImportPhase phase() {
            return ImportPhase.COUNTERS;
        }

        @Override
        public int confidence(Head head) {
            return !head.lines().isEmpty() && head.lines().get(0).equals(marker) ? score : NONE;
        }

        @Override
        public void read(InputStream in, ReadContext ctx) {
        }
    }

    @Test
    void mostConfidentReaderWinsAndTiesGoToTheFirstRegistered() {
        FormatRegistry reg = FormatRegistry.of(List.of(new Marker("a", "X", 40), new Marker("b", "X", 70),
                new Marker("c", "X", 70), new Marker("d", "Y", 10)));
        assertEquals("b", reg.detect(Head.of("X\n")).id());
        assertEquals("d", reg.detect(Head.of("Y\n")).id());
        assertNull(reg.detect(Head.of("Z\n")));
        assertEquals("not a format FabricScope reads (marker a, marker b, marker c, marker d); skipped",
                reg.unknownFormatMessage());
    }

    /** Answers a fixed confidence per head (its first line is the key), up to a declared ceiling. */
    record Scripted(String id, int ceiling, Map<String, Integer> answers) implements FormatReader {
        @Override
        public String label() {
            return "scripted " + id;
        }

        @Override
        public int maxConfidence() {
            return ceiling;
        }

        @Override
        public int confidence(Head head) {
            return answers.getOrDefault(head.lines().get(0), NONE);
        }

        @Override
        public ImportPhase phase() {
            return ImportPhase.COUNTERS;
        }

        @Override
        public void read(InputStream in, ReadContext ctx) {
        }
    }

    @Test
    void skippingReadersThatCannotWinGivesWhatAskingEveryOneGives() {
        java.util.Random rnd = new java.util.Random(4);
        int[] levels = {0, 10, 20, 20, 50, 75, 90, 100};
        for (int trial = 0; trial < 500; trial++) {
            List<Scripted> readers = new ArrayList<>();
            int n = 1 + rnd.nextInt(8);
            for (int i = 0; i < n; i++) {
                int ceiling = levels[rnd.nextInt(levels.length)];
                Map<String, Integer> answers = new java.util.HashMap<>();
                for (int k = 0; k < 4; k++) {
                    answers.put("h" + k, rnd.nextInt(4) == 0 ? ceiling + 5 : levels[rnd.nextInt(levels.length)] % (ceiling + 1));
                }
                readers.add(new Scripted("r" + i, ceiling, answers));
            }
            FormatRegistry reg = FormatRegistry.of(readers);
            for (int k = 0; k < 4; k++) {
                Head h = Head.of("h" + k + "\n");
                FormatReader expected = null;
                int bestScore = 0;
                for (Scripted r : readers) {
                    int c = Math.min(r.confidence(h), Math.max(0, Math.min(100, r.ceiling())));
                    if (c > bestScore) {
                        expected = r;
                        bestScore = c;
                    }
                }
                assertEquals(expected, reg.detect(h), readers + " on h" + k);
            }
        }
    }

    @Test
    void registryRefusesDuplicateIdsAndLabels() {
        assertThrows(IllegalArgumentException.class, () -> FormatRegistry.of(List.of(new Marker("a", "X", 1),
                new Marker("a", "Y", 1))));
        assertThrows(IllegalArgumentException.class, () -> FormatRegistry.of(List.of(new Marker("Not An Id", "X", 1))));
        assertThrows(IllegalArgumentException.class, () -> FormatRegistry.of(List.of(new Marker("unknown", "X", 1))));
        List<FormatReader> withStandard = new ArrayList<>(STANDARD.readers());
        withStandard.add(STANDARD.readers().get(0));
        assertThrows(IllegalArgumentException.class, () -> FormatRegistry.of(withStandard));
    }

    @Test
    void registeringAReaderAddsAFormat() {
        List<FormatReader> readers = new ArrayList<>(STANDARD.readers());
        readers.add(new Marker("sm-info", "# sminfo", 90));
        FormatRegistry reg = FormatRegistry.of(readers);
        ImportResult r = new FabricImporter(reg).importSources(List.of(TestSupport.source("sm.txt", "# sminfo\nsm lid 1\n")),
                new ArrayList<>(), ImportProgress.NONE, Cancellation.NEVER);
        assertEquals("sm-info", r.formats().get("sm.txt"));
        assertTrue(r.readAnything());
        assertTrue(r.model().diagnostics().stream().noneMatch(d -> d.severity() == Severity.WARNING), r.model().diagnostics()
                .toString());
        assertTrue(reg.unknownFormatMessage().contains("marker sm-info"));
    }
}
