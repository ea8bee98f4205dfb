package org.fabricscope.importers.forensics;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.importers.core.Numbers;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.forensics.InspectorCommunicator;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * NCCL Inspector profiler plugin output ({@code NCCL_PROFILER_PLUGIN=libnccl-profiler-inspector.so},
 * {@code NCCL_INSPECTOR_ENABLE=1}): a stream of JSON objects, one per collective and communicator,
 * each with a {@code header} (communicator id, rank, n_ranks, nnodes), {@code metadata} (host name,
 * pid, format version) and {@code coll_perf} (coll, coll_sn, message size, execution time, algbw,
 * busbw). Files grow with every collective (hundreds of MB per process), so the stream is read
 * object by object and aggregated per communicator and rank; nothing per collective is kept. Numbers are
 * range-checked ({@link JsonNumbers}: ranks, sizes and pids are C {@code int}s, sequence numbers
 * 0..2^63-1); a record with a number out of range, a negative rank, or a communicator id or collective
 * name longer than {@link #MAX_KEY} is skipped with a diagnostic naming its line, and the others are kept.
 * At most {@link #MAX_COMMS} communicator-and-rank summaries and {@link #MAX_KINDS} collective kinds each.
 */
public final class NcclInspectorReader {
    public static final String ID = "nccl-inspector";
    public static final String LABEL = "NCCL Inspector plugin output (JSON per collective)";
    private static final long MAX_OBJECTS = 50_000_000L;
    /** Most communicator-and-rank summaries kept from one file. */
    static final int MAX_COMMS = 100_000;
    /** Most collective kinds per communicator and rank. */
    static final int MAX_KINDS = 64;
    /** Longest communicator id or collective name, in characters. */
    static final int MAX_KEY = 256;
    /** Most record-level diagnostics written per file; the rest are counted in one line. */
    private static final int MAX_REPORTED = 20;
    private static final long INT = Integer.MAX_VALUE;

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

    /** The fields of one record that key and count it, range-checked. */
    private record Rec(String id, int rank, int nRanks, int nNodes, int pid, String coll, long sn) {
    }

    private static Rec record(JsonNode n, JsonNode h, JsonNode c) {
        String rawId = h.path("id").asText("");
        if (rawId.length() > MAX_KEY) {
            throw new Numbers.OutOfRange("communicator id", rawId, "at most " + MAX_KEY + " characters");
        }
        int rank = JsonNumbers.intField(h, "rank", -1, Integer.MIN_VALUE, INT);
        if (rank < 0) {
            throw new Numbers.OutOfRange("rank", Integer.toString(rank), "0.." + INT);
        }
        String coll = c.path("coll").asText("");
        if (coll.length() > MAX_KEY) {
            throw new Numbers.OutOfRange("collective name", coll, "at most " + MAX_KEY + " characters");
        }
        return new Rec(RasStatusReader.hash(rawId), rank, JsonNumbers.intField(h, "n_ranks", -1, -1, INT),
                JsonNumbers.intField(h, "nnodes", -1, -1, INT), JsonNumbers.intField(n.path("metadata"), "pid", -1, -1, INT),
                coll, JsonNumbers.longField(c, "coll_sn", -1, -1, Long.MAX_VALUE));
    }

    /** The line the iterator has reached: the end of the record just read (one per line in the plugin's output). */
    private static int line(JsonValues it) {
        long l = it.line();
        return l > 0 && l <= Integer.MAX_VALUE ? (int) l : 0;
    }

    public void read(InputStream in, String source, FabricModelBuilder builder, Cancellation cancel) throws IOException {
        Map<String, Agg> aggs = new LinkedHashMap<>();
        long objects = 0;
        long skipped = 0;
        long refused = 0;
        try (JsonValues it = new JsonValues(Jsons.FACTORY.createParser(in))) {
            for (JsonNode n = it.next(); n != null; n = it.next()) {
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
                Rec r;
                try {
                    r = record(n, h, c);
                } catch (Numbers.OutOfRange e) {
                    if (++refused <= MAX_REPORTED) {
                        builder.diagnostic(Diagnostic.warning(source, line(it), e.getMessage()
                                + "; Inspector record skipped"));
                    }
                    continue;
                }
                String key = r.id + "/" + r.rank;
                Agg a = aggs.get(key);
                if (a == null) {
                    if (aggs.size() >= MAX_COMMS) {
                        if (++refused <= MAX_REPORTED) {
                            builder.diagnostic(Diagnostic.warning(source, line(it), "more than " + MAX_COMMS
                                    + " communicator ranks in this Inspector output (NcclInspectorReader.MAX_COMMS); "
                                    + "record of communicator " + r.id + " rank " + r.rank + " skipped"));
                        }
                        continue;
                    }
                    a = new Agg();
                    aggs.put(key, a);
                }
                double[] s = a.colls.get(r.coll);
                if (s == null) {
                    if (a.colls.size() >= MAX_KINDS) {
                        if (++refused <= MAX_REPORTED) {
                            builder.diagnostic(Diagnostic.warning(source, line(it), "more than " + MAX_KINDS
                                    + " collective kinds for communicator " + r.id + " rank " + r.rank
                                    + " (NcclInspectorReader.MAX_KINDS); record of " + r.coll + " skipped"));
                        }
                        continue;
                    }
                    s = new double[] {0, 0, Double.MAX_VALUE, 0, 0, 0};
                    a.colls.put(r.coll, s);
                }
                a.commId = r.id;
                a.rank = r.rank;
                a.nRanks = r.nRanks >= 0 ? r.nRanks : a.nRanks;
                a.nNodes = r.nNodes >= 0 ? r.nNodes : a.nNodes;
                a.host = n.path("metadata").path("hostname").asText(a.host);
                a.pid = r.pid >= 0 ? r.pid : a.pid;
                a.records++;
                String coll = r.coll;
                long sn = r.sn;
                if (sn >= a.lastSeq) {
                    a.lastSeq = sn;
                    a.lastColl = coll;
                }
                double bus = c.path("coll_busbw_gbs").asDouble(Double.NaN);
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
        if (refused > MAX_REPORTED) {
            builder.diagnostic(Diagnostic.warning(source, 0, refused + " Inspector records skipped in all (out-of-range "
                    + "numbers, negative ranks, over-long names or past the limits); the first " + MAX_REPORTED
                    + " are named above"));
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
