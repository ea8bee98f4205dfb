package org.fabricscope.importers.ibnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.junit.jupiter.api.Test;

/**
 * Port lines read ahead of their turn on a thread of their own give the model that reading each line in its turn
 * gives: the same nodes, cables, rates and evidence, and the same diagnostics at the same lines, in the same
 * order, on a dump with broken lines of every kind among thousands of good ones.
 */
class ReadAheadTest {

    /** A fabric of {@code switches} leaves with 30 HCAs each, with {@code broken} lines put in at random places. */
    private static byte[] dump(int switches, int broken, long seed) {
        Random r = new Random(seed);
        List<String> lines = new ArrayList<>();
        lines.add("# Topology file: generated for a test");
        lines.add("[1]\t\"H-0002c90300ffff00\"[1]\t\t# \"orphan\" lid 9 4xHDR"); // a port line before any node
        for (int s = 0; s < switches; s++) {
            String sw = String.format("0002c902004%05x", s);
            lines.add("");
            lines.add("vendid=0x2c9");
            lines.add("devid=0xd2f0");
            lines.add("switchguid=0x" + sw + "(" + sw + ")");
            lines.add("Switch\t40 \"S-" + sw + "\"\t\t# \"leaf-" + s + "\" enhanced port 0 lid " + (2 + s) + " lmc 0");
            for (int p = 1; p <= 30; p++) {
                String ca = String.format("0002c903%04x%04x", s, p);
                lines.add("[" + p + "]\t\"H-" + ca + "\"[1](" + ca.substring(0, 15) + "1) \t\t# \"node-" + s + "-" + p
                        + " mlx5_0\" lid " + (1000 + s * 32 + p) + " 4xHDR");
            }
        }
        for (int s = 0; s < switches; s++) {
            String sw = String.format("0002c902004%05x", s);
            for (int p = 1; p <= 30; p++) {
                String ca = String.format("0002c903%04x%04x", s, p);
                lines.add("");
                lines.add("vendid=0x2c9");
                lines.add("devid=0x101b");
                lines.add("caguid=0x" + ca);
                lines.add("Ca\t1 \"H-" + ca + "\"\t\t# \"node-" + s + "-" + p + " mlx5_0\"");
                lines.add("[1](" + ca.substring(0, 15) + "1) \t\"S-" + sw + "\"[" + p + "]\t\t# lid " + (1000 + s * 32 + p)
                        + " lmc 0 \"leaf-" + s + "\" lid " + (2 + s) + " 4xHDR");
            }
        }
        String[] bad = {
                "[x]\t\"S-0002c90200400000\"[1]\t\t# \"a\" lid 2 4xHDR",            // not a port line
                "[300]\t\"S-0002c90200400000\"[1]\t\t# \"a\" lid 2 4xHDR",          // port out of range
                "[3]\t\"S-0002c90200400000\"[1]\t\t# \"a\" lid 70000 4xHDR",        // LID out of range
                "[4]\t\"S-00000000000000000\"[1]\t\t# \"a\" lid 2 4xHDR",           // peer id is no GUID
                "[5]\t\"S-0002c90200400000\"[1]\t\t# \"a\" lid 2 4xFOO",            // unknown rate
                "[6]\t\"S-0002c90200400000\"[1]\t\t# what is this",                // comment not understood
                "[7](fffffffffffffffff)\t\"S-0002c90200400000\"[1]\t\t# \"a\" lid 2 4xHDR", // port GUID past 64 bits
                "> [8]\t\"S-0002c90200400000\"[1]\t\t# \"a\" lid 2 4xHDR",          // --diff, current side
                "< [9]\t\"S-0002c90200400000\"[1]\t\t# \"a\" lid 2 4xHDR",          // --diff, old side
                "  [10]\t\"S-0002c90200400000\"[1]  ",                             // stray blanks, no comment
                "Switch\tx \"S-zz\"",                                              // a broken node line
                "",                                                                // ends the node: port lines orphaned
                "[11] \"S-0002c90200400000\"[1] # \"a\" lid 2 4xHDR",              // tabs lost
                "vendid=0x1000000",                                                // vendor id past 24 bits
                "devid=0x10000",                                                   // device id past 16 bits
                "caguid=0x0",                                                      // no GUID
                "sysimgguid=0x0002c9030000abcd",                                   // a block's system image
                "switchguid=0x0002c90200499999",                                   // a block naming another node
                "> vendid=0x2c9",                                                  // --diff, an id line
                "rtguid=0xzz",                                                     // no id line
                "Switch\t300 \"S-0002c90200400001\"\t\t# \"s\" enhanced port 0 lid 2 lmc 0", // port count out of range
                "Switch\t36 \"S-0002c90200400002\"\t\t# \"s\" enhanced port 0 lid 70000 lmc 0", // LID out of range
                "Switch\t36 \"S-0002c90200400003\"\t\t# \"s\" base port 0 lid 7 lmc 9",  // LMC out of range
                "Switch\t36 \"S-00000000000000000\"\t\t# \"s\"",                   // node id past 64 bits
                "Ca\t2 \"H-0002c90200400000\"\t\t# \"a switch's GUID as a CA\"",      // seen as a switch before
                "> Ca\t2 \"H-0002c9030000ab01\"\t\t# \"diff-node\"",                // --diff, a node line
                "Switch\t36 \"S-0002c90200400004\"\t\t# no quotes",               // a comment not understood
                "Rt\t2 \"R-0002c90300000009\"",                                     // a router, no comment
                "Chassis 1 (x)",                                                   // headers ibnetdiscover prints
                "Hostname: h",
                "# a comment"};
        for (int k = 0; k < broken; k++) {
            lines.add(1 + r.nextInt(lines.size() - 1), bad[r.nextInt(bad.length)]);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String l : lines) {
            out.writeBytes((l + (r.nextInt(50) == 0 ? "\r\n" : "\n")).getBytes(StandardCharsets.UTF_8));
        }
        out.writeBytes("[12]\t\"S-0002c902004".getBytes(StandardCharsets.UTF_8)); // cut short: no end of line
        return out.toByteArray();
    }

    private static FabricModel read(IbnetdiscoverImporter importer, byte[] dump) {
        FabricModelBuilder b = new FabricModelBuilder();
        TestSupport.readInto(b, importer, "dump.txt", dump);
        return b.build();
    }

    /** Everything the model holds of the dump, one line per fact, in a fixed order. */
    private static List<String> facts(FabricModel m) {
        List<String> out = new ArrayList<>();
        m.diagnostics().forEach(d -> out.add("diagnostic " + d));
        m.nodes().stream().sorted(Comparator.comparing(FabricNode::guid)).forEach(n -> out.add("node " + n.id() + " "
                + n.kind() + " " + n.description() + " lid " + n.lid() + " lmc " + n.lmc() + " " + n.enhancedPort0()
                + " ports " + n.numPorts() + " vendor " + n.vendorId() + " device " + n.deviceId() + " image "
                + n.sysImgGuid() + " " + TestSupport.where(n.evidence())));
        out.addAll(TestSupport.cableFacts(m));
        return out;
    }

    @Test
    void givesTheModelReadingLineByLineGives() {
        byte[] dump = dump(80, 400, 14);
        List<String> inTurn = facts(read(new IbnetdiscoverImporter(false, 0), dump));
        assertTrue(inTurn.stream().filter(f -> f.startsWith("cable ")).count() > 2_000, "the dump's cables");
        assertTrue(inTurn.stream().filter(f -> f.startsWith("diagnostic ")).count() > 20, "the broken lines' reports");
        // batches of 7 lines: hundreds of hand-overs, the broken lines across their edges; and the default batch
        // and one, two or three threads preparing them (each with its own reader and store of cited lines)
        for (String threads : new String[] {"1", "3", null}) {
            TestSupport.withReadAheadThreads(threads, () -> {
                for (int batch : new int[] {1, 7, 0}) {
                    FabricModel ahead = read(new IbnetdiscoverImporter(true, batch), dump);
                    assertEquals(inTurn, facts(ahead), "batch " + batch + ", threads " + threads);
                    citesItsOwnLine(ahead, dump);
                    nodesCiteTheirOwnLines(ahead, dump);
                }
            });
        }
    }

    /** Each node's evidence is its node line, by number. */
    private static void nodesCiteTheirOwnLines(FabricModel m, byte[] dump) {
        String[] lines = new String(dump, StandardCharsets.UTF_8).split("\r?\n", -1);
        int cited = 0;
        for (FabricNode n : m.nodes()) {
            Evidence e = n.evidence();
            if (e != null) {
                String l = lines[e.line() - 1].strip();
                assertEquals(l.startsWith("> ") ? l.substring(2).strip() : l, e.text(), e.where());
                assertTrue(e.text().startsWith("Switch") || e.text().startsWith("Ca") || e.text().startsWith("Rt"), e.text());
                cited++;
            }
        }
        assertTrue(cited > 2_000, "the nodes read from node lines: " + cited);
    }

    /** Each cable's evidence is the line it was read from, by number (as the file's lines count, CRLF or LF). */
    private static void citesItsOwnLine(FabricModel m, byte[] dump) {
        String[] lines = new String(dump, StandardCharsets.UTF_8).split("\r?\n", -1);
        for (Cable c : m.cables()) {
            Evidence e = c.evidence();
            assertEquals(lines[e.line() - 1].strip(), e.text(), e.where());
        }
    }
}
