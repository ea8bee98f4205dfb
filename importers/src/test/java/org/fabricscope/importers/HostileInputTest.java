package org.fabricscope.importers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.fabricscope.importers.nccl.NvidiaSmiTopoImporter;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.host.HostTopology;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Issue 10, the parser-level findings of the hostile-input report: for each failure class a small
 * generated input, the diagnostic it must give (file and line, no Java class name), and a good
 * file beside it that keeps its counts. Every import goes through {@link FabricImporter} (format
 * detection, readers, model build) unless the finding is inside one reader.
 */
class HostileInputTest extends HostileInputSupport {
    // ---------------------------------------------------------------- one bad value aborts everything


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
}
