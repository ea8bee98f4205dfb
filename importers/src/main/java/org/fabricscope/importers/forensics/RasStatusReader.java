package org.fabricscope.importers.forensics;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.importers.core.TextLines;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.forensics.RasCommunicator;
import org.fabricscope.model.forensics.RasEvent;
import org.fabricscope.model.forensics.RasProcess;
import org.fabricscope.model.forensics.RasRank;
import org.fabricscope.model.forensics.RasStatus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;

/**
 * NCCL RAS status output ({@code ncclras}, or {@code STATUS} / {@code VERBOSE STATUS} on port 28028):
 * the text form (Job summary, Communicators table, Errors and Warnings with {@code INCOMPLETE},
 * {@code DEAD}, {@code MISMATCH}, {@code ERROR}, {@code TIMEOUT} blocks), the JSON form (NCCL 2.28.7+,
 * {@code ncclras -f json} / {@code SET FORMAT json}) and monitor-mode events (text and JSON, NCCL 2.29+).
 * Several text reports in one file (a query loop) are read as several statuses. Ranks are named by
 * node address, pid and GPU; the checks join them to pods through the NCCL log lines' {@code host:pid}
 * prefixes. RAS output that contradicts itself (more missing ranks than the job has GPUs) is kept out
 * with a diagnostic; JSON with missing commas (NCCL 2.28.9 writes none after {@code nvml_dev} in
 * {@code missing_ranks}) is repaired with a diagnostic.
 */
public final class RasStatusReader {
    public static final String ID = "nccl-ras";
    public static final String LABEL = "NCCL RAS status (ncclras text or JSON, monitor events)";
    static final int MAX_BYTES = 64 * 1024 * 1024;
    private static final int MAX_RANKS_PER_COMM = 1 << 20;

    private static final Pattern VERSION = Pattern.compile("^NCCL version (\\S+) compiled with CUDA.*");
    private static final Pattern TABLE_ROW = Pattern.compile(
            "^\\s*(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)\\s+(\\S+)\\s*$");
    private static final Pattern COMM_BLOCK = Pattern.compile("^#(\\d+)-(\\d+) \\((?:0x)?([0-9a-fA-F]+)\\) ([A-Z_,]+)\\s*$");
    private static final Pattern JOB_BLOCK = Pattern.compile("^([A-Z][A-Z_]+)\\s*$");
    private static final String GPU = "GPUs? (\\S+?)(?: \\(NVML (\\d+)\\))?";
    private static final String PROC = "(?:" + GPU + " managed by process (\\d+) on node (\\S+)|\\[process information not found\\])";
    private static final Pattern RANK_PROC = Pattern.compile("^Rank (-?\\d+) -- " + PROC + "\\s*$");
    private static final Pattern RANK_LAUNCHED = Pattern.compile(
            "^Rank (-?\\d+) has (?:launched up to operation (\\d+)|not launched any operations) -- " + PROC + "\\s*$");
    private static final Pattern RANK_STATUS = Pattern.compile("^Rank (-?\\d+) (?:has status|reported) (.+?) -- " + PROC + "\\s*$");
    private static final Pattern GROUP_LAUNCHED = Pattern.compile(
            "^(\\d+) ranks? ha(?:ve|s) (?:launched up to operation (\\d+)|not launched any operations)\\s*$");
    private static final Pattern GROUP_STATUS = Pattern.compile("^(\\d+) ranks? (?:ha(?:ve|s) status|reported) (.+?)\\s*$");
    private static final Pattern DIFFERENT_COUNTS = Pattern.compile("^Communicator ranks have different (\\S+) operation counts.*");
    private static final Pattern MISSING_RANKS = Pattern.compile("^Missing communicator data from (\\d+) ranks?\\s*$");
    private static final Pattern MISSING_PROCS = Pattern.compile("^Missing communicator data from (\\d+) job process(?:es)?\\s*$");
    private static final Pattern THE_MISSING_RANKS = Pattern.compile("^The missing ranks?: (.+)$");
    private static final Pattern PROCESS = Pattern.compile("^Process (\\d+) on node (\\S+)(?: managing GPUs? (.+?))?\\s*$");
    private static final Pattern NODE_PROCESSES = Pattern.compile("^Node (\\S+) running process(?:es)? (.+?)\\s*$");
    private static final Pattern TIMEOUTS = Pattern.compile("^Encountered (\\d+) communication timeouts?.*");
    private static final Pattern EVENT = Pattern.compile("^\\[(\\d{4}-\\d\\d-\\d\\d[ T]\\d\\d:\\d\\d:\\d\\d[^\\]]*)\\] ([A-Z][A-Z_]+): (.*)$");
    private static final Pattern MISSING_COMMA = Pattern.compile("([\"\\d\\]}el])([ \\t]*\\r?\\n[ \\t]*\")");

    /** Text or JSON RAS output, or monitor events, by lines no other tool prints. */
    public static boolean looksLike(List<String> head) {
        String first = FlightRecorderReader.firstNonBlank(head);
        if (first == null) {
            return false;
        }
        if (first.startsWith("{") || first.startsWith("[")) {
            String joined = String.join("\n", head);
            return (joined.contains("\"communicators\"") && (joined.contains("\"nccl_version\"")
                    || joined.contains("\"communicators_count\"") || joined.contains("\"missing_ranks\"")))
                    || (joined.contains("\"event\"") && joined.contains("\"peer\"") && joined.contains("\"group\""));
        }
        boolean jobSummary = false;
        for (int i = 0; i < head.size(); i++) {
            String l = head.get(i).strip();
            if (VERSION.matcher(l).matches() && i + 1 < head.size() && head.get(i + 1).startsWith("CUDA runtime version")) {
                return true;
            }
            if (l.equals("Job summary") && i + 1 < head.size() && head.get(i + 1).strip().startsWith("====")) {
                jobSummary = true;
            }
            if (l.startsWith("Group     Comms     Nodes") || l.startsWith("RAS Monitor Mode")) {
                return true;
            }
            Matcher e = EVENT.matcher(l);
            if (e.matches() && PROCESS.matcher(e.group(3)).lookingAt()) {
                return true;
            }
        }
        return jobSummary;
    }

    /** Reads every report in the input into {@code builder.forensics()}. */
    public void read(InputStream in, String source, FabricModelBuilder builder, Cancellation cancel) throws IOException {
        byte[] bytes = in.readNBytes(MAX_BYTES + 1);
        if (bytes.length > MAX_BYTES) {
            builder.diagnostic(Diagnostic.error(source, 0, "RAS output larger than " + MAX_BYTES + " bytes; not read"));
            return;
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        String t = text.replace("\uFEFF", "").stripLeading();
        List<Diagnostic> problems = new ArrayList<>();
        List<RasStatus> statuses = t.startsWith("{") || t.startsWith("[") ? json(t, source, problems)
                : text(bytes, source, problems, cancel);
        problems.forEach(builder::diagnostic);
        statuses.forEach(builder.forensics()::ras);
    }

    // ---------------------------------------------------------------- JSON

    private List<RasStatus> json(String text, String source, List<Diagnostic> problems) {
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
                out.add(statusJson(root, source, problems));
            } else if (root.has("event")) {
                events.add(eventJson(root, source));
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

    private static List<JsonNode> readAll(String text) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        try (MappingIterator<JsonNode> it = Jsons.MAPPER.readerFor(JsonNode.class).readValues(text)) {
            while (it.hasNextValue()) {
                JsonNode n = it.nextValue();
                if (n.isArray()) {
                    n.forEach(out::add);
                } else {
                    out.add(n);
                }
                if (out.size() > 1_000_000) {
                    break;
                }
            }
        }
        return out;
    }

    private static RasStatus statusJson(JsonNode root, String source, List<Diagnostic> problems) {
        String version = root.path("nccl_version").asText("");
        String timestamp = root.path("timestamp").asText("");
        List<RasCommunicator> comms = new ArrayList<>();
        for (JsonNode c : root.path("communicators")) {
            String hash = hash(c.path("hash").asText(""));
            int size = c.path("size").asInt(-1);
            List<RasRank> ranks = new ArrayList<>();
            for (JsonNode r : c.path("ranks")) {
                ranks.add(rankJson(r, false, source, hash));
            }
            List<RasRank> missing = new ArrayList<>();
            for (JsonNode r : c.path("missing_ranks")) {
                missing.add(rankJson(r, true, source, hash));
            }
            int missingCount = c.path("missing_ranks_count").asInt(missing.size());
            List<RasRank> valid = plausible(missing, size, source, hash, problems);
            List<String> errors = new ArrayList<>();
            if (!valid.isEmpty()) {
                errors.add("INCOMPLETE");
            }
            if (countsDiffer(ranks)) {
                errors.add("MISMATCH");
            }
            comms.add(new RasCommunicator(hash, "", size, "", errors, ranks, valid, missingCount, List.of(),
                    Evidence.at(source, 0, "communicator " + hash + ": size " + size + ", " + ranks.size()
                            + " ranks reported, " + missingCount + " missing")));
        }
        return new RasStatus(source, "json", version, timestamp, -1, -1, -1, comms, List.of(), List.of(), List.of(),
                root.path("ras").path("timeouts_count").asInt(0));
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

    private static RasRank rankJson(JsonNode r, boolean missing, String source, String hash) {
        Map<String, Long> counts = new LinkedHashMap<>();
        r.path("collective_counts").properties().forEach(e -> counts.put(e.getKey(), e.getValue().asLong(0)));
        JsonNode st = r.path("status");
        boolean unresponsive = st.path("unresponsive").asBoolean(false);
        boolean dead = st.path("considered_dead").asBoolean(false);
        String status = "";
        if (st.has("init_state") && st.path("init_state").asInt(0) != 0) {
            status = st.path("init_state").asInt() == 7 ? "INIT" : "INIT_ERROR " + st.path("init_state").asInt();
        } else if (st.path("async_error").asInt(0) != 0) {
            status = "ASYNC_ERROR " + st.path("async_error").asInt();
        } else if (st.path("abort_flag").asBoolean(false)) {
            status = "ABORTED";
        } else if (st.path("finalize_called").asBoolean(false) || st.path("destroy_flag").asBoolean(false)) {
            status = "FINALIZE";
        }
        int rank = r.path("rank").asInt(-1);
        String host = r.path("host").asText("");
        int pid = r.path("pid").asInt(-1);
        int cuda = r.path("cuda_dev").asInt(-1);
        String text = "rank " + rank + " of " + hash + ": host " + host + ", pid " + pid + ", cuda_dev " + cuda
                + (missing ? ", missing" + (unresponsive ? ", unresponsive" : "") + (dead ? ", considered dead" : "")
                        : ", collective_counts " + counts);
        return new RasRank(rank, host, pid, cuda, r.path("nvml_dev").asInt(-1), counts, status, missing, unresponsive,
                dead, Evidence.at(source, 0, text));
    }

    private static RasEvent eventJson(JsonNode e, String source) {
        JsonNode peer = e.path("peer");
        List<Integer> devs = new ArrayList<>();
        peer.path("cuda_devs").forEach(d -> devs.add(d.asInt()));
        String ev = e.path("event").asText("");
        return new RasEvent(e.path("timestamp").asText(""), e.path("group").asText(""), ev, peer.path("host").asText(""),
                peer.path("pid").asInt(-1), devs, e.path("details").asText(""),
                Evidence.at(source, 0, "[" + e.path("timestamp").asText("") + "] " + ev + ": process "
                        + peer.path("pid").asInt(-1) + " on node " + peer.path("host").asText("")));
    }

    /** {@code 0x} and the hex digits without leading zeros ({@code %016lx} in the text, {@code 0x%lx} in JSON). */
    static String hash(String h) {
        String t = h.strip().toLowerCase(java.util.Locale.ROOT);
        String digits = t.startsWith("0x") ? t.substring(2) : t;
        if (digits.isEmpty()) {
            return t;
        }
        try {
            return "0x" + Long.toHexString(Long.parseUnsignedLong(digits, 16));
        } catch (NumberFormatException e) {
            return t.startsWith("0x") ? t : "0x" + t;
        }
    }

    /**
     * The missing ranks, unless RAS listed more than the communicator can have (a defect of NCCL 2.28's
     * RAS lists bytes of its own output buffer as ranks of a communicator still initialising): then none.
     */
    private static List<RasRank> plausible(List<RasRank> missing, int bound, String source, String hash,
                                           List<Diagnostic> problems) {
        if (missing.isEmpty()) {
            return missing;
        }
        int bad = 0;
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (RasRank r : missing) {
            if (r.rank() < 0 || (bound > 0 && r.rank() >= bound) || r.rank() >= MAX_RANKS_PER_COMM || !seen.add(r.rank())) {
                bad++;
            }
        }
        if ((bound > 0 && missing.size() > bound) || bad > 0) {
            problems.add(Diagnostic.warning(source, missing.get(0).evidence().line(), "RAS lists " + missing.size()
                    + " missing ranks of communicator " + hash + (bound > 0 ? " (at most " + bound + " possible)" : "")
                    + ", " + bad + " of them impossible (negative, out of range or repeated): the list contradicts "
                    + "itself and is not used"));
            return List.of();
        }
        return missing;
    }

    // ---------------------------------------------------------------- text

    /** One text report being read. */
    private static final class Report {
        String version = "";
        int nodes = -1;
        int processes = -1;
        int gpus = -1;
        int timeouts;
        boolean any;
        final Map<Integer, String[]> table = new LinkedHashMap<>();
        final Map<String, CommDraft> comms = new LinkedHashMap<>();
        final List<RasProcess> missing = new ArrayList<>();
        final List<RasProcess> dead = new ArrayList<>();
        final List<RasEvent> events = new ArrayList<>();
    }

    private static final class CommDraft {
        String hash;
        String label;
        int group;
        final List<String> errors = new ArrayList<>();
        final Map<Integer, RasRank> ranks = new LinkedHashMap<>();
        final List<RasRank> missing = new ArrayList<>();
        int missingCount = -1;
        final List<RasCommunicator.CountGroup> groups = new ArrayList<>();
        Evidence evidence;
    }

    private List<RasStatus> text(byte[] bytes, String source, List<Diagnostic> problems, Cancellation cancel)
            throws IOException {
        List<RasStatus> out = new ArrayList<>();
        Report rep = new Report();
        String section = "";
        String block = "";
        CommDraft comm = null;
        String op = "collective";
        long groupCount = -1;
        String groupStatus = "";
        boolean summaryHeader = false;
        boolean tableHeader = false;
        TextLines lines = new TextLines(new ByteArrayInputStream(bytes));
        String raw;
        while ((raw = lines.next()) != null) {
            int n = lines.lineNumber();
            if ((n & 0xfff) == 0 && cancel.isCancelled()) {
                throw new ImportCancelledException();
            }
            String l = raw.strip();
            if (l.isEmpty() || l.startsWith("====")) {
                continue;
            }
            Matcher m = VERSION.matcher(l);
            if (m.matches()) {
                if (rep.any) {
                    out.add(finish(rep, source, problems));
                    rep = new Report();
                }
                rep.version = m.group(1);
                rep.any = true;
                section = "";
                continue;
            }
            Evidence ev = Evidence.at(source, n, l);
            if (l.equals("Job summary")) {
                section = "job";
                rep.any = true;
                continue;
            }
            if (l.startsWith("Communicators...")) {
                section = "comms";
                rep.any = true;
                continue;
            }
            if (l.equals("Errors") || l.equals("Warnings")) {
                section = l.toLowerCase(java.util.Locale.ROOT);
                block = "";
                comm = null;
                continue;
            }
            if (l.startsWith("RAS Monitor Mode")) {
                section = "monitor";
                rep.any = true;
                continue;
            }
            m = EVENT.matcher(l);
            if (m.matches()) {
                Matcher p = PROCESS.matcher(m.group(3));
                int pid = -1;
                String host = "";
                List<Integer> devs = new ArrayList<>();
                if (p.lookingAt()) {
                    pid = Integer.parseInt(p.group(1));
                    host = p.group(2);
                    devs = ints(p.group(3));
                }
                rep.events.add(new RasEvent(m.group(1), "", m.group(2), host, pid, devs, m.group(3), ev));
                rep.any = true;
                continue;
            }
            if (l.startsWith("Group     Comms")) { // the table, also when an excerpt lacks its "Communicators..." title
                section = "comms";
                tableHeader = true;
                rep.any = true;
                continue;
            }
            if (!section.equals("errors") && !section.equals("warnings") && COMM_BLOCK.matcher(l).matches()) {
                section = "warnings";
                rep.any = true;
            }
            switch (section) {
                case "job" -> {
                    if (l.startsWith("Nodes")) {
                        summaryHeader = true;
                    } else if (summaryHeader && !l.startsWith("(total)")) {
                        String[] v = l.split("\\s+");
                        if (v.length == 5) {
                            rep.nodes = intOr(v[0]);
                            rep.processes = intOr(v[3]);
                            rep.gpus = intOr(v[4]);
                        } else if (v.length >= 2) {
                            rep.nodes = intOr(v[0]);
                            rep.processes = intOr(v[1]);
                            rep.gpus = v.length >= 3 ? intOr(v[2]) : -1;
                        }
                        summaryHeader = false;
                    }
                }
                case "comms" -> {
                    if (l.startsWith("#")) {
                        continue;
                    } else if (tableHeader) {
                        Matcher t = TABLE_ROW.matcher(l);
                        if (t.matches()) {
                            rep.table.put(Integer.parseInt(t.group(1)), new String[] {t.group(5), t.group(7), t.group(8)});
                        }
                    }
                }
                case "errors", "warnings" -> {
                    Matcher cb = COMM_BLOCK.matcher(l);
                    Matcher jb = JOB_BLOCK.matcher(l);
                    if (cb.matches()) {
                        String hash = hash(cb.group(3));
                        comm = rep.comms.computeIfAbsent(hash, k -> new CommDraft());
                        comm.hash = hash;
                        comm.label = "#" + cb.group(1) + "-" + cb.group(2);
                        comm.group = Integer.parseInt(cb.group(1));
                        for (String k : cb.group(4).split(",")) {
                            if (!comm.errors.contains(k)) {
                                comm.errors.add(k);
                            }
                        }
                        if (comm.evidence == null) {
                            comm.evidence = ev;
                        }
                        block = "comm:" + cb.group(4);
                        op = "collective";
                        groupCount = -1;
                        groupStatus = "";
                        continue;
                    }
                    if (jb.matches()) {
                        block = jb.group(1);
                        comm = null;
                        continue;
                    }
                    detail(l, ev, rep, comm, block, problems);
                    // the context of per-rank lines: which counts or status the preceding group line named
                    Matcher dc = DIFFERENT_COUNTS.matcher(l);
                    if (dc.matches()) {
                        op = dc.group(1);
                    }
                    Matcher gl = GROUP_LAUNCHED.matcher(l);
                    if (gl.matches() && comm != null) {
                        groupCount = gl.group(2) == null ? 0 : Long.parseLong(gl.group(2));
                        comm.groups.add(new RasCommunicator.CountGroup(op, Integer.parseInt(gl.group(1)), groupCount, ev));
                    }
                    Matcher gs = GROUP_STATUS.matcher(l);
                    if (gs.matches()) {
                        groupStatus = gs.group(2);
                    }
                    if (comm != null && block.startsWith("comm:")) {
                        rankLine(l, ev, comm, block, op, groupCount, groupStatus);
                    }
                }
                default -> { }
            }
        }
        if (rep.any) {
            out.add(finish(rep, source, problems));
        }
        if (out.isEmpty()) {
            problems.add(Diagnostic.warning(source, 1, "no RAS report found; nothing read"));
        }
        return out;
    }

    /** Lines of a block that are not about one communicator rank: processes, counts, timeouts. */
    private static void detail(String l, Evidence ev, Report rep, CommDraft comm, String block, List<Diagnostic> problems) {
        Matcher m = PROCESS.matcher(l);
        if (m.matches() && comm == null) {
            RasProcess p = new RasProcess(m.group(2), Integer.parseInt(m.group(1)), m.group(3) == null ? "" : m.group(3),
                    block.equals("DEAD"), ev);
            (block.equals("DEAD") ? rep.dead : rep.missing).add(p);
            return;
        }
        m = NODE_PROCESSES.matcher(l);
        if (m.matches() && comm == null) {
            for (int pid : ints(m.group(2))) {
                RasProcess p = new RasProcess(m.group(1), pid, "", block.equals("DEAD"), ev);
                (block.equals("DEAD") ? rep.dead : rep.missing).add(p);
            }
            return;
        }
        m = MISSING_RANKS.matcher(l);
        if (m.matches() && comm != null) {
            comm.missingCount = Integer.parseInt(m.group(1));
            return;
        }
        m = THE_MISSING_RANKS.matcher(l);
        if (m.matches() && comm != null) {
            for (int r : ints(m.group(1))) {
                comm.missing.add(new RasRank(r, "", -1, -1, -1, Map.of(), "", true, false, false, ev));
            }
            return;
        }
        m = TIMEOUTS.matcher(l);
        if (m.matches()) {
            rep.timeouts += Integer.parseInt(m.group(1));
        }
    }

    /** {@code Rank R -- GPU G managed by process P on node H} and its variants with counts or a status. */
    private static void rankLine(String l, Evidence ev, CommDraft comm, String block, String op, long groupCount,
                                 String groupStatus) {
        Matcher m = RANK_LAUNCHED.matcher(l);
        if (m.matches()) {
            long count = m.group(2) == null ? 0 : Long.parseLong(m.group(2));
            putRank(comm, ranked(m, 3, ev, Map.of(op, count), "", false));
            return;
        }
        m = RANK_STATUS.matcher(l);
        if (m.matches()) {
            putRank(comm, ranked(m, 3, ev, Map.of(), m.group(2), false));
            return;
        }
        m = RANK_PROC.matcher(l);
        if (m.matches()) {
            if (block.contains("INCOMPLETE") && groupCount < 0 && groupStatus.isEmpty()) {
                comm.missing.add(ranked(m, 2, ev, Map.of(), "", true));
            } else {
                Map<String, Long> counts = groupCount >= 0 ? Map.of(op, groupCount) : Map.of();
                putRank(comm, ranked(m, 2, ev, counts, groupStatus, false));
            }
        }
    }

    private static void putRank(CommDraft comm, RasRank r) {
        if (comm.ranks.size() < MAX_RANKS_PER_COMM) {
            comm.ranks.merge(r.rank(), r, (a, b) -> {
                Map<String, Long> counts = new LinkedHashMap<>(a.collectiveCounts());
                counts.putAll(b.collectiveCounts());
                return new RasRank(a.rank(), a.host(), a.pid(), a.cudaDev(), a.nvmlDev(), counts,
                        b.status().isEmpty() ? a.status() : b.status(), false, false, false, a.evidence());
            });
        }
    }

    /** A rank from a matched line whose process groups start at {@code at}: GPU, NVML, pid, node. */
    private static RasRank ranked(Matcher m, int at, Evidence ev, Map<String, Long> counts, String status, boolean missing) {
        int rank = intOr(m.group(1));
        boolean found = m.group(at + 2) != null;
        int cuda = found ? intOr(m.group(at)) : -1;
        int nvml = found && m.group(at + 1) != null ? intOr(m.group(at + 1)) : cuda;
        return new RasRank(rank, found ? m.group(at + 3) : "", found ? intOr(m.group(at + 2)) : -1, cuda, nvml, counts,
                status, missing, missing, false, ev);
    }

    private static RasStatus finish(Report rep, String source, List<Diagnostic> problems) {
        List<RasCommunicator> comms = new ArrayList<>();
        for (CommDraft c : rep.comms.values()) {
            String[] row = rep.table.get(c.group);
            int perComm = row == null ? -1 : intOr(row[0]);
            int bound = perComm > 0 ? perComm : rep.gpus;
            List<RasRank> missing = c.missing;
            if (c.missingCount > 0 && bound > 0 && c.missingCount > bound) {
                problems.add(Diagnostic.warning(source, c.evidence == null ? 0 : c.evidence.line(), "RAS reports "
                        + c.missingCount + " missing ranks of communicator " + c.hash + " (" + c.label + ", "
                        + (perComm > 0 ? perComm + " ranks per communicator" : "a job of " + rep.gpus + " GPUs")
                        + (row != null ? ", status " + row[1] : "") + "): the report contradicts itself; "
                        + "its rank list is not used"));
                missing = List.of();
            } else {
                missing = plausible(missing, bound, source, c.hash, problems);
            }
            comms.add(new RasCommunicator(c.hash, c.label, perComm, row == null ? "" : row[1], c.errors,
                    new ArrayList<>(c.ranks.values()), missing, c.missingCount, c.groups, c.evidence));
        }
        return new RasStatus(source, rep.events.isEmpty() || !rep.comms.isEmpty() ? "text" : "text-monitor", rep.version,
                "", rep.nodes, rep.processes, rep.gpus, comms, rep.missing, rep.dead, rep.events, rep.timeouts);
    }

    private static List<Integer> ints(String s) {
        List<Integer> out = new ArrayList<>();
        if (s == null) {
            return out;
        }
        for (String t : s.split("[,\\s]+")) {
            int v = intOr(t);
            if (v >= 0 && out.size() < MAX_RANKS_PER_COMM) {
                out.add(v);
            }
        }
        return out;
    }

    private static int intOr(String s) {
        try {
            return Integer.parseInt(s.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
