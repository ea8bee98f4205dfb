package org.fabricscope.importers;

import org.fabricscope.importers.core.Cancellation;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.host.Gpu;
import org.fabricscope.model.host.HostTopology;
import org.fabricscope.model.host.NetPort;
import org.fabricscope.model.host.PathType;
import org.fabricscope.model.core.Vertex;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Hostile inputs, continued: smaller findings, and inputs that made a reader's work grow without bound. */
class HostileWorkTest extends HostileInputSupport {
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
