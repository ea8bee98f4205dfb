package org.fabricscope.importers.ibnet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** Node lines read without the regex give the regex's groups, on real lines and on random near-misses. */
class QuickNodeLineTest {
    /** The regex the importer falls back to, as it has it. */
    private static final Pattern NODE_LINE = Pattern.compile(
            "^(Switch|Ca|Rt)\\s*(\\d+)\\s*\"([SHR?])-([0-9a-fA-F]+)\"\\s*(?:#\\s*(.*))?$");

    private static void same(String l) {
        String[] quick = NodeLine.quick(l);
        if (quick == null) {
            return; // the regex decides
        }
        Matcher m = NODE_LINE.matcher(l);
        assertTrue(m.matches(), "quick read a line the regex refuses: " + l);
        assertArrayEquals(new String[] {m.group(0), m.group(1), m.group(2), m.group(3), m.group(4), m.group(5)}, quick, l);
    }

    @Test
    void realLinesAreReadQuicklyWithTheRegexGroups() {
        String[] real = {
            "Switch\t36 \"S-0002c90200400000\"\t\t# \"MF0;leaf-1:MQM8700/U1\" enhanced port 0 lid 2 lmc 0",
            "Ca\t1 \"H-0002c90300001000\"\t\t# \"node-01 mlx5_0\"",
            "Switch\t41 \"S-b8599f0300fc6d30\"\t\t# \"LG15-04\" base port 0 lid 1043 lmc 0",
            "Rt\t2 \"R-0002c90300000009\"",
            "Ca\t2 \"H-0002c903000000aa\"\t\t#",
        };
        for (String l : real) {
            assertNotNull(NodeLine.quick(l), l);
            same(l);
        }
    }

    @Test
    void randomNearMissesNeverDisagree() {
        Random rnd = new Random(7);
        String[][] parts = {
            {"Switch", "Ca", "Rt", "Cax", "switch", ""},
            {"", " ", "\t", "\f", "\u000b", "  \t"},
            {"36", "1", "", "x", "٣"},
            {"", " ", "\t", "\f"},
            {"\"", "", "'"},
            {"S", "H", "R", "?", "X"},
            {"-", "", "_"},
            {"0002c9030000", "ABCdef", "", "g12", "٣"},
            {"\"", "", "\"\""},
            {"", " ", "\t", "\f", "\u000b"},
            {"", "#", "# ", "#\t", "#\f", "x"},
            {"", "\"leaf\" enhanced port 0 lid 2 lmc 0", "a\u2028b", "a\u0085", "tail ", "\"q\"\"r\""},
        };
        int quick = 0;
        for (int i = 0; i < 200_000; i++) {
            StringBuilder b = new StringBuilder();
            for (String[] p : parts) {
                b.append(p[rnd.nextInt(3) == 0 ? rnd.nextInt(p.length) : 0]);
            }
            String l = b.toString();
            same(l);
            if (NodeLine.quick(l) != null) {
                quick++;
            }
        }
        assertTrue(quick > 10_000, "most well-formed lines take the quick path: " + quick);
    }
}
