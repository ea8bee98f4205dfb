package org.fabricscope.importers.forensics;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.forensics.InspectorCommunicator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;

/**
 * NCCL Inspector profiler plugin output ({@code NCCL_PROFILER_PLUGIN=libnccl-profiler-inspector.so},
 * {@code NCCL_INSPECTOR_ENABLE=1}): a stream of JSON objects, one per collective and communicator,
 * each with a {@code header} (communicator id, rank, n_ranks, nnodes), {@code metadata} (host name,
 * pid, format version) and {@code coll_perf} (coll, coll_sn, message size, execution time, algbw,
 * busbw). Files grow with every collective (hundreds of MB per process), so the stream is read
 * object by object and aggregated per communicator and rank; nothing per collective is kept.
 */
public final class NcclInspectorReader {
    public static final String ID = "nccl-inspector";
    public static final String LABEL = "NCCL Inspector plugin output (JSON per collective)";
    private static final long MAX_OBJECTS = 50_000_000L;

    /** JSON objects with the Inspector's {@code header}/{@code coll_perf} or its format version. */
    public static boolean looksLike(List<String> head) {
        String first = FlightRecorderReader.firstNonBlank(head);
        if (first == null || !first.startsWith("{")) {
            return false;
        }
        String joined = String.join("\n", head);
        return joined.contains("\"inspector_output_format_version\"")
                || (joined.contains("\"header\"") && (joined.contains("\"coll_perf\"") || joined.contains("\"p2p_perf\""))
                        && joined.contains("\"n_ranks\""));
    }

    private static final class Agg {
        String commId;
        int rank;
        int nRanks = -1;
        int nNodes = -1;
        String host = "";
        int pid = -1;
        long records;
        long lastSeq = -1;
        String lastColl = "";
        final Map<String, double[]> colls = new LinkedHashMap<>(); // count, maxBytes, minBus, sumBus, maxBus, sumExec
    }

    public void read(InputStream in, String source, FabricModelBuilder builder, Cancellation cancel) throws IOException {
        Map<String, Agg> aggs = new LinkedHashMap<>();
        long objects = 0;
        long skipped = 0;
        try (MappingIterator<JsonNode> it = Jsons.MAPPER.readerFor(JsonNode.class).readValues(in)) {
            while (it.hasNextValue()) {
                JsonNode n = it.nextValue();
                if ((++objects & 0xfff) == 0 && cancel.isCancelled()) {
                    throw new ImportCancelledException();
                }
                if (objects > MAX_OBJECTS) {
                    builder.diagnostic(Diagnostic.warning(source, 0, "more than " + MAX_OBJECTS
                            + " Inspector records; read the first"));
                    break;
                }
                JsonNode h = n.path("header");
                JsonNode c = n.path("coll_perf");
                if (!h.isObject() || !c.isObject()) {
                    skipped++;
                    continue;
                }
                String id = RasStatusReader.hash(h.path("id").asText(""));
                int rank = h.path("rank").asInt(-1);
                Agg a = aggs.computeIfAbsent(id + "/" + rank, k -> new Agg());
                a.commId = id;
                a.rank = rank;
                a.nRanks = h.path("n_ranks").asInt(a.nRanks);
                a.nNodes = h.path("nnodes").asInt(a.nNodes);
                a.host = n.path("metadata").path("hostname").asText(a.host);
                a.pid = n.path("metadata").path("pid").asInt(a.pid);
                a.records++;
                String coll = c.path("coll").asText("");
                long sn = c.path("coll_sn").asLong(-1);
                if (sn >= a.lastSeq) {
                    a.lastSeq = sn;
                    a.lastColl = coll;
                }
                double bus = c.path("coll_busbw_gbs").asDouble(Double.NaN);
                double[] s = a.colls.computeIfAbsent(coll, k -> new double[] {0, 0, Double.MAX_VALUE, 0, 0, 0});
                s[0]++;
                s[1] = Math.max(s[1], c.path("coll_msg_size_bytes").asDouble(0));
                if (!Double.isNaN(bus)) {
                    s[2] = Math.min(s[2], bus);
                    s[3] += bus;
                    s[4] = Math.max(s[4], bus);
                }
                s[5] += c.path("coll_exec_time_us").asDouble(0);
            }
        } catch (IOException e) {
            builder.diagnostic(Diagnostic.warning(source, 0, "Inspector output not read to its end: " + Jsons.brief(e)
                    + (aggs.isEmpty() ? "" : "; kept the " + objects + " records before")));
        }
        if (skipped > 0) {
            builder.diagnostic(Diagnostic.info(source, 0, skipped + " Inspector record(s) without header and coll_perf "
                    + "(point-to-point or other records) not counted"));
        }
        for (Agg a : aggs.values()) {
            List<InspectorCommunicator.Collective> colls = new ArrayList<>();
            a.colls.forEach((k, s) -> colls.add(new InspectorCommunicator.Collective(k, (long) s[0], (long) s[1],
                    s[2] == Double.MAX_VALUE ? -1 : s[2], s[0] == 0 ? -1 : s[3] / s[0], s[4], s[0] == 0 ? -1 : s[5] / s[0])));
            builder.forensics().inspector(new InspectorCommunicator(source, a.commId, a.rank, a.nRanks, a.nNodes, a.host,
                    a.pid, a.records, a.lastSeq, a.lastColl, colls));
        }
    }
}
