package org.fabricscope.model.pairwise;

import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.forensics.PerftestEndpoint;
import org.fabricscope.model.forensics.PerftestRow;
import org.fabricscope.model.forensics.PerftestRun;

/** Perftest runs and matrices for the pairwise tests. */
public final class PairRuns {
    private PairRuns() {
    }

    /** An ib_write_bw client run in file {@code source} with one 65536-byte row at {@code gbps}, between two LIDs (0: none). */
    public static PerftestRun bw(String source, int localLid, int remoteLid, double gbps) {
        return bw(source, localLid, remoteLid, "", "", gbps);
    }

    public static PerftestRun bw(String source, int localLid, int remoteLid, String localGid, String remoteGid, double gbps) {
        PerftestEndpoint l = new PerftestEndpoint(localLid, "0x0117", localGid, Evidence.at(source, 17, " local address: LID ..."));
        PerftestEndpoint r = new PerftestEndpoint(remoteLid, "0x0119", remoteGid, Evidence.at(source, 18, " remote address: LID ..."));
        List<PerftestRow> rows = new ArrayList<>();
        if (!Double.isNaN(gbps)) {
            rows.add(new PerftestRow(65536, 5000, new PerftestRow.Bandwidth(gbps, gbps, gbps / 0.524288 / 1000, "Gb/sec"), null,
                    Evidence.at(source, 21, " 65536      5000           " + gbps)));
        }
        List<Evidence> errors = Double.isNaN(gbps) ? List.of(Evidence.at(source, 20, "Failed to modify QP 518 to RTR")) : List.of();
        return new PerftestRun(source, 1, "RDMA_Write", PerftestRun.Measure.BANDWIDTH, false, PerftestRun.Side.CLIENT, "mlx5_0",
                localGid.startsWith("0000") ? "Ethernet" : "IB", "IB", "RC", 1, -1, l, r, rows, errors, "");
    }

    /** An ib_write_lat run at {@code usec} typical latency, 2 bytes. */
    public static PerftestRun lat(String source, double usec) {
        PerftestRow.Latency l = new PerftestRow.Latency(usec * 0.95, usec * 4, usec, usec * 1.01, 0.05, usec * 1.2, usec * 4, Double.NaN);
        return new PerftestRun(source, 1, "RDMA_Write", PerftestRun.Measure.LATENCY, false, PerftestRun.Side.CLIENT, "mlx5_0",
                "IB", "IB", "RC", 1, -1, null, null, List.of(new PerftestRow(2, 1000, null, l, Evidence.at(source, 20, " 2 1000 ..."))),
                List.of(), "");
    }

    /** A matrix of one test whose cells are given as a, b, value triples (NaN: failed). */
    public static PairMatrix matrix(PairKind kind, Object... abv) {
        List<PairCell> cells = new ArrayList<>();
        for (int i = 0; i < abv.length; i += 3) {
            double v = ((Number) abv[i + 2]).doubleValue();
            cells.add(new PairCell((String) abv[i], (String) abv[i + 1], kind, v, Double.isNaN(v), "BW average at 65536 B",
                    PairEnds.How.FILE_NAME, 1, List.of(Evidence.at(abv[i] + "_" + abv[i + 1] + ".txt", 21, "65536 5000 " + v))));
        }
        return new PairMatrix(kind, kind == PairKind.PERFTEST_LAT ? "ib_write_lat" : "ib_write_bw", cells);
    }

    /** Every pair of {@code nodes} at {@code healthy} (with a small spread) except pairs with {@code slow} at {@code slowValue}. */
    public static PairMatrix fullMesh(PairKind kind, List<String> nodes, double healthy, String slow, double slowValue) {
        List<Object> abv = new ArrayList<>();
        int k = 0;
        for (int i = 0; i < nodes.size(); i++) {
            for (int j = i + 1; j < nodes.size(); j++) {
                boolean bad = nodes.get(i).equals(slow) || nodes.get(j).equals(slow);
                double spread = 1 + ((k++ % 5) - 2) * 0.012; // +-2.4%: what healthy pairs of one kind measure
                abv.add(nodes.get(i));
                abv.add(nodes.get(j));
                abv.add((bad ? slowValue : healthy) * spread);
            }
        }
        return matrix(kind, abv.toArray());
    }
}
