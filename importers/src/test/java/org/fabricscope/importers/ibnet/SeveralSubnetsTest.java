package org.fabricscope.importers.ibnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Severity;
import org.junit.jupiter.api.Test;

/**
 * A multi-plane fabric: one subnet per rail, each discovered on its own (ibnetdiscover -C mlx5_0, -C mlx5_1).
 * LIDs are unique only within a subnet, so the two planes reuse them: what names a node by LID alone must not
 * land on the wrong plane's node, and the user is told why it was not placed.
 */
class SeveralSubnetsTest {
    static final long LEAF_A = 0x0c42a10300000011L;
    static final long LEAF_B = 0x0c42a10300000022L;

    /** Plane 1: leaf LID 1, the host's first HCA LID 2. */
    static final String PLANE_1 = """
            vendid=0x2c9
            devid=0xd2f0
            switchguid=0xc42a10300000011(c42a10300000011)
            Switch\t41 "S-0c42a10300000011"\t\t# "MF0;LG001-01:MQM8700/U1" enhanced port 0 lid 1 lmc 0
            [1]\t"H-b8cef60300000010"[1](b8cef60300000011) \t\t# "dgx-0001 mlx5_0" lid 2 4xHDR

            vendid=0x2c9
            devid=0x101b
            caguid=0xb8cef60300000010
            Ca\t1 "H-b8cef60300000010"\t\t# "dgx-0001 mlx5_0"
            [1](b8cef60300000011) \t"S-0c42a10300000011"[1]\t\t# lid 2 lmc 0 "MF0;LG001-01:MQM8700/U1" lid 1 4xHDR
            """;

    /** Plane 2: the same LIDs on other nodes. */
    static final String PLANE_2 = PLANE_1.replace("0c42a10300000011", "0c42a10300000022")
            .replace("c42a10300000011", "c42a10300000022").replace("LG001-01", "LG001-02")
            .replace("b8cef60300000010", "b8cef60300000020").replace("b8cef60300000011", "b8cef60300000021")
            .replace("mlx5_0", "mlx5_1");

    /** perfquery of LID 1, port 1 (its header on line 2, under an ibwarn line). */
    static final String PERFQUERY_LID_1 = CountersTest.PERFQUERY_BASIC.replace("Lid 42 port 1", "Lid 1 port 1");

    @Test
    void twoPlanesMakeOneFabricAndTheirRepeatedLidsNameNoNode() {
        FabricModel m = TestSupport.importTexts("plane1.txt", PLANE_1, "plane2.txt", PLANE_2).model();
        assertEquals(4, m.nodes().size());
        assertEquals(2, m.cables().size());
        assertEquals(1, m.fabric().hosts().size(), "both HCAs are dgx-0001's");
        assertEquals("", TestSupport.dump(TestSupport.atLeast(m, Severity.WARNING)));
        List<Diagnostic> said = m.diagnostics().stream().filter(d -> d.message().contains("claimed by more than one node")).toList();
        assertEquals(1, said.size(), TestSupport.dump(m.diagnostics()));
        assertTrue(said.get(0).message().startsWith("2 LIDs are claimed"), said.get(0).message());
        assertTrue(said.get(0).message().contains("LID 1 by LG001-01 and LG001-02"), said.get(0).message());
        assertEquals("plane2.txt", said.get(0).source());
        assertNull(m.nodeByLid(1));
        assertNull(m.nodeByLid(2));
        assertTrue(m.fabric().lidRepeats(1));
    }

    @Test
    void countersNamedByARepeatedLidAreNotPlacedAndTheWarningSaysWhy() {
        FabricModel m = TestSupport.importTexts("perf.txt", PERFQUERY_LID_1, "plane1.txt", PLANE_1, "plane2.txt", PLANE_2).model();
        List<Diagnostic> ws = TestSupport.atLeast(m, Severity.WARNING);
        assertEquals(1, ws.size(), TestSupport.dump(ws));
        assertEquals("perf.txt", ws.get(0).source());
        assertEquals(2, ws.get(0).line());
        assertTrue(ws.get(0).message().contains("LID 1 is claimed by LG001-01 and LG001-02"), ws.get(0).message());
        assertTrue(m.node(LEAF_A).port(1).counters().isEmpty());
        assertTrue(m.node(LEAF_B).port(1).counters().isEmpty());
    }

    @Test
    void oneSubnetStillPlacesCountersByLidAndSaysNothingOfRepeats() {
        FabricModel m = TestSupport.importTexts("perf.txt", PERFQUERY_LID_1, "plane1.txt", PLANE_1).model();
        assertEquals("", TestSupport.dump(TestSupport.atLeast(m, Severity.WARNING)));
        assertFalse(m.diagnostics().stream().anyMatch(d -> d.message().contains("claimed by")), TestSupport.dump(m.diagnostics()));
        assertEquals(1500, m.node(LEAF_A).port(1).counter("SymbolErrorCounter"));
        assertNotNull(m.nodeByLid(1));
        assertEquals(LEAF_A, m.nodeByLid(1).guid());
    }
}
