package org.fabricscope.importers.forensics;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Numbers;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.forensics.RasCommunicator;
import org.fabricscope.model.forensics.RasEvent;
import org.fabricscope.model.forensics.RasRank;
import org.fabricscope.model.forensics.RasStatus;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The JSON form of NCCL RAS output ({@code ncclras -f json}, NCCL 2.28.7+) and its JSON monitor events.
 * Every number is range-checked ({@link JsonNumbers}): ranks, pids, device numbers, sizes and counts are
 * C {@code int}s (0..2^31-1), collective counts 0..2^63-1; a value outside skips its record (the rank,
 * the communicator or the event) with a diagnostic that names the field, the value and its line.
 */
final class RasJson {
    /** Most JSON values (statuses and events) read from one file. */
    static final int MAX_VALUES = 1_000_000;
    private static final long INT = Integer.MAX_VALUE;
    private static final Pattern MISSING_COMMA = Pattern.compile("([\"\\d\\]}el])([ \\t]*\\r?\\n[ \\t]*\")");

    private final String text;
    private final String source;
    private final List<Diagnostic> problems;

    RasJson(String text, String source, List<Diagnostic> problems) {
        this.text = text;
        this.source = source;
        this.problems = problems;
    }

    List<RasStatus> read() {
        List<JsonNode> roots;
        try {
            roots = readAll(text);
        } catch (IOException first) {
            Matcher m = MISSING_COMMA.matcher(text);
            StringBuilder sb = new StringBuilder();
            int n = 0;
            while (m.find()) {
                m.appendReplacement(sb, Matcher.quoteReplacement(m.group(1) + "," + m.group(2)));
                n++;
            }
            m.appendTail(sb);
            try {
                roots = n == 0 ? null : readAll(sb.toString());
            } catch (IOException second) {
                roots = null;
            }
            if (roots == null) {
                problems.add(Diagnostic.error(source, 0, "RAS JSON not read: " + Jsons.brief(first)));
                return List.of();
            }
            problems.add(Diagnostic.warning(source, 0, "RAS JSON is malformed (" + Jsons.brief(first) + "): " + n
                    + " comma" + (n == 1 ? "" : "s") + " missing between fields, as NCCL 2.28.9's RAS writes after "
                    + "\"nvml_dev\" in missing_ranks; read after inserting " + (n == 1 ? "it" : "them")));
        }
        List<RasStatus> out = new ArrayList<>();
        List<RasEvent> events = new ArrayList<>();
        for (JsonNode root : roots) {
            if (root.has("communicators") || root.has("nccl_version")) {
                out.add(status(root));
            } else if (root.has("event")) {
                try {
                    events.add(event(root));
                } catch (Numbers.OutOfRange e) {
                    skipped(e, "RAS event");
                }
            }
        }
        if (!events.isEmpty()) {
            out.add(new RasStatus(source, "json-monitor", "", "", -1, -1, -1, List.of(), List.of(), List.of(), events, 0));
        }
        if (out.isEmpty()) {
            problems.add(Diagnostic.warning(source, 0, "RAS JSON with neither communicators nor events; nothing read"));
        }
        return out;
    }

    private void skipped(Numbers.OutOfRange e, String what) {
        problems.add(Diagnostic.warning(source, JsonNumbers.lineOf(text, e.text()), e.getMessage() + "; " + what
                + " skipped"));
    }

    private List<JsonNode> readAll(String json) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        try (JsonValues values = new JsonValues(Jsons.FACTORY.createParser(json))) {
            for (JsonNode n = values.next(); n != null; n = values.next()) {
                if (n.isArray()) {
                    n.forEach(out::add);
                } else {
                    out.add(n);
                }
                if (out.size() > MAX_VALUES) {
                    problems.add(Diagnostic.warning(source, 0, "more than " + MAX_VALUES
                            + " RAS JSON values (RasJson.MAX_VALUES); read the first " + MAX_VALUES));
                    out.subList(MAX_VALUES, out.size()).clear();
                    break;
                }
            }
        }
        return out;
    }

    private RasStatus status(JsonNode root) {
        String version = root.path("nccl_version").asText("");
        String timestamp = root.path("timestamp").asText("");
        List<RasCommunicator> comms = new ArrayList<>();
        for (JsonNode c : root.path("communicators")) {
            if (comms.size() >= RasStatusReader.MAX_COMMS) {
                problems.add(Diagnostic.warning(source, 0, "more than " + RasStatusReader.MAX_COMMS
                        + " communicators in one RAS status (RasStatusReader.MAX_COMMS); read the first"));
                break;
            }
            try {
                comms.add(communicator(c));
            } catch (Numbers.OutOfRange e) {
                skipped(e, "RAS communicator " + RasStatusReader.hash(c.path("hash").asText("")));
            }
        }
        int timeouts = 0;
        try {
            timeouts = JsonNumbers.intField(root.path("ras"), "timeouts_count", 0, 0, INT);
        } catch (Numbers.OutOfRange e) {
            skipped(e, "RAS timeout count");
        }
        return new RasStatus(source, "json", version, timestamp, -1, -1, -1, comms, List.of(), List.of(), List.of(),
                timeouts);
    }

    private RasCommunicator communicator(JsonNode c) {
        String hash = RasStatusReader.hash(c.path("hash").asText(""));
        int size = JsonNumbers.intField(c, "size", -1, -1, INT);
        List<RasRank> ranks = new ArrayList<>();
        for (JsonNode r : c.path("ranks")) {
            rank(r, false, hash, ranks);
        }
        List<RasRank> missing = new ArrayList<>();
        for (JsonNode r : c.path("missing_ranks")) {
            rank(r, true, hash, missing);
        }
        int missingCount = JsonNumbers.intField(c, "missing_ranks_count", missing.size(), 0, INT);
        List<RasRank> valid = RasStatusReader.plausible(missing, size, source, hash, problems);
        List<String> errors = new ArrayList<>();
        if (!valid.isEmpty()) {
            errors.add("INCOMPLETE");
        }
        if (countsDiffer(ranks)) {
            errors.add("MISMATCH");
        }
        return new RasCommunicator(hash, "", size, "", errors, ranks, valid, missingCount, List.of(),
                Evidence.at(source, 0, "communicator " + hash + ": size " + size + ", " + ranks.size()
                        + " ranks reported, " + missingCount + " missing"));
    }

    private static boolean countsDiffer(List<RasRank> ranks) {
        Map<String, Long> first = null;
        for (RasRank r : ranks) {
            if (first == null) {
                first = r.collectiveCounts();
            } else if (!first.equals(r.collectiveCounts())) {
                return true;
            }
        }
        return false;
    }

    /** Adds the rank to {@code into} (at most {@link RasStatusReader#MAX_RANKS_PER_COMM}); one out of range is skipped. */
    private void rank(JsonNode r, boolean missing, String hash, List<RasRank> into) {
        if (into.size() >= RasStatusReader.MAX_RANKS_PER_COMM) {
            return;
        }
        try {
            into.add(rankJson(r, missing, hash));
        } catch (Numbers.OutOfRange e) {
            skipped(e, (missing ? "missing rank" : "rank") + " of RAS communicator " + hash);
        }
    }

    private RasRank rankJson(JsonNode r, boolean missing, String hash) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : r.path("collective_counts").properties()) {
            if (counts.size() >= RasStatusReader.MAX_KINDS) {
                break;
            }
            counts.put(RasStatusReader.key(e.getKey()), JsonNumbers.value(e.getValue(), "collective count", 0, 0,
                    Long.MAX_VALUE));
        }
        JsonNode st = r.path("status");
        boolean unresponsive = st.path("unresponsive").asBoolean(false);
        boolean dead = st.path("considered_dead").asBoolean(false);
        String status = "";
        int init = JsonNumbers.intField(st, "init_state", 0, Integer.MIN_VALUE, INT);
        int async = JsonNumbers.intField(st, "async_error", 0, Integer.MIN_VALUE, INT);
        if (init != 0) {
            status = init == 7 ? "INIT" : "INIT_ERROR " + init;
        } else if (async != 0) {
            status = "ASYNC_ERROR " + async;
        } else if (st.path("abort_flag").asBoolean(false)) {
            status = "ABORTED";
        } else if (st.path("finalize_called").asBoolean(false) || st.path("destroy_flag").asBoolean(false)) {
            status = "FINALIZE";
        }
        int rank = JsonNumbers.intField(r, "rank", -1, Integer.MIN_VALUE, INT);
        String host = r.path("host").asText("");
        int pid = JsonNumbers.intField(r, "pid", -1, -1, INT);
        int cuda = JsonNumbers.intField(r, "cuda_dev", -1, -1, INT);
        int nvml = JsonNumbers.intField(r, "nvml_dev", -1, -1, INT);
        String line = "rank " + rank + " of " + hash + ": host " + host + ", pid " + pid + ", cuda_dev " + cuda
                + (missing ? ", missing" + (unresponsive ? ", unresponsive" : "") + (dead ? ", considered dead" : "")
                        : ", collective_counts " + counts);
        return new RasRank(rank, host, pid, cuda, nvml, counts, status, missing, unresponsive, dead,
                Evidence.at(source, 0, line));
    }

    private RasEvent event(JsonNode e) {
        JsonNode peer = e.path("peer");
        List<Integer> devs = new ArrayList<>();
        for (JsonNode d : peer.path("cuda_devs")) {
            if (devs.size() < RasStatusReader.MAX_RANKS_PER_COMM) {
                devs.add((int) JsonNumbers.value(d, "cuda_dev", -1, -1, INT));
            }
        }
        int pid = JsonNumbers.intField(peer, "pid", -1, -1, INT);
        String ev = e.path("event").asText("");
        return new RasEvent(e.path("timestamp").asText(""), e.path("group").asText(""), ev, peer.path("host").asText(""),
                pid, devs, e.path("details").asText(""),
                Evidence.at(source, 0, "[" + e.path("timestamp").asText("") + "] " + ev + ": process "
                        + pid + " on node " + peer.path("host").asText("")));
    }
}
