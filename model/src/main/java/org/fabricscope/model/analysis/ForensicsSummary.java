package org.fabricscope.model.analysis;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.bandwidth.BusBwExpectation;
import org.fabricscope.model.bandwidth.BusBwExpectations;

/**
 * The hang forensics part of {@link FabricSummary}: {@code ncclTests} (one entry per nccl-tests run)
 * and {@code collectives} (per process group or communicator, the last sequence number per rank).
 * Field names are a contract with scripts, as for the rest of the summary.
 */
public final class ForensicsSummary {
    private ForensicsSummary() {
    }

    /**
     * One nccl-tests run: the binary ({@code all_reduce_perf}), its ranks, the average bus bandwidth it
     * printed (null when it did not), the peak bus and algorithm bandwidth over its rows (GB/s), its
     * wrong elements, the rows, and the file it came from; {@code expectedBusBw} is what the slowest hop of
     * its path carries (GB/s per direction) and {@code expectedSource} where that number comes from, both
     * null when the loaded inputs do not tell ({@link BusBwExpectations}).
     */
    public record NcclTest(String test, int ranks, Double avgBusBw, double peakBusBw, double peakAlgBw, long wrong,
                           List<NcclTestRow> rows, String source, Double expectedBusBw, String expectedSource) {
    }

    /** One size of an nccl-tests run: bytes, count, type, reduction, and both placements (null when not run). */
    public record NcclTestRow(long bytes, long count, String type, String redop, NcclTestResult outOfPlace,
                              NcclTestResult inPlace) {
    }

    /** Time (us), algorithm and bus bandwidth (GB/s), wrong elements (null when the test printed N/A). */
    public record NcclTestResult(double timeUs, double algBw, double busBw, Long wrong) {
    }

    /**
     * One communicator's progress: a PyTorch process group from flight recorder dumps ({@code from}
     * {@code flight-recorder}; {@code communicator} is the group's name), an NCCL communicator from a
     * RAS report ({@code ras}; its hash) or from NCCL Inspector output ({@code inspector}; its id).
     * {@code lastSequence} is, per rank, the last collective enqueued (flight recorder), the collectives
     * launched (RAS) or the last collective's {@code coll_sn} (Inspector, which records completed ones);
     * {@code lastCompleted} the last completed (flight recorder only). {@code source} is the file the numbers come from (the last report, for RAS).
     */
    public record Collective(String communicator, String name, String from, List<Integer> ranks,
                             Map<String, Long> lastSequence, Map<String, Long> lastCompleted, String source) {
    }

    public static List<NcclTest> ncclTests(FabricModel model) {
        List<NcclTest> out = new java.util.ArrayList<>();
        for (org.fabricscope.model.forensics.NcclTestRun r : model.forensics().ncclTests()) {
            List<NcclTestRow> rows = new java.util.ArrayList<>();
            for (org.fabricscope.model.forensics.NcclTestRow row : r.rows()) {
                rows.add(new NcclTestRow(row.bytes(), row.count(), row.type(), row.redop(), result(row.outOfPlace()),
                        result(row.inPlace())));
            }
            Optional<BusBwExpectation> e = BusBwExpectations.of(model, r);
            out.add(new NcclTest(r.test(), r.ranks(), Double.isNaN(r.avgBusBw()) ? null : r.avgBusBw(), r.peakBusBw(),
                    r.peakAlgBw(), r.wrong(), rows, r.source(), e.map(BusBwExpectation::gbPerSec).orElse(null),
                    e.map(BusBwExpectation::source).orElse(null)));
        }
        return out;
    }

    private static NcclTestResult result(org.fabricscope.model.forensics.NcclTestRow.Result r) {
        return r == null ? null : new NcclTestResult(finite(r.timeUs()), finite(r.algBw()), finite(r.busBw()),
                r.wrong() < 0 ? null : r.wrong());
    }

    private static double finite(double v) {
        return Double.isFinite(v) ? v : -1;
    }

    /** Flight recorder process groups (by name), then RAS communicators (by hash, from the last report naming each). */
    public static List<Collective> collectives(FabricModel model) {
        List<Collective> out = new java.util.ArrayList<>();
        var f = model.forensics();
        for (org.fabricscope.model.forensics.ProcessGroupProgress p
                : org.fabricscope.model.forensics.FlightRecorderAnalysis.progress(f.flightRecorder())) {
            Map<String, Long> seq = new LinkedHashMap<>();
            Map<String, Long> done = new LinkedHashMap<>();
            java.util.Set<String> sources = new java.util.LinkedHashSet<>();
            p.ranks().forEach((rank, pr) -> {
                seq.put(String.valueOf(rank), pr.lastEnqueued());
                done.put(String.valueOf(rank), pr.lastCompleted());
                sources.add(pr.source());
            });
            out.add(new Collective(p.name(), p.desc(), "flight-recorder", p.members(), seq, done,
                    String.join(", ", sources)));
        }
        Map<String, Collective> ras = new LinkedHashMap<>();
        for (org.fabricscope.model.forensics.RasStatus s : f.ras()) {
            for (org.fabricscope.model.forensics.RasCommunicator c : s.communicators()) {
                if (c.ranks().isEmpty()) {
                    continue;
                }
                Map<String, Long> seq = new LinkedHashMap<>();
                List<Integer> ranks = new java.util.ArrayList<>();
                for (org.fabricscope.model.forensics.RasRank r : c.ranks()) {
                    ranks.add(r.rank());
                    seq.put(String.valueOf(r.rank()), r.totalCount());
                }
                Collective had = ras.remove(c.hash());
                String label = c.label().isEmpty() && had != null ? had.name() : c.label();
                ras.put(c.hash(), new Collective(c.hash(), label, "ras", ranks, seq, Map.of(), s.source()));
            }
        }
        out.addAll(ras.values());
        Map<String, Collective> inspector = new LinkedHashMap<>();
        for (org.fabricscope.model.forensics.InspectorCommunicator c : f.inspector()) {
            Collective had = inspector.get(c.commId());
            List<Integer> ranks = new java.util.ArrayList<>(had == null ? List.of() : had.ranks());
            Map<String, Long> seq = new java.util.TreeMap<>(java.util.Comparator.comparingLong(Long::parseLong));
            if (had != null) {
                seq.putAll(had.lastSequence());
            }
            if (!ranks.contains(c.rank())) {
                ranks.add(c.rank());
                ranks.sort(null);
            }
            seq.merge(String.valueOf(c.rank()), c.lastSeq(), Math::max);
            String src = had == null || had.source().contains(c.source()) ? c.source() : had.source() + ", " + c.source();
            inspector.put(c.commId(), new Collective(c.commId(), "", "inspector", ranks, new LinkedHashMap<>(seq), Map.of(),
                    had == null ? c.source() : src));
        }
        out.addAll(inspector.values());
        return out;
    }
}
