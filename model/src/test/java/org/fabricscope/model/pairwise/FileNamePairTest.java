package org.fabricscope.model.pairwise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Set;

import org.junit.jupiter.api.Test;

/** File names that name two hosts, with and without known host names, and names that name none. */
class FileNamePairTest {
    private static final FileNamePair NONE = new FileNamePair(Set.of());

    @Test
    void scriptNamings() {
        assertArrayEquals(new String[] {"nodeA", "nodeB"}, NONE.of("ib_write_bw_nodeA_nodeB.txt"));
        assertArrayEquals(new String[] {"nodeA", "nodeB"}, NONE.of("out/nodeA-nodeB"));
        assertArrayEquals(new String[] {"nodeA", "nodeB"}, NONE.of("nodeA_to_nodeB.log"));
        assertArrayEquals(new String[] {"gpu-node-01", "gpu-node-02"}, NONE.of("ib_write_bw_gpu-node-01_gpu-node-02.txt"));
        assertArrayEquals(new String[] {"dgx01", "dgx02"}, NONE.of("ib_send_lat-dgx01-dgx02.client.txt"));
        assertArrayEquals(new String[] {"h1", "h2"}, NONE.of("all_reduce_perf_h1_h2.out"));
        assertArrayEquals(new String[] {"n7", "n12"}, NONE.of("bundle.tgz!/pairs/n7_vs_n12/server.txt"), "the folder when the file names none");
    }

    @Test
    void notGuessed() {
        assertNull(NONE.of("output_final.txt"), "not named alike");
        assertNull(NONE.of("dgx-01-dgx-02.txt"), "four parts, no known host to split them");
        assertNull(NONE.of("ib_write_bw.txt"));
        assertNull(NONE.of("nodeA_nodeA.txt"));
        assertNull(NONE.of("results_2024.txt"));
    }

    @Test
    void knownHostsSplitWhatDashesHide() {
        FileNamePair known = new FileNamePair(Set.of("dgx-01", "dgx-02", "dgx-03"));
        assertArrayEquals(new String[] {"dgx-01", "dgx-02"}, known.of("dgx-01-dgx-02.txt"));
        assertArrayEquals(new String[] {"dgx-03", "dgx-01"}, known.of("ib_write_bw_DGX-03_to_dgx-01.txt"), "spelled as known");
        assertNull(known.of("nodeA_nodeB.txt"), "where hosts are known, unknown names are no pair");
    }
}
