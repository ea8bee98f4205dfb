package org.fabricscope.importers.forensics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.analysis.FabricSummary;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.forensics.InspectorCommunicator;
import org.junit.jupiter.api.Test;

/** NCCL Inspector plugin output: the plugin README's examples, and a stream aggregated per communicator and rank. */
class ForensicsInspectorTest {
    @Test
    void readmeExamplesAreRead() {
        FabricModel m = ForensicsFixtures.load(ForensicsFixtures.resource("inspector/readme-samples.json"));
        assertEquals("", ForensicsFixtures.diagnostics(m));
        List<InspectorCommunicator> c = m.forensics().inspector();
        assertEquals(2, c.size());
        InspectorCommunicator a = c.get(0);
        assertEquals("0x7f8c496ae9f661", a.commId());
        assertEquals(2, a.rank());
        assertEquals(8, a.nRanks());
        assertEquals("example-hostname", a.hostname());
        assertEquals(1639453, a.pid());
        assertEquals(1407, a.lastSeq());
        assertEquals("AllReduce", a.lastColl());
        assertEquals(485.119099, a.collectives().get(0).maxBusBw(), 1e-9);
        assertEquals(17179869184L, a.collectives().get(0).maxBytes());
        assertEquals("ReduceScatter", c.get(1).lastColl());
    }

    @Test
    void aStreamIsAggregatedPerCommunicatorAndRank() {
        StringBuilder sb = new StringBuilder();
        for (int sn = 1; sn <= 50; sn++) {
            for (int rank = 0; rank < 4; rank++) {
                if (rank == 3 && sn > 40) {
                    continue; // rank 3 stopped recording after collective 40
                }
                sb.append("{\"header\":{\"id\":\"0xabc\",\"rank\":").append(rank).append(",\"n_ranks\":4,\"nnodes\":1},")
                        .append("\"metadata\":{\"inspector_output_format_version\":\"v4.0\",\"hostname\":\"node-")
                        .append(rank / 2).append("\",\"pid\":").append(100 + rank).append("},\"coll_perf\":{\"coll\":\"")
                        .append(sn % 2 == 0 ? "AllReduce" : "AllGather").append("\",\"coll_sn\":").append(sn)
                        .append(",\"coll_msg_size_bytes\":").append(1L << 20).append(",\"coll_exec_time_us\":100,")
                        .append("\"coll_algobw_gbs\":10.0,\"coll_busbw_gbs\":").append(10 + rank).append("}}\n");
            }
        }
        sb.append("{\"header\":{\"id\":\"0xabc\",\"rank\":0},\"p2p_perf\":{\"p2p\":\"Send\"}}\n");
        sb.append("{\"header\":{\"id\":\"0xabc\",\"rank\":0,\"n_ranks\":4},\"coll_perf\":{\"coll\":\"AllRed"); // cut off
        FabricModel m = TestSupport.importTexts("nccl-inspector-unknown-jobid/node-0-pid100.log", sb.toString()).model();
        List<InspectorCommunicator> c = m.forensics().inspector();
        assertEquals(4, c.size());
        assertEquals(50, c.get(0).records());
        assertEquals(40, c.get(3).lastSeq());
        assertEquals(2, c.get(0).collectives().size());
        assertEquals(25, c.get(0).collectives().get(0).count());
        String d = ForensicsFixtures.diagnostics(m);
        assertTrue(d.contains("not read to its end") && d.contains("without header and coll_perf"), d);
        org.fabricscope.model.analysis.ForensicsSummary.Collective s = FabricSummary.of(m, ErrorThresholds.defaults()).collectives().get(0);
        assertEquals("inspector", s.from());
        assertEquals(Map.of("0", 50L, "1", 50L, "2", 50L, "3", 40L), s.lastSequence());
    }
}
