package org.fabricscope.importers.forensics;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.importers.core.Numbers;
import org.fabricscope.importers.core.TextLines;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.forensics.RasCommunicator;
import org.fabricscope.model.forensics.RasEvent;
import org.fabricscope.model.forensics.RasProcess;
import org.fabricscope.model.forensics.RasRank;
import org.fabricscope.model.forensics.RasStatus;

/**
 * The text form of NCCL RAS output: Job summary, Communicators table, Errors and Warnings blocks and
 * monitor-mode events; several reports in one file are several statuses. Every number is range-checked
 * ({@link Numbers}): ranks, pids, GPU numbers, group numbers and sizes, rank and missing counts are C
 * {@code int}s, operation counts 0..2^63-1. A number out of range skips its line with a diagnostic
 * naming the line; the numbers of a line are all read before the report is changed, so nothing of a
 * skipped line is half kept.
 */
final class RasText {
    static final Pattern VERSION = Pattern.compile("^NCCL version (\\S+) compiled with CUDA.*");
    private static final Pattern TABLE_ROW = Pattern.compile(
            "^\\s*(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)\\s+(\\S+)\\s*$");
    static final Pattern COMM_BLOCK = Pattern.compile("^#(\\d+)-(\\d+) \\((?:0x)?([0-9a-fA-F]+)\\) ([A-Z_,]+)\\s*$");
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
    private static final Pattern THE_MISSING_RANKS = Pattern.compile("^The missing ranks?: (.+)$");
    static final Pattern PROCESS = Pattern.compile("^Process (\\d+) on node (\\S+)(?: managing GPUs? (.+?))?\\s*$");
    private static final Pattern NODE_PROCESSES = Pattern.compile("^Node (\\S+) running process(?:es)? (.+?)\\s*$");
    private static final Pattern TIMEOUTS = Pattern.compile("^Encountered (\\d+) communication timeouts?.*");
    static final Pattern EVENT = Pattern.compile("^\\[(\\d{4}-\\d\\d-\\d\\d[ T]\\d\\d:\\d\\d:\\d\\d[^\\]]*)\\] ([A-Z][A-Z_]+): (.*)$");
    private static final long INT = Integer.MAX_VALUE;

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

    private final String source;
    private final List<Diagnostic> problems;
    private final List<RasStatus> out = new ArrayList<>();
    private Report rep = new Report();
    private String section = "";
    private String block = "";
    private CommDraft comm;
    private String op = "collective";
    private long groupCount = -1;
    private String groupStatus = "";
    private boolean summaryHeader;
    private boolean tableHeader;
    private boolean commsCut;

    RasText(String source, List<Diagnostic> problems) {
        this.source = source;
        this.problems = problems;
    }

    List<RasStatus> read(byte[] bytes, Cancellation cancel) throws IOException {
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
            try {
                line(l, Evidence.at(source, n, l));
            } catch (Numbers.OutOfRange e) {
                problems.add(Diagnostic.warning(source, n, e.getMessage() + "; RAS line skipped: "
                        + FlightRecorderReader.abbreviate(l)));
            }
        }
        if (rep.any) {
            out.add(finish());
        }
        if (out.isEmpty()) {
            problems.add(Diagnostic.warning(source, 1, "no RAS report found; nothing read"));
        }
        return out;
    }

    private void line(String l, Evidence ev) {
        Matcher m = VERSION.matcher(l);
        if (m.matches()) {
            if (rep.any) {
                out.add(finish());
                rep = new Report();
            }
            rep.version = m.group(1);
            rep.any = true;
            section = "";
            return;
        }
        if (l.equals("Job summary")) {
            section = "job";
            rep.any = true;
            return;
        }
        if (l.startsWith("Communicators...")) {
            section = "comms";
            rep.any = true;
            return;
        }
        if (l.equals("Errors") || l.equals("Warnings")) {
            section = l.toLowerCase(java.util.Locale.ROOT);
            block = "";
            comm = null;
            return;
        }
        if (l.startsWith("RAS Monitor Mode")) {
            section = "monitor";
            rep.any = true;
            return;
        }
        m = EVENT.matcher(l);
        if (m.matches()) {
            Matcher p = PROCESS.matcher(m.group(3));
            int pid = -1;
            String host = "";
            List<Integer> devs = new ArrayList<>();
            if (p.lookingAt()) {
                pid = Numbers.nonNegativeInt(p.group(1), "pid");
                host = p.group(2);
                devs = ints(p.group(3), "GPU");
            }
            rep.events.add(new RasEvent(m.group(1), "", m.group(2), host, pid, devs, m.group(3), ev));
            rep.any = true;
            return;
        }
        if (l.startsWith("Group     Comms")) { // the table, also when an excerpt lacks its "Communicators..." title
            section = "comms";
            tableHeader = true;
            rep.any = true;
            return;
        }
        if (!section.equals("errors") && !section.equals("warnings") && COMM_BLOCK.matcher(l).matches()) {
            section = "warnings";
            rep.any = true;
        }
        switch (section) {
            case "job" -> summary(l);
            case "comms" -> {
                Matcher t = TABLE_ROW.matcher(l);
                if (!l.startsWith("#") && tableHeader && t.matches()) {
                    int group = Numbers.nonNegativeInt(t.group(1), "group");
                    Numbers.nonNegativeInt(t.group(5), "ranks per communicator");
                    rep.table.put(group, new String[] {t.group(5), t.group(7), t.group(8)});
                }
            }
            case "errors", "warnings" -> block(l, ev);
            default -> { }
        }
    }

    /** The line under {@code Nodes ... GPUs} of the Job summary. */
    private void summary(String l) {
        if (l.startsWith("Nodes")) {
            summaryHeader = true;
        } else if (summaryHeader && !l.startsWith("(total)")) {
            String[] v = l.split("\\s+");
            int nodes = rep.nodes;
            int processes = rep.processes;
            int gpus = rep.gpus;
            if (v.length == 5) {
                nodes = num(v[0], "nodes");
                processes = num(v[3], "processes");
                gpus = num(v[4], "GPUs");
            } else if (v.length >= 2) {
                nodes = num(v[0], "nodes");
                processes = num(v[1], "processes");
                gpus = v.length >= 3 ? num(v[2], "GPUs") : -1;
            }
            rep.nodes = nodes;
            rep.processes = processes;
            rep.gpus = gpus;
            summaryHeader = false;
        }
    }

    /** A line of the Errors or Warnings section. */
    private void block(String l, Evidence ev) {
        Matcher cb = COMM_BLOCK.matcher(l);
        if (cb.matches()) {
            int group = Numbers.nonNegativeInt(cb.group(1), "group");
            Numbers.nonNegativeInt(cb.group(2), "communicator");
            String hash = RasStatusReader.hash(cb.group(3));
            if (!rep.comms.containsKey(hash) && rep.comms.size() >= RasStatusReader.MAX_COMMS) {
                if (!commsCut) {
                    commsCut = true;
                    problems.add(Diagnostic.warning(source, ev.line(), "more than " + RasStatusReader.MAX_COMMS
                            + " communicators in one RAS report (RasStatusReader.MAX_COMMS); the rest not read"));
                }
                comm = null;
                block = "";
                return;
            }
            comm = rep.comms.computeIfAbsent(hash, k -> new CommDraft());
            comm.hash = hash;
            comm.label = "#" + cb.group(1) + "-" + cb.group(2);
            comm.group = group;
            for (String k : cb.group(4).split(",")) {
                if (!comm.errors.contains(k) && comm.errors.size() < RasStatusReader.MAX_KINDS) {
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
            return;
        }
        Matcher jb = JOB_BLOCK.matcher(l);
        if (jb.matches()) {
            block = jb.group(1);
            comm = null;
            return;
        }
        if (detail(l, ev)) {
            return;
        }
        // the context of per-rank lines: which counts or status the preceding group line named
        Matcher dc = DIFFERENT_COUNTS.matcher(l);
        if (dc.matches()) {
            op = RasStatusReader.key(dc.group(1));
        }
        Matcher gl = GROUP_LAUNCHED.matcher(l);
        if (gl.matches() && comm != null) {
            int ranks = Numbers.nonNegativeInt(gl.group(1), "rank count");
            long count = gl.group(2) == null ? 0 : Numbers.decimal(gl.group(2), 0, Long.MAX_VALUE, "operation count");
            groupCount = count;
            if (comm.groups.size() < RasStatusReader.MAX_RANKS_PER_COMM) {
                comm.groups.add(new RasCommunicator.CountGroup(op, ranks, count, ev));
            }
        }
        Matcher gs = GROUP_STATUS.matcher(l);
        if (gs.matches()) {
            Numbers.nonNegativeInt(gs.group(1), "rank count");
            groupStatus = gs.group(2);
        }
        if (comm != null && block.startsWith("comm:")) {
            rankLine(l, ev);
        }
    }

    /** Lines of a block that are not about one communicator rank: processes, counts, timeouts. True when one matched. */
    private boolean detail(String l, Evidence ev) {
        boolean dead = block.equals("DEAD");
        Matcher m = PROCESS.matcher(l);
        if (m.matches() && comm == null) {
            RasProcess p = new RasProcess(m.group(2), Numbers.nonNegativeInt(m.group(1), "pid"),
                    m.group(3) == null ? "" : m.group(3), dead, ev);
            add(dead ? rep.dead : rep.missing, p);
            return true;
        }
        m = NODE_PROCESSES.matcher(l);
        if (m.matches() && comm == null) {
            for (int pid : ints(m.group(2), "pid")) {
                add(dead ? rep.dead : rep.missing, new RasProcess(m.group(1), pid, "", dead, ev));
            }
            return true;
        }
        m = MISSING_RANKS.matcher(l);
        if (m.matches() && comm != null) {
            comm.missingCount = Numbers.nonNegativeInt(m.group(1), "missing rank count");
            return true;
        }
        m = THE_MISSING_RANKS.matcher(l);
        if (m.matches() && comm != null) {
            for (int r : ints(m.group(1), "rank")) {
                add(comm.missing, new RasRank(r, "", -1, -1, -1, Map.of(), "", true, false, false, ev));
            }
            return true;
        }
        m = TIMEOUTS.matcher(l);
        if (m.matches()) {
            long sum = rep.timeouts + (long) Numbers.nonNegativeInt(m.group(1), "timeout count");
            if (sum > INT) {
                throw new Numbers.OutOfRange("timeout count (sum)", Long.toString(sum), "0.." + INT);
            }
            rep.timeouts = (int) sum;
            return true;
        }
        return false;
    }

    private static <T> void add(List<T> list, T item) {
        if (list.size() < RasStatusReader.MAX_RANKS_PER_COMM) {
            list.add(item);
        }
    }

    /** {@code Rank R -- GPU G managed by process P on node H} and its variants with counts or a status. */
    private void rankLine(String l, Evidence ev) {
        Matcher m = RANK_LAUNCHED.matcher(l);
        if (m.matches()) {
            long count = m.group(2) == null ? 0 : Numbers.decimal(m.group(2), 0, Long.MAX_VALUE, "operation count");
            putRank(ranked(m, 3, ev, Map.of(op, count), "", false));
            return;
        }
        m = RANK_STATUS.matcher(l);
        if (m.matches()) {
            putRank(ranked(m, 3, ev, Map.of(), m.group(2), false));
            return;
        }
        m = RANK_PROC.matcher(l);
        if (m.matches()) {
            if (block.contains("INCOMPLETE") && groupCount < 0 && groupStatus.isEmpty()) {
                add(comm.missing, ranked(m, 2, ev, Map.of(), "", true));
            } else {
                Map<String, Long> counts = groupCount >= 0 ? Map.of(op, groupCount) : Map.of();
                putRank(ranked(m, 2, ev, counts, groupStatus, false));
            }
        }
    }

    private void putRank(RasRank r) {
        if (comm.ranks.size() < RasStatusReader.MAX_RANKS_PER_COMM) {
            comm.ranks.merge(r.rank(), r, (a, b) -> {
                Map<String, Long> counts = new LinkedHashMap<>(a.collectiveCounts());
                if (counts.size() < RasStatusReader.MAX_KINDS) {
                    counts.putAll(b.collectiveCounts());
                }
                return new RasRank(a.rank(), a.host(), a.pid(), a.cudaDev(), a.nvmlDev(), counts,
                        b.status().isEmpty() ? a.status() : b.status(), false, false, false, a.evidence());
            });
        }
    }

    /** A rank from a matched line whose process groups start at {@code at}: GPU, NVML, pid, node. */
    private static RasRank ranked(Matcher m, int at, Evidence ev, Map<String, Long> counts, String status, boolean missing) {
        int rank = Numbers.checkedInt(m.group(1), "rank");
        boolean found = m.group(at + 2) != null;
        int cuda = found ? num(m.group(at), "GPU") : -1;
        int nvml = found && m.group(at + 1) != null ? Numbers.nonNegativeInt(m.group(at + 1), "NVML device") : cuda;
        int pid = found ? Numbers.nonNegativeInt(m.group(at + 2), "pid") : -1;
        return new RasRank(rank, found ? m.group(at + 3) : "", pid, cuda, nvml, counts, status, missing, missing, false, ev);
    }

    private RasStatus finish() {
        List<RasCommunicator> comms = new ArrayList<>();
        for (CommDraft c : rep.comms.values()) {
            String[] row = rep.table.get(c.group);
            int perComm = row == null ? -1 : num(row[0], "ranks per communicator");
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
                missing = RasStatusReader.plausible(missing, bound, source, c.hash, problems);
            }
            comms.add(new RasCommunicator(c.hash, c.label, perComm, row == null ? "" : row[1], c.errors,
                    new ArrayList<>(c.ranks.values()), missing, c.missingCount, c.groups, c.evidence));
        }
        return new RasStatus(source, rep.events.isEmpty() || !rep.comms.isEmpty() ? "text" : "text-monitor", rep.version,
                "", rep.nodes, rep.processes, rep.gpus, comms, rep.missing, rep.dead, rep.events, rep.timeouts);
    }

    /** The numbers of a list ({@code 0, 1, 5} or {@code 0 1 5}); words in it are passed over, a number out of range is not. */
    private static List<Integer> ints(String s, String field) {
        List<Integer> out = new ArrayList<>();
        if (s == null) {
            return out;
        }
        for (String t : s.split("[,\\s]+")) {
            int v = num(t, field);
            if (v >= 0 && out.size() < RasStatusReader.MAX_RANKS_PER_COMM) {
                out.add(v);
            }
        }
        return out;
    }

    /** A C {@code int} when the text is a decimal ({@link Numbers.OutOfRange} past the range), -1 when it is not one. */
    private static int num(String s, String field) {
        String t = s.strip();
        return Numbers.isDecimal(t) ? Numbers.checkedInt(t, field) : -1;
    }
}
