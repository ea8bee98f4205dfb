package org.fabricscope.importers.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.stream.Stream;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.TextLines;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.training.ChannelLink;
import org.fabricscope.model.training.TrainingLog;
import org.fabricscope.model.training.TrainingLogBuilder;
import org.fabricscope.model.training.TreeNode;
import org.junit.jupiter.api.Test;

/**
 * The hand-written channel readers ({@link NcclChannelScan}) against the regular expressions they stand in
 * for: every log in the repository (sample-fabrics' captures, the reference NCCL 2.28.9 logs and the
 * per-version logs of the test resources) read both ways gives the same records and diagnostics, and so
 * does every channel, ring and tree line in them on its own, and each of those mangled (cut short, spaced
 * otherwise, numbers past a C int, controls and non-ASCII, characters replaced), where the scanner must
 * give the expression's answer or leave the line to it.
 */
class NcclChannelScanTest {
    /** Where the repository's logs are, from the importers module. */
    private static final List<Path> ROOTS = List.of(Path.of("..", "sample-fabrics"), Path.of("src", "test", "resources"));

    /** What a parser read: every list of the training log, and the diagnostics. */
    private static List<Object> records(TrainingLogBuilder b, List<Diagnostic> d) {
        TrainingLog t = b.build();
        return List.of(t.channels(), t.rings(), t.ringNeighbors(), t.trees(), t.ranks(), t.events(), t.gdrSupport(),
                t.processes(), t.ringsConnected(), t.treesConnected(), t.stepTimes(), d);
    }

    private static List<Object> readLines(boolean fast, List<String> lines) {
        TrainingLogBuilder b = new TrainingLogBuilder();
        List<Diagnostic> d = new ArrayList<>();
        NcclLogParser p = new NcclLogParser(b, null, d, LineCitation.FILE, fast);
        int n = 0;
        for (String l : lines) {
            p.line(l, "t.log", ++n);
        }
        p.finish();
        return records(b, d);
    }

    private static List<Object> readFile(boolean fast, Path f) throws IOException {
        TrainingLogBuilder b = new TrainingLogBuilder();
        List<Diagnostic> d = new ArrayList<>();
        NcclLogParser p = new NcclLogParser(b, null, d, LineCitation.FILE, fast);
        try (InputStream in = Files.newInputStream(f)) {
            p.read(new TextLines(in), f.getFileName().toString(), Cancellation.NEVER);
        }
        p.finish();
        return records(b, d);
    }

    /** The repository's text files that hold NCCL lines. */
    private static List<Path> logs() throws IOException {
        List<Path> out = new ArrayList<>();
        for (Path root : ROOTS) {
            try (Stream<Path> s = Files.walk(root)) {
                for (Path f : s.filter(Files::isRegularFile).sorted().toList()) {
                    String name = f.getFileName().toString();
                    if (name.endsWith(".gz") || name.endsWith(".xz") || Files.size(f) > 64L << 20) {
                        continue;
                    }
                    byte[] bytes = Files.readAllBytes(f);
                    if (new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1).contains(" NCCL ")) {
                        out.add(f);
                    }
                }
            }
        }
        return out;
    }

    /** The message of each channel, ring and tree line of the repository's logs, once each. */
    private static Set<String> channelMessages(List<Path> logs) throws IOException {
        Set<String> out = new LinkedHashSet<>();
        for (Path f : logs) {
            try (InputStream in = Files.newInputStream(f)) {
                TextLines t = new TextLines(in);
                String l;
                while ((l = t.next()) != null) {
                    int at = l.indexOf(" NCCL INFO ");
                    if (at >= 0) {
                        String msg = l.substring(at + 11);
                        if (msg.startsWith("Channel ") || msg.startsWith("Ring ") || msg.startsWith("Tree")) {
                            out.add(msg);
                        }
                    }
                }
            }
        }
        return out;
    }

    /**
     * Lines as NCCL's format strings print them, one per shape and era (NVIDIA/nccl, the versions and files
     * {@link NcclChannelScan} names): the scanner must read each in full.
     */
    static final List<String> NCCL_SHAPES = List.of(
            "Channel 02/1 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA(PCI)/Shared",
            "Channel 02/1 : 0[1] -> 8[1] [send] via NET/IB/0(1)/GDRDMA",
            "Channel 02/1 : 8[0] -> 0[0] [receive] via NET/IBext_v8/3",
            "Channel 00/0 : 1[1] -> 0[0] [receive] via NET/Socket/0",
            "Channel 31/0 : 7[7] -> 15[7] [send] via NET/AWS Libfabric/2/GDRDMA",
            "Channel 00/0 : 0[0] -> 1[1] via P2P/direct pointer/read",
            "Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read/CE",
            "Channel 00/0 : 0[0] -> 1[1] via P2P/MNNVL",
            "Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read",
            "Channel 00/0 : 0[0] -> 1[1] via P2P/indirect/2[2]/read",
            "Channel 00 : 0[0] -> 1[1] via SHM/direct/direct",
            "Channel 00/0 : 0[3d000] -> 1[b2000] via P2P/IPC",
            "Channel 01/0 : 0[1b000] -> 8[1B000] [send] via NET/IB/0(1)/GDRDMA",
            "Channel 00 : 0[3d000] -> 8[3d000] [send] via NET/IB/0/GDRDMA",
            "Channel 00 : 0[3d000] -> 1[b2000] via direct shared memory",
            "Ring 00 : 155[3d000] -> 157[b2000] via P2P/IPC",
            "Ring 00 : 7[b2000] -> 8[3d000] [receive] via NET/IB/0/GDRDMA",
            "Channel 07/0 : 999999999[0] -> 0[0] [send] via NET/IB/999999999");

    static final List<String> NCCL_TREES = List.of(
            "Trees [0] 1/-1/-1->0->-1 [1] -1/-1/-1->0->1",
            "Trees [0] 1/2/3->0->-1 [1] -1/2/-1->0->1 [2] -1/-1/3->0->4",
            "Trees [0] 1/-1/-1->0->-1|-1->0->1/-1/-1 [1] 1/-1/-1->0->-1|-1->0->1/-1/-1",
            "Trees");

    /** Other lines the scanner's callers see: ring orders, ring and tree places, older shapes it leaves alone. */
    static final List<String> OTHER_SHAPES = List.of(
            "Channel 00/02 :    0   1   2   3",
            "Channel 00/24 : 0 1",
            "Ring 00 : 3 -> 0 -> 1",
            "Tree 0 : -1 -> 0 -> 1/-1/-1",
            "Ring 00 : 0 -> 1 [send] via NET/IB/0",
            "Ring 00 : 0[0] <- 1[1] via P2P/CUMEM",
            "Channel 00/0 : 0[0] -> 1[1] via  P2P/IPC",
            "Channel 00/0 : 0[0] -> 1[1] via P2P/IPC \t ",
            "Connected all rings, use ring PXN 0 GDR 1",
            "Connected all trees");

    @Test
    void theScannerReadsEveryShapeNcclPrints() {
        NcclChannelScan s = new NcclChannelScan();
        for (String m : NCCL_SHAPES) {
            assertTrue(s.link(m, m.startsWith("Ring ") ? 5 : 8), m);
        }
        assertTrue(s.link("Channel 02/1 : 0[1] -> 8[1] [send] via NET/IB/0(1)/GDRDMA(PCI)/Shared", 8));
        assertEquals(List.of(2, 0, 8, 0, 1), List.of(s.channel, s.fromRank, s.toRank, s.device, s.proxyRank));
        assertEquals(List.of("1", "1", "send", "NET/IB/0(1)/GDRDMA(PCI)/Shared"), List.of(s.fromDev, s.toDev, s.direction, s.via));
        assertTrue(s.link("Channel 00/0 : 0[0] -> 1[1] via P2P/IPC   ", 8));
        assertEquals("P2P/IPC", s.via, "trailing spaces are no part of via, as in the expression");
        assertEquals(-1, s.device);
        for (String m : NCCL_TREES) {
            List<TreeNode> out = new ArrayList<>();
            assertTrue(s.trees(m, 5, "c", null, out), m);
        }
        List<TreeNode> out = new ArrayList<>();
        s.trees("Trees [0] 1/-1/-1->0->-1|-1->0->1/-1/2", 5, "c", null, out);
        assertEquals(List.of(new TreeNode("c", 0, 0, 0, -1, List.of(1), null), new TreeNode("c", 0, 1, 0, -1, List.of(1, 2), null)), out);
    }

    @Test
    void theScannerLeavesOtherShapesToTheExpressions() {
        NcclChannelScan s = new NcclChannelScan();
        for (String m : List.of("Channel 00/02 :    0   1   2   3", "Ring 00 : 0 -> 1 [send] via NET/IB/0",
                "Channel 00/0 : 0[0] -> 1[1] via  P2P/IPC", "Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\t",
                "Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\u00e9", "Channel 00/0 : 1234567890[0] -> 1[1] via P2P/IPC",
                "Channel 00/0 : 0[0] -> 1[1] via NET/IB/1234567890", "Channel 00/0 : 0[] -> 1[1] via P2P/IPC",
                "Channel 00/0 : 0[0] -> 1[1] [sent] via P2P/IPC", "Channel 00/0 : 0[0] -> 1[1] via ",
                "Channel 07/0 : 2147483647[0] -> 0[0] [send] via NET/IB/0")) {
            assertFalse(s.link(m, m.startsWith("Ring ") ? 5 : 8), m);
        }
        List<TreeNode> out = new ArrayList<>(List.of(new TreeNode("c", 9, 0, 9, -1, List.of(), null)));
        // cut where NCCL's 1,024-byte buffer ended: the expression reads the whole entries
        assertFalse(s.trees("Trees [0] 1/-1/-1->0->-1 [1] -1/-1/", 5, "c", null, out));
        assertEquals(1, out.size(), "what the scanner had added is taken back");
        assertFalse(s.trees("Trees [0] 1/-1/-1->0->-1 ", 5, "c", null, out));
        assertFalse(s.trees("Trees [0] 1/-1/-1->0->1234567890", 5, "c", null, out));
    }

    @Test
    void everyLogInTheRepositoryReadsTheSameBothWays() throws IOException {
        List<Path> logs = logs();
        assertTrue(logs.size() >= 50, "the repository's NCCL logs: " + logs.size());
        int links = 0;
        int trees = 0;
        for (Path f : logs) {
            List<Object> fast = readFile(true, f);
            assertEquals(readFile(false, f), fast, f.toString());
            links += ((List<?>) fast.get(0)).size();
            trees += ((List<?>) fast.get(3)).size();
        }
        assertTrue(links > 1_000 && trees > 100, links + " links, " + trees + " tree nodes");
    }

    @Test
    void everyChannelLineOfTheRepositoryIsReadByTheScannerAsByTheExpression() throws IOException {
        Set<String> messages = channelMessages(logs());
        assertTrue(messages.size() > 100, messages.size() + " lines");
        NcclChannelScan s = new NcclChannelScan();
        List<String> notScanned = new ArrayList<>();
        for (String m : messages) {
            compare(m);
            boolean ring = m.startsWith("Ring ");
            Matcher x = NcclChannelLines.CHANNEL.matcher(m);
            boolean printable = m.chars().allMatch(c -> c >= ' ' && c <= '~'); // the fuzz corpus's are not
            if (printable && (ring || m.startsWith("Channel ")) && x.find() && !s.link(m, ring ? 5 : 8)) {
                notScanned.add(m);
            }
        }
        assertEquals(List.of(), notScanned, "links of the repository's logs the scanner left to the expression");
    }

    @Test
    void mangledChannelLinesReadTheSameBothWays() throws IOException {
        Set<String> seeds = new LinkedHashSet<>(NCCL_SHAPES);
        seeds.addAll(NCCL_TREES);
        seeds.addAll(OTHER_SHAPES);
        Set<String> shapes = new LinkedHashSet<>();
        for (String m : channelMessages(logs())) {
            if (shapes.add(m.replaceAll("[0-9]+", "N"))) {
                seeds.add(m);
            }
        }
        int n = 0;
        for (String seed : seeds) {
            for (String v : variants(seed)) {
                compare(v);
                n++;
            }
        }
        assertTrue(n > 10_000, n + " variants");
    }

    /**
     * The message read both ways in the contexts that change what it gives: placed under its communicator or
     * waiting for it, brackets that are busIds by the version (2.7), not by it (2.28), or by their look (none).
     */
    private static void compare(String msg) {
        String prefix = "host-a:17:17 [0] NCCL INFO ";
        for (String version : List.of("2.28.9", "2.7.8", "")) {
            boolean placed = !version.equals("2.7.8");
            List<String> lines = new ArrayList<>();
            if (!version.isEmpty()) {
                lines.add(prefix + "NCCL version " + version + "+cuda12.4");
            }
            if (placed) {
                lines.add(prefix + "ncclCommInitRank comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x2 - Init START");
            }
            lines.add(prefix + msg);
            lines.add(prefix + "Channel 00/0 : 0[0] -> 1[1] via P2P/IPC");
            if (!placed) {
                lines.add(prefix + "ncclCommInitRank comm 0x1 rank 0 nranks 2 cudaDev 0 busId 1b000 - Init COMPLETE");
            }
            assertEquals(readLines(false, lines), readLines(true, lines), () -> "version " + version + ": "
                    + msg.replace("\t", "\\t"));
        }
    }

    /** A message cut short at every length, spaced otherwise, with numbers past a C int, controls and non-ASCII, characters replaced. */
    static List<String> variants(String m) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < m.length(); i++) {
            if (i >= 80 && i < m.length() - 80) {
                continue; // the middle of a long Trees line is more of the same entries
            }
            out.add(m.substring(0, i));
            for (char c : new char[] {'x', '-', '/', ' ', '[', '\u00e9'}) {
                out.add(m.substring(0, i) + c + m.substring(i + 1));
            }
            if (m.charAt(i) == ' ') {
                out.add(m.substring(0, i) + "  " + m.substring(i + 1));
                out.add(m.substring(0, i) + "\t" + m.substring(i + 1));
                out.add(m.substring(0, i) + m.substring(i + 1));
            }
        }
        Matcher d = java.util.regex.Pattern.compile("[0-9]+").matcher(m);
        while (d.find()) {
            for (String big : List.of("9999999999", "2147483647", "2147483648", "0000000001", "-5", "99999999999999999999999")) {
                out.add(m.substring(0, d.start()) + big + m.substring(d.end()));
            }
        }
        for (String tail : List.of(" ", "  ", "\t", "\u000B", "\f", "\r", "\u00e9", "\u2028", "\u0085", " x", "|", "|1->0->", "]", " [9] 1/2/3->4->5")) {
            out.add(m + tail);
        }
        return out;
    }

    @Test
    void aLinkReadByTheScannerIsTheExpressionsRecordField() {
        TrainingLogBuilder b = new TrainingLogBuilder();
        NcclLogParser p = new NcclLogParser(b, new ArrayList<>());
        p.line("h:1:1 [0] NCCL INFO NCCL version 2.16.5+cuda12.0", "a.log", 1);
        p.line("h:1:1 [0] NCCL INFO Channel 02/1 : 3[1b000] -> 11[1b000] [send] via NET/IB/2(1)/GDRDMA", "a.log", 2);
        p.line("h:1:1 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 3 nranks 16 cudaDev 1 busId 1b000 - Init COMPLETE", "a.log", 3);
        p.finish();
        ChannelLink c = b.build().channels().get(0);
        assertEquals(List.of(2, 3, 11, 2, 1), List.of(c.channel(), c.fromRank(), c.toRank(), c.device(), c.proxyRank()));
        assertEquals(List.of("size16#1", "send", "1b000", "NET/IB/2(1)/GDRDMA"), List.of(c.commId(), c.direction(), c.toDev(), c.via()));
        assertTrue(c.devIsBusId());
        assertEquals(2, ((org.fabricscope.model.core.Evidence.FileLine) c.evidence()).line());
    }
}
