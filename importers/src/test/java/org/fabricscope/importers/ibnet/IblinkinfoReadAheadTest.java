package org.fabricscope.importers.ibnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Port;
import org.junit.jupiter.api.Test;

/**
 * iblinkinfo lines read ahead of their turn, on one or several threads, give the model that reading each line in its
 * turn gives: nodes, ports with their states and rates, cables, evidence and diagnostics, on the bundled capture with
 * broken lines of every kind put in.
 */
class IblinkinfoReadAheadTest {
    private static final String[] BAD = {
        "Switch: 0xzz bad:",                                                                          // no header: not a port line either
        "Switch: 0x10000000000000000 toolong:",                                                       // GUID past 64 bits: its ports skipped
        "CA: plain name:",
        "      0xb8cef6030210001f    99999    1[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>      25   16[  ] \"x\" ( )",
        "    280    300[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>      25   16[  ] \"x\" ( )",  // port out of range
        "    280    3[  ] ==( 4X        1.2.3 Gbps Active/  LinkUp)==>      25   16[  ] \"x\" ( )",     // no rate
        "    280    3[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>      70000   16[  ] \"x\" ( )", // peer LID out of range
        "    280    3[  ] ==(  Down/ Polling)==>             [  ] \"\" ( )",
        "    280    3[  ] ==(  what is this )==>             [  ] \"\" ( )",                          // link state not understood
        "    280    3[  ] ==( 4X        14.0625 Gbps (FDR10) Active/  LinkUp)==>      25   16[  ] \"x\" (Could be 12X )",
        "0x0002c90300000aaa \"node-l one\"   12    1[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>      25   1[  ] \"leaf\" ( )",
        "garbage line", "", "# comment", "ibwarn: something",
    };

    private static byte[] dump(long seed) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(Path.of("../sample-fabrics/rail-2su-hdr/iblinkinfo.txt")));
        Random r = new Random(seed);
        for (int k = 0; k < 300; k++) {
            lines.add(r.nextInt(lines.size() + 1), BAD[r.nextInt(BAD.length)]);
        }
        StringBuilder b = new StringBuilder();
        for (String l : lines) {
            b.append(l).append(r.nextInt(40) == 0 ? "\r\n" : "\n");
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> facts(IblinkinfoImporter importer, byte[] dump) {
        FabricModelBuilder b = new FabricModelBuilder();
        TestSupport.readInto(b, importer, "iblinkinfo.txt", dump);
        FabricModel m = b.build();
        List<String> out = new ArrayList<>();
        m.diagnostics().forEach(d -> out.add("diagnostic " + d));
        m.nodes().stream().sorted(Comparator.comparing(FabricNode::guid)).forEach(n -> {
            out.add("node " + n.id() + " " + n.kind() + " " + n.description() + " lid " + n.lid() + " " + TestSupport.where(n.evidence()));
            n.ports().stream().sorted(Comparator.comparingInt(Port::number)).forEach(p -> out.add("  port " + p.number()
                    + " " + p.portGuid() + " lid " + p.lid() + " ext " + p.extNumber() + " " + p.width() + " " + p.speed() + " "
                    + p.state() + " " + p.physState() + " could " + p.couldBeWidth() + " " + p.couldBeSpeed() + " "
                    + TestSupport.where(p.stateEvidence())));
        });
        out.addAll(TestSupport.cableFacts(m));
        return out;
    }

    @Test
    void givesTheModelReadingLineByLineGives() throws IOException {
        byte[] dump = dump(18);
        List<String> inTurn = facts(new IblinkinfoImporter(false, 0), dump);
        assertTrue(inTurn.stream().filter(f -> f.startsWith("cable ")).count() > 200, "the capture's cables");
        assertTrue(inTurn.stream().filter(f -> f.startsWith("diagnostic ")).count() > 30, "the broken lines' reports");
        for (String threads : new String[] {"1", "3"}) {
            TestSupport.withReadAheadThreads(threads, () -> {
                for (int batch : new int[] {1, 7, 0}) {
                    assertEquals(inTurn, facts(new IblinkinfoImporter(true, batch), dump), "batch " + batch + ", threads " + threads);
                }
            });
        }
    }
}
