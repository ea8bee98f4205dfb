package org.fabricscope.importers;

import org.fabricscope.importers.core.Cancellation;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

import org.fabricscope.importers.bundle.BundleReader;
import org.fabricscope.importers.nccl.NvidiaSmiTopoImporter;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.host.Gpu;
import org.fabricscope.model.host.HostTopology;
import org.fabricscope.model.host.NetPort;
import org.fabricscope.model.host.PathType;
import org.fabricscope.model.core.Vertex;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10, the parser-level findings of the hostile-input report: for each failure class a small
 * generated input, the diagnostic it must give (file and line, no Java class name), and a good
 * file beside it that keeps its counts. Every import goes through {@link FabricImporter} (format
 * detection, readers, model build) unless the finding is inside one reader.
 */
class HostileInputTest {
    /** A Java class name in a message: {@code java.lang.X}, {@code NumberFormatException}, {@code `io.fabric8...`}. */
    private static final Pattern CLASS_NAME = Pattern.compile(
            "\\b(?:java|javax|jdk|sun|com\\.fasterxml|com\\.sun|org\\.yaml|org\\.snakeyaml|io\\.fabric8|org\\.fabricscope)\\.\\w"
                    + "|\\b\\w+(?:Exception|Error)\\b|`[\\w.]+`");

    @TempDir
    Path dir;

    Path write(String name, String text) throws IOException {
        return write(name, text.getBytes(StandardCharsets.UTF_8));
    }

    Path write(String name, byte[] bytes) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.write(p, bytes);
        return p;
    }

    static ImportResult importPaths(Path... paths) {
        return assertDoesNotThrow(() -> new FabricImporter().importPaths(List.of(paths), ImportProgress.NONE,
                Cancellation.NEVER));
    }

    /** The warnings and errors of one file; none may name a Java class. */
    static List<Diagnostic> problems(FabricModel m, Path file) {
        return problems(m, file.toString());
    }

    static List<Diagnostic> problems(FabricModel m, String source) {
        List<Diagnostic> out = m.diagnostics().stream().filter(d -> d.severity().compareTo(Severity.WARNING) <= 0)
                .filter(d -> d.source().startsWith(source)).toList();
        for (Diagnostic d : out) {
            assertFalse(CLASS_NAME.matcher(d.message()).find(), "a Java class name in: " + d);
            assertFalse(d.message().contains("\n"), "one line: " + d);
        }
        return out;
    }

    static Diagnostic only(FabricModel m, Path file) {
        List<Diagnostic> ds = problems(m, file);
        assertEquals(1, ds.size(), TestSupport.dump(m.diagnostics()));
        return ds.get(0);
    }

    static void assertMentions(Diagnostic d, String... parts) {
        for (String p : parts) {
            assertTrue(d.message().contains(p), "\"" + p + "\" in: " + d);
        }
    }

    // ---------------------------------------------------------------- one bad value aborts everything

    static final String GOOD_LOG = """
            node-a:701:701 [0] NCCL INFO NCCL version 2.21.5+cuda12.4
            node-a:701:701 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x5 - Init COMPLETE
            node-b:702:702 [0] NCCL INFO ncclCommInitRank comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x5 - Init COMPLETE
            """;

    @Nested
    class NumbersPast32Bits {
        @Test
        void ncclRankChannelPeerAndPid() throws IOException {
            String bad = """
                    node-c:703:703 [0] NCCL INFO NCCL version 2.21.5+cuda12.4
                    node-c:703:703 [0] NCCL INFO ncclCommInitRank comm 0x3 rank 99999999999 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x6 - Init COMPLETE
                    node-c:703:703 [0] NCCL INFO Channel 00/0 : 0[1b000] -> 4294967296[2c000] via P2P/IPC
                    node-c:99999999999:703 [0] NCCL INFO Ring 00 : 1 -> 0 -> 1
                    node-c:703:703 [0] NCCL INFO Ring 01 : 12345678901 -> 0 -> 1
                    node-c:703:703 [0] NCCL INFO ncclCommInitRank comm 0x4 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x7 - Init COMPLETE
                    """;
            Path badLog = write("c.log", bad);
            Path goodLog = write("ab.log", GOOD_LOG);
            FabricModel m = importPaths(badLog, goodLog).model();
            List<Diagnostic> ds = problems(m, badLog);
            assertEquals(List.of(2, 3, 4, 5), ds.stream().map(Diagnostic::line).toList(), TestSupport.dump(ds));
            assertMentions(ds.get(0), "rank 99999999999 is out of range", "line skipped");
            assertMentions(ds.get(1), "peer rank 4294967296 is out of range");
            assertMentions(ds.get(2), "pid 99999999999 is out of range");
            assertMentions(ds.get(3), "rank 12345678901 is out of range");
            assertEquals(3, m.trainingLog().ranks().size(), "the good file's two ranks and the bad file's good line");
            assertTrue(problems(m, goodLog).isEmpty());
        }

        @Test
        void torchrunPidsExitCodesAndSequenceNumbers() throws IOException {
            String bad = """
                    [rank0]:[E1206 10:00:00.000000000 ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=99999999999999999999, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600005 milliseconds before timing out.
                    ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -6) local_rank: 0 (pid: 99999999999) of binary: /usr/bin/python
                    ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 99999999999) local_rank: 1 (pid: 7005) of binary: /usr/bin/python
                    ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: 2 (pid: 7006) of binary: /usr/bin/python
                    """;
            Path p = write("torchrun.log", bad);
            Path good = write("ab.log", GOOD_LOG);
            FabricModel m = importPaths(p, good).model();
            List<Diagnostic> ds = problems(m, p);
            assertEquals(List.of(1, 2, 3), ds.stream().map(Diagnostic::line).toList(), TestSupport.dump(ds));
            assertMentions(ds.get(0), "sequence number 99999999999999999999 is out of range");
            assertMentions(ds.get(1), "pid 99999999999");
            assertMentions(ds.get(2), "exit code 99999999999");
            assertEquals(1, m.trainingLog().events().stream().filter(e -> e.fields().containsKey("exitcode")).count(),
                    "the good failure line is kept");
            assertEquals(2, m.trainingLog().ranks().size());
        }

        @Test
        void describePodNameIndexReplicaIndexAndEventCount() throws IOException {
            String pod = """
                    Name:             bert-worker-99999999999
                    Namespace:        team-a
                    Node:             gpu-07/10.1.0.7
                    Labels:           training.kubeflow.org/job-name=bert
                    Status:           Running
                    Containers:
                      pytorch:
                        Image:      img
                    Events:
                      Type     Reason   Age                  From     Message
                      ----     ------   ----                 ----     -------
                      Warning  BackOff  2m (x99999999999 over 5m)  kubelet  Back-off restarting
                      Normal   Pulled   1m                   kubelet  pulled
                    Name:             bert-worker-2
                    Namespace:        team-a
                    Node:             gpu-08/10.1.0.8
                    Labels:           training.kubeflow.org/job-name=bert
                                      training.kubeflow.org/replica-index=4294967296
                    Status:           Running
                    Containers:
                      pytorch:
                        Image:      img
                    """;
            Path p = write("describe.txt", pod);
            FabricModel m = importPaths(p).model();
            List<Diagnostic> ds = problems(m, p);
            assertEquals(List.of(1, 12, 14), ds.stream().map(Diagnostic::line).sorted().toList(), TestSupport.dump(ds));
            assertTrue(ds.stream().anyMatch(d -> d.message().contains("replica index 99999999999 at the end of pod name")));
            assertTrue(ds.stream().anyMatch(d -> d.message().contains("event count 99999999999 is out of range")));
            assertTrue(ds.stream().anyMatch(d -> d.message().contains("replica-index=4294967296")));
            assertEquals(2, m.pods().size(), "both pods are kept, without the index they cannot have");
            for (var k : m.pods()) {
                assertEquals("bert", k.job().jobName(), k.name());
                // the first has none; the second's label is ignored and its name gives 2
                assertEquals(k.name().endsWith("-2") ? Integer.valueOf(2) : null, k.job().replicaIndex(), k.name());
            }
            assertEquals(1, m.k8s().events().size(), "the good event is kept");
        }

        @Test
        void describePodEventsHeaderLackingAColumn() throws IOException {
            String pod = """
                    Name:             web-1
                    Namespace:        team-a
                    Status:           Pending
                    Containers:
                      web:
                        Image:      img
                    Events:
                      Type     Reason            From               Message
                      ----     ------            ----               -------
                      Warning  FailedScheduling  default-scheduler  0/4 nodes are available: 4 Insufficient nvidia.com/gpu.
                    """;
            Path p = write("describe.txt", pod);
            FabricModel m = importPaths(p).model();
            Diagnostic d = only(m, p);
            assertEquals(8, d.line());
            assertMentions(d, "lacks the Age column");
            assertEquals(1, m.pods().size());
            assertEquals(1, m.k8s().events().size(), "the row is read at the header's other columns");
            assertEquals("FailedScheduling", m.k8s().events().get(0).reason());
            assertNotNull(m.k8s().events().get(0).scheduling());
        }

        @Test
        void nvidiaSmiNvLinkCountPast32Bits() throws IOException {
            String smi = """
                    \tGPU0\tGPU1\tNIC0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID
                    GPU0\t X \tNV99999999999\tPXB\t0-63\t0\t\tN/A
                    GPU1\tNV99999999999\t X \tSYS\t64-127\t1\t\tN/A
                    NIC0\tPXB\tSYS\t X\s

                    NIC Legend:

                      NIC0: mlx5_0
                    """;
            Path p = write("dgx-a/nvidia-smi-topo.txt", smi);
            FabricModel m = importPaths(p).model();
            List<Diagnostic> ds = problems(m, p);
            assertEquals(List.of(2, 3), ds.stream().map(Diagnostic::line).toList(), TestSupport.dump(ds));
            assertMentions(ds.get(0), "NVLink count 99999999999 is out of range", "row skipped");
            HostTopology t = m.hostTopology("dgx-a");
            assertEquals("PXB", t.affinity().cell("NIC0", "GPU0").label(), "the good row is kept");
        }
    }

    // ---------------------------------------------------------------- silently wrong data

    @Nested
    class SilentlyWrongData {
        static final String PERF_GOOD = """
                # Port counters: Lid 10 port 1 (CapMask: 0x1400)
                PortSelect:......................1
                CounterSelect:...................0x1000
                SymbolErrorCounter:..............1873
                LinkErrorRecoveryCounter:........0
                """;

        @Test
        void lidPast16BitsAndPortPast8BitsAreReportedNotMoved() throws IOException {
            String perf = """
                    # Port counters: Lid 65546 port 1 (CapMask: 0x1400)
                    SymbolErrorCounter:..............500
                    # Port counters: Lid 10 port 257 (CapMask: 0x1400)
                    SymbolErrorCounter:..............600
                    """ + PERF_GOOD;
            Path topo = write("topo.txt", MalformedInputTest.TOPO);
            Path p = write("perfquery.txt", perf);
            FabricModel m = importPaths(topo, p).model();
            List<Diagnostic> ds = problems(m, p);
            assertEquals(List.of(1, 3), ds.stream().map(Diagnostic::line).toList(), TestSupport.dump(ds));
            assertMentions(ds.get(0), "LID 65546 is out of range (0..65535)", "skipped");
            assertMentions(ds.get(1), "port 257 is out of range (0..255)", "skipped");
            FabricNode ca = m.node(0x0002c90300001000L);
            assertEquals(1873, ca.port(1).counter("SymbolErrorCounter"), "the 1,873 symbol errors stay on their port");
            assertTrue(m.nodes().stream().flatMap(n -> n.ports().stream()).noneMatch(x -> x.counter("SymbolErrorCounter") == 500
                    || x.counter("SymbolErrorCounter") == 600), "no counter of a refused header landed on a port");
            assertEquals(List.of(), problems(m, topo));
        }

        @Test
        void negativeCounterIsReportedAndTheOthersKept() throws IOException {
            String qerr = """
                    Errors for 0x0002c90200400000 "leaf-1"
                       GUID 0x0002c90200400000 port 1: [SymbolErrorCounter == 1873] [LinkDownedCounter == -1]
                    """;
            Path topo = write("topo.txt", MalformedInputTest.TOPO);
            Path p = write("ibqueryerrors.txt", qerr);
            FabricModel m = importPaths(topo, p).model();
            Diagnostic d = only(m, p);
            assertEquals(2, d.line());
            assertMentions(d, "LinkDownedCounter -1 is out of range", "that counter is skipped");
            assertEquals(1873, m.node(0x0002c90200400000L).port(1).counter("SymbolErrorCounter"));
        }

        @Test
        void countersPast63BitsStayOverTheirThreshold() throws IOException {
            Path topo = write("topo.txt", MalformedInputTest.TOPO);
            Path p = write("perfquery.txt", PERF_GOOD.replace("1873", "18446744073709551615"));
            FabricModel m = importPaths(topo, p).model();
            long v = m.node(0x0002c90300001000L).port(1).counter("SymbolErrorCounter");
            assertEquals("18446744073709551615", Long.toUnsignedString(v));
            assertEquals(Severity.ERROR, org.fabricscope.model.diagnosis.ErrorThresholds.defaults()
                    .judge("SymbolErrorCounter", v), "unsigned: past every threshold");
            assertEquals(List.of(), problems(m, p));
        }

        @Test
        void guidsPast64BitsDoNotMergeTwoAdapters() throws IOException {
            String linkinfo = """
                    CA: node-09 mlx5_0:
                          0x10002c90300009001     12    1[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>       2    3[  ] "leaf-1" ( )
                    CA: node-10 mlx5_0:
                          0x10002c9030000a001     13    1[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>       2    4[  ] "leaf-1" ( )
                    CA: node-11 mlx5_0:
                          0x0002c9030000b001      14    1[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>       2    5[  ] "leaf-1" ( )
                    """;
            Path p = write("iblinkinfo.txt", linkinfo);
            FabricModel m = importPaths(p).model();
            List<Diagnostic> ds = problems(m, p);
            assertEquals(List.of(2, 4), ds.stream().map(Diagnostic::line).toList(), TestSupport.dump(ds));
            assertMentions(ds.get(0), "port GUID 10002c90300009001 is out of range", "64 bits");
            assertNull(m.node(-1L), "no node under the error value");
            assertNotNull(m.node(0x0002c9030000b001L), "the good adapter is read");
        }

        @Test
        void nvlinkCountsDoNotOverflowToNegativeTotals() throws IOException {
            StringBuilder xml = new StringBuilder("<system version=\"1\">\n<cpu numaid=\"0\">\n");
            for (int g = 0; g < 2; g++) {
                xml.append("<pci busid=\"0000:0").append(g + 1).append(":00.0\" class=\"0x030200\"><gpu dev=\"").append(g)
                        .append("\" sm=\"90\" rank=\"").append(g).append("\" gdr=\"1\">\n")
                        .append("<nvlink target=\"fffffff:ff:ff.0\" count=\"2000000000\" tclass=\"0x068000\"/>\n")
                        .append("<nvlink target=\"fffffff:ff:ff.0\" count=\"18\" tclass=\"0x068000\"/>\n")
                        .append("</gpu></pci>\n");
            }
            xml.append("</cpu>\n</system>\n");
            Path p = write("dgx-b.xml", xml.toString());
            FabricModel m = importPaths(p).model();
            List<Diagnostic> ds = problems(m, p);
            assertEquals(2, ds.size(), TestSupport.dump(ds));
            assertMentions(ds.get(0), "count=\"2000000000\"", "out of range", "skipped");
            HostTopology t = m.hostTopology("dgx-b");
            assertEquals(36, t.nvlinkCount());
            assertEquals("NV18", t.affinity().cell("GPU0", "GPU1").label());
        }

        @Test
        void oneGuidTwoNamesIsAWarningNamingBoth() throws IOException {
            String dup = MalformedInputTest.TOPO + """

                    vendid=0x2c9
                    devid=0xd2f0
                    switchguid=0x2c90200400000(2c90200400000)
                    Switch\t41 "S-0002c90200400000"\t\t# "leaf-X" enhanced port 0 lid 2 lmc 0
                    """;
            Path p = write("topo.txt", dup);
            FabricModel m = importPaths(p).model();
            Diagnostic d = only(m, p);
            assertEquals(18, d.line());
            assertMentions(d, "0x0002c90200400000", "\"leaf-X\"", "\"leaf-1\" at " + p + ":9", "keeping \"leaf-1\"");
            assertEquals("leaf-1", m.node(0x0002c90200400000L).description());
            assertEquals(4, m.cables().size());
        }

        @Test
        void oneGuidTwoNamesAcrossFilesIsNotSilent() throws IOException {
            Path a = write("a/topo.txt", MalformedInputTest.TOPO);
            Path b = write("b/topo.txt", MalformedInputTest.TOPO.replace("# \"leaf-1\" enhanced", "# \"leaf-X\" enhanced"));
            FabricModel m = importPaths(a, b).model();
            assertEquals(List.of(), problems(m, b), "a note, not a warning");
            Diagnostic note = m.diagnostics().stream().filter(d -> d.source().equals(b.toString())).findFirst()
                    .orElseThrow(() -> new AssertionError(TestSupport.dump(m.diagnostics())));
            assertEquals(Severity.INFO, note.severity());
            assertEquals(9, note.line());
            assertMentions(note, "0x0002c90200400000", "\"leaf-X\" here", "\"leaf-1\" at " + a + ":9", "taking \"leaf-X\"");
            assertEquals("leaf-X", m.node(0x0002c90200400000L).description());
        }

        @Test
        void ncclLogWithCarriageReturnLineEnds() throws IOException {
            Path p = write("cr.log", GOOD_LOG.replace("\n", "\r"));
            Path crlf = write("crlf.log", GOOD_LOG.replace("node-", "host-").replace("\n", "\r\n"));
            ImportResult r = importPaths(p, crlf);
            assertEquals("nccl-log", r.formats().get(p.toString()));
            assertEquals(4, r.model().trainingLog().ranks().size(), "two ranks from each file");
            assertEquals(List.of(), problems(r.model(), p));
        }

        @Test
        void nvidiaSmiWithCrlfAndCrLineEnds() {
            String smi = "\uFEFF\tGPU0\tGPU1\tNIC0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n"
                    + "GPU0\t X \tNV12\tPXB\t0-63\t0\t\tN/A\n"
                    + "GPU1\tNV12\t X \tSYS\t64-127\t1\t\tN/A\n"
                    + "NIC0\tPXB\tSYS\t X \n\nNIC Legend:\n\n  NIC0: mlx5_0\n";
            for (String eol : new String[] {"\r\n", "\r"}) {
                FabricModelBuilder b = new FabricModelBuilder();
                TestSupport.readInto(b, new NvidiaSmiTopoImporter(), "dgx-c/nvidia-smi.txt", smi.replace("\n", eol));
                FabricModel m = b.build();
                assertEquals(List.of(), problems(m, "dgx-c"), TestSupport.dump(m.diagnostics()));
                HostTopology t = m.hostTopology("dgx-c");
                assertEquals("NV12", t.affinity().cell("GPU0", "GPU1").label(), eol.length() + "-byte line ends");
                assertEquals("mlx5_0", t.nets().get(0).name());
            }
        }
    }

    // ---------------------------------------------------------------- smaller

    @Nested
    class Smaller {
        @Test
        void xmlParserPrintsNothingOnStderr() throws IOException {
            byte[] xml = ("<system version=\"1\">\n<cpu numaid=\"0\" arch=\"x86\u00e9\">\n</cpu>\n</system>\n")
                    .getBytes(StandardCharsets.ISO_8859_1); // a lone 0xE9: not UTF-8
            Path p = write("bad.xml", xml);
            PrintStream saved = System.err;
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            FabricModel m;
            try {
                System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
                m = importPaths(p).model();
            } finally {
                System.setErr(saved);
            }
            assertEquals("", err.toString(StandardCharsets.UTF_8), "no [Fatal Error] line");
            Diagnostic d = only(m, p);
            assertEquals(2, d.line());
            assertMentions(d, "not valid UTF-8");
        }

        @Test
        void yamlErrorsNameTheProblemsLineAndTheObjectsKept() throws IOException {
            String yaml = """
                    apiVersion: v1
                    kind: List
                    items:
                    - apiVersion: v1
                      kind: Pod
                      metadata:
                        name: a
                    - apiVersion: v1
                      kind: Pod
                      metadata:
                        name: b
                    - apiVersion: v1
                      kind: Pod
                      metadata:
                    \tname: c
                    """;
            Path p = write("pods.yaml", yaml);
            FabricModel m = importPaths(p).model();
            Diagnostic d = only(m, p);
            assertEquals(15, d.line(), d.toString());
            assertMentions(d, "malformed YAML", "TAB", "kept the 2 object(s) read before");
            assertEquals(2, m.pods().size());
        }

        @Test
        void yamlLimitsInWords() throws IOException {
            Path deep = write("deep.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec: " + "[".repeat(100)
                    + "]".repeat(100) + "\n");
            Path bad = write("ctl.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\u0007x\n");
            FabricModel m = importPaths(deep, bad).model();
            Diagnostic d = only(m, deep);
            assertEquals(5, d.line());
            assertMentions(d, "nested deeper than 64 levels");
            Diagnostic c = only(m, bad);
            assertEquals(4, c.line());
            assertMentions(c, "U+0007");
        }

        @Test
        void byteOrderMarkKeepsTheFirstRecord() throws IOException {
            Path topo = write("topo.txt", "\uFEFF" + MalformedInputTest.TOPO.replaceFirst("(?s)^#.*?\n\n", ""));
            Path json = write("pod.json", "\uFEFF{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"j\"}}");
            Path xml = write("dgx-d.xml", "\uFEFF<system version=\"1\"><cpu numaid=\"0\"><pci busid=\"0000:01:00.0\" "
                    + "class=\"0x030200\"><gpu dev=\"0\" sm=\"90\" rank=\"0\" gdr=\"1\"/></pci></cpu></system>\n");
            Path log = write("bom.log", "\uFEFF" + GOOD_LOG);
            FabricModel m = importPaths(topo, json, xml, log).model();
            assertEquals(List.of(), problems(m, dir.toString()), TestSupport.dump(m.diagnostics()));
            assertEquals(4, m.cables().size(), "vendid= on the first line is read");
            assertEquals(1, m.pods().size());
            assertEquals(1, m.hostTopology("dgx-d").gpus().size());
            assertEquals(2, m.trainingLog().ranks().size());

            // YAML: the reader skips the BOM (format detection has to let "\uFEFFapiVersion:" through first)
            FabricModelBuilder b = new FabricModelBuilder();
            assertDoesNotThrow(() -> new org.fabricscope.importers.k8s.KubeObjectImporter().read(
                    new java.io.ByteArrayInputStream("\uFEFFapiVersion: v1\nkind: Pod\nmetadata:\n  name: y\n"
                            .getBytes(StandardCharsets.UTF_8)), "pod.yaml", b, Cancellation.NEVER));
            FabricModel y = b.build();
            assertEquals(List.of(), y.diagnostics());
            assertEquals("y", y.pods().get(0).name());
        }

        @Test
        void oneNulByteMakesOnlyItsLineUnreadable() throws IOException {
            // past the 64 KiB format detection reads
            String padding = ("node-a:701:701 [0] NCCL INFO Using network IB" + " ".repeat(40) + "\n").repeat(800);
            String log = GOOD_LOG.substring(0, GOOD_LOG.indexOf("node-a:701:701 [0] NCCL INFO ncclCommInitRank")) + padding
                    + "node-z:9:9 [0] NCCL INFO ncclCommInitRank comm 0x9 rank 0 nranks 2 cudaDev 0 busId 1\0\0 - Init COMPLETE\n"
                    + GOOD_LOG.substring(GOOD_LOG.indexOf("node-a:701:701 [0] NCCL INFO ncclCommInitRank"));
            Path p = write("nul.log", log);
            FabricModel m = importPaths(p).model();
            Diagnostic d = only(m, p);
            assertEquals(802, d.line());
            assertMentions(d, "binary data (NUL bytes)");
            assertEquals(2, m.trainingLog().ranks().size(), "the lines after it are read");
        }
    }

    // ---------------------------------------------------------------- real bundles rejected

    @Nested
    class Bundles {
        static final String LONG_DIR = "capture-2026-11-23/rail-2su-hdr/host-group-07/very-long-folder-name-for-gnu-tar-long-names/";

        /** The fixtures were made with GNU tar 1.34: --format=gnu, --format=pax, --format=gnu -S (see the README beside them). */
        Path fixture(String name) throws IOException {
            try (var in = HostileInputTest.class.getResourceAsStream("/bundles/" + name)) {
                assertNotNull(in, name);
                return write(name, in.readAllBytes());
            }
        }

        @Test
        void gnuLongNamesAndPaxHeadersAreRead() throws IOException {
            for (String name : new String[] {"gnu-long-name.tar.gz", "pax-long-name.tar.gz"}) {
                Path p = fixture(name);
                ImportResult r = importPaths(p);
                assertEquals(List.of(), problems(r.model(), p.toString()), TestSupport.dump(r.model().diagnostics()));
                String entry = p + "!/" + LONG_DIR + "ibnetdiscover.txt";
                assertTrue(entry.length() - p.toString().length() > 100);
                assertEquals("ibnetdiscover", r.formats().get(entry), r.formats().toString());
                assertEquals(4, r.model().cables().size());
            }
        }

        @Test
        void sparseEntriesAreRefusedAndTheRestRead() throws IOException {
            Path p = fixture("gnu-sparse.tar.gz");
            ImportResult r = importPaths(p);
            Diagnostic d = only(r.model(), p);
            assertEquals(p + "!/sparse.bin", d.source());
            assertMentions(d, "sparse file");
            assertEquals(4, r.model().cables().size(), "the topology after it is read");
        }

        @Test
        void realGnuTarWhenInstalled() throws Exception {
            Path src = dir.resolve("src");
            write("src/" + LONG_DIR + "ibnetdiscover.txt", MalformedInputTest.TOPO);
            for (String format : new String[] {"gnu", "pax", "ustar"}) {
                Path out = dir.resolve(format + ".tar.gz");
                Process tar;
                try {
                    tar = new ProcessBuilder("tar", "--format=" + format, "-czf", out.toString(), "-C", src.toString(), ".")
                            .redirectErrorStream(true).start();
                } catch (IOException e) {
                    org.junit.jupiter.api.Assumptions.assumeTrue(false, "no tar on this machine");
                    return;
                }
                String said = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (tar.waitFor() != 0) {
                    assertEquals("ustar", format, "tar --format=" + format + " failed: " + said);
                    assertTrue(said.contains("too long") || said.contains("name"), said); // ustar cannot hold the name
                    continue;
                }
                ImportResult r = importPaths(out);
                assertEquals(List.of(), problems(r.model(), out.toString()), format);
                assertEquals(4, r.model().cables().size(), format);
            }
        }

        @Test
        @org.junit.jupiter.api.Timeout(30)
        void aNamedPipeIsRefusedNotWaitedOn() throws Exception {
            Path fifo = dir.resolve("counters.fifo");
            Process mk;
            try {
                mk = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
            } catch (IOException e) {
                org.junit.jupiter.api.Assumptions.assumeTrue(false, "no mkfifo on this machine");
                return;
            }
            assertEquals(0, mk.waitFor());
            Path good = write("topo.txt", MalformedInputTest.TOPO);
            ImportResult r = importPaths(fifo, good);
            Diagnostic d = only(r.model(), fifo);
            assertEquals(Severity.ERROR, d.severity());
            assertMentions(d, "named pipe", "not read");
            assertEquals(4, r.model().cables().size(), "the file beside it is read");
        }

        @Test
        void anEntryThatExpandsTooMuchIsSkippedByItself() throws IOException {
            ByteArrayOutputStream bos = new ByteArrayOutputStream();
            try (GZIPOutputStream gz = new GZIPOutputStream(bos, 1 << 16)) {
                byte[] noise = new byte[2 << 20];
                new Random(3).nextBytes(noise);
                tarEntry(gz, "a-noise.bin", noise); // incompressible: the whole archive's ratio stays low
                tarEntry(gz, "b-zeros.txt", new byte[24 << 20]);
                tarEntry(gz, "c-topo.txt", MalformedInputTest.TOPO.getBytes(StandardCharsets.UTF_8));
                gz.write(new byte[1024]);
            }
            Path p = write("bomb.tar.gz", bos.toByteArray());
            ImportResult r = importPaths(p);
            List<Diagnostic> errors = problems(r.model(), p + "!/b-zeros.txt");
            assertEquals(1, errors.size(), TestSupport.dump(r.model().diagnostics()));
            assertMentions(errors.get(0), "expands more than " + BundleReader.MAX_RATIO + " times", "per-entry limit",
                    "archive bomb");
            assertEquals(4, r.model().cables().size(), "the entry after the bomb is read");
        }

        static byte[] xz(byte[] data) throws IOException {
            ByteArrayOutputStream bos = new ByteArrayOutputStream();
            try (org.tukaani.xz.XZOutputStream xz = new org.tukaani.xz.XZOutputStream(bos, new org.tukaani.xz.LZMA2Options(1))) {
                xz.write(data);
            }
            return bos.toByteArray();
        }

        static byte[] tar(Object... nameAndData) throws IOException {
            ByteArrayOutputStream bos = new ByteArrayOutputStream();
            for (int i = 0; i < nameAndData.length; i += 2) {
                tarEntry(bos, (String) nameAndData[i], (byte[]) nameAndData[i + 1]);
            }
            bos.write(new byte[1024]);
            return bos.toByteArray();
        }

        @Test
        void tarXzAndXzAreRead() throws IOException {
            byte[] topo = MalformedInputTest.TOPO.getBytes(StandardCharsets.UTF_8);
            Path txz = write("bundle.tar.xz", xz(tar("capture/ibnetdiscover.txt", topo)));
            ImportResult r = importPaths(txz);
            assertEquals(List.of(), problems(r.model(), txz.toString()), TestSupport.dump(r.model().diagnostics()));
            assertEquals("ibnetdiscover", r.formats().get(txz + "!/capture/ibnetdiscover.txt"), r.formats().toString());
            assertEquals(4, r.model().cables().size());

            Path one = write("ibnetdiscover.txt.xz", xz(topo));
            ImportResult single = importPaths(one);
            assertEquals("ibnetdiscover", single.formats().get(dir.resolve("ibnetdiscover.txt").toString()),
                    single.formats().toString());
            assertEquals(4, single.model().cables().size());
        }

        @Test
        void anXzEntryThatExpandsTooMuchIsSkippedByItself() throws IOException {
            byte[] noise = new byte[2 << 20];
            new Random(5).nextBytes(noise);
            Path p = write("bomb.tar.xz", xz(tar("a-noise.bin", noise, "b-zeros.txt", new byte[24 << 20],
                    "c-topo.txt", MalformedInputTest.TOPO.getBytes(StandardCharsets.UTF_8))));
            ImportResult r = importPaths(p);
            List<Diagnostic> errors = problems(r.model(), p + "!/b-zeros.txt");
            assertEquals(1, errors.size(), TestSupport.dump(r.model().diagnostics()));
            assertMentions(errors.get(0), "expands more than " + BundleReader.MAX_RATIO + " times", "archive bomb");
            assertEquals(4, r.model().cables().size(), "the entry after the bomb is read");
        }

        @Test
        void anXzStreamAskingForAHugeDictionaryIsRefusedNotAllocated() throws IOException {
            byte[] b = xz(tar("topo.txt", MalformedInputTest.TOPO.getBytes(StandardCharsets.UTF_8)));
            // The block header follows the 12-byte stream header: size, flags, LZMA2 filter id 0x21, one
            // property byte (the dictionary size), padding, CRC32. Ask for a 1 GiB dictionary (code 36).
            int start = 12;
            int size = ((b[start] & 0xff) + 1) * 4;
            assertEquals(0x21, b[start + 2], "LZMA2 filter");
            b[start + 4] = 36;
            java.util.zip.CRC32 crc = new java.util.zip.CRC32();
            crc.update(b, start, size - 4);
            long c = crc.getValue();
            for (int i = 0; i < 4; i++) {
                b[start + size - 4 + i] = (byte) (c >>> (8 * i));
            }
            Path p = write("huge-dict.tar.xz", b);
            Path good = write("good/topo.txt", MalformedInputTest.TOPO);
            ImportResult r = importPaths(p, good);
            Diagnostic d = only(r.model(), p);
            assertMentions(d, "xz archive needs 1024 MiB", "more than the 128 MiB allowed");
            assertEquals(4, r.model().cables().size(), "the file beside it is read");
        }

        @Test
        void aDamagedXzIsOneDiagnostic() throws IOException {
            byte[] b = xz(tar("topo.txt", MalformedInputTest.TOPO.getBytes(StandardCharsets.UTF_8)));
            for (int i = 40; i < b.length - 40; i += 7) {
                b[i] ^= 0x5a;
            }
            Path p = write("damaged.tar.xz", b);
            Path good = write("good/topo.txt", MalformedInputTest.TOPO);
            ImportResult r = importPaths(p, good);
            assertTrue(problems(r.model(), p).stream().anyMatch(d -> d.message().contains("damaged")),
                    TestSupport.dump(r.model().diagnostics()));
            assertEquals(4, r.model().cables().size(), "the file beside it is read");
        }

        /** One ustar entry: header, data, padding. */
        static void tarEntry(OutputStream out, String name, byte[] data) throws IOException {
            byte[] h = new byte[512];
            put(h, 0, name);
            put(h, 100, "0000644");
            put(h, 108, "0000000");
            put(h, 116, "0000000");
            put(h, 124, String.format("%011o", data.length));
            put(h, 136, "00000000000");
            h[156] = '0';
            put(h, 257, "ustar");
            h[262] = 0;
            put(h, 263, "00");
            for (int i = 148; i < 156; i++) {
                h[i] = ' ';
            }
            long sum = 0;
            for (byte b : h) {
                sum += b & 0xff;
            }
            put(h, 148, String.format("%06o", sum));
            h[154] = 0;
            out.write(h);
            out.write(data);
            out.write(new byte[(512 - data.length % 512) % 512]);
        }

        static void put(byte[] h, int off, String s) {
            byte[] b = s.getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(b, 0, h, off, b.length);
        }
    }

    // ---------------------------------------------------------------- unbounded work

    @Nested
    class UnboundedWork {
        /**
         * The nearest NIC of every GPU, found in one pass over the PCIe tree, equals a scan of the whole
         * GPU x NIC row (lowest path type, then lowest column) on random trees of every shape.
         */
        @Test
        void nearestNicEqualsTheFullScan() {
            Random rnd = new Random(10);
            for (int round = 0; round < 40; round++) {
                String xml = randomTopology(rnd);
                FabricModelBuilder b = new FabricModelBuilder();
                new org.fabricscope.importers.nccl.NcclXmlImporter().read(
                        new java.io.ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), "r" + round + ".xml", b,
                        Cancellation.NEVER);
                FabricModel m = b.build();
                HostTopology t = m.hostTopology("r" + round);
                for (var matrix : List.of(t.affinity(), t.pcieAffinity())) {
                    for (Gpu g : t.gpus()) {
                        NetPort bestNet = null;
                        PathType bestNetType = null;
                        PathType bestAny = null;
                        for (Vertex v : matrix.nicColumns()) {
                            PathType pt = matrix.cell(g, v).type();
                            if (v instanceof NetPort n && (bestNetType == null || pt.compareTo(bestNetType) < 0)) {
                                bestNet = n;
                                bestNetType = pt;
                            }
                            if (bestAny == null || pt.compareTo(bestAny) < 0) {
                                bestAny = pt;
                            }
                        }
                        assertEquals(bestNet, matrix.nearestNet(g), xml);
                        assertEquals(bestAny, matrix.nearestNicType(g), xml);
                    }
                }
            }
        }

        /** Two CPUs, nested PCIe switches, GPUs, NICs with and without nets, CPU-attached NICs, root buses shared or not. */
        private String randomTopology(Random rnd) {
            StringBuilder sb = new StringBuilder("<system version=\"1\">\n");
            int[] bus = {1};
            int[] gpu = {0};
            int[] net = {0};
            for (int cpu = 0; cpu < 1 + rnd.nextInt(2); cpu++) {
                sb.append("<cpu numaid=\"").append(cpu).append("\">\n");
                int tops = 1 + rnd.nextInt(3);
                for (int i = 0; i < tops; i++) {
                    node(sb, rnd, 0, bus, gpu, net, rnd.nextBoolean());
                }
                if (rnd.nextInt(3) == 0) {
                    sb.append("<nic><net name=\"eth").append(net[0]).append("\" dev=\"").append(net[0]++)
                            .append("\"/></nic>\n");
                }
                sb.append("</cpu>\n");
            }
            return sb.append("</system>\n").toString();
        }

        private void node(StringBuilder sb, Random rnd, int depth, int[] bus, int[] gpu, int[] net, boolean sameRootBus) {
            int kind = depth >= 3 ? 1 + rnd.nextInt(2) : rnd.nextInt(3);
            String id = String.format("0000:%02x:%02x.0", sameRootBus && depth == 0 ? 0 : bus[0], bus[0] & 0x1f);
            bus[0]++;
            if (kind == 0) {
                sb.append("<pci busid=\"").append(id).append("\" class=\"0x060400\">\n");
                for (int c = 0; c < 1 + rnd.nextInt(3); c++) {
                    node(sb, rnd, depth + 1, bus, gpu, net, false);
                }
                sb.append("</pci>\n");
            } else if (kind == 1) {
                sb.append("<pci busid=\"").append(id).append("\" class=\"0x030200\"><gpu dev=\"").append(gpu[0])
                        .append("\" sm=\"90\" rank=\"").append(gpu[0]++).append("\" gdr=\"1\"/></pci>\n");
            } else {
                sb.append("<pci busid=\"").append(id).append("\" class=\"0x020000\">");
                int nets = rnd.nextInt(3);
                if (nets > 0) {
                    sb.append("<nic>");
                    for (int n = 0; n < nets; n++) {
                        sb.append("<net name=\"mlx5_").append(net[0]).append("\" dev=\"").append(net[0]++).append("\"/>");
                    }
                    sb.append("</nic>");
                }
                sb.append("</pci>\n");
            }
        }

        @Test
        void aLongYamlScalarIsRead() throws IOException {
            // 2 MiB on one line (the quadratic reader took about 2 s here; the bench measures 8 MiB)
            Path p = write("big.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: big\n  annotations:\n    a: "
                    + "x".repeat(2 << 20) + "\n");
            FabricModel m = importPaths(p).model();
            assertEquals(List.of(), problems(m, p));
            assertEquals(1, m.pods().size());
        }
    }
}
