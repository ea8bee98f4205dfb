package org.fabricscope.importers.logs;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.Cancellation;
import org.fabricscope.importers.ImportCancelledException;
import org.fabricscope.importers.TextLines;
import org.fabricscope.model.Diagnostic;
import org.fabricscope.model.Evidence;
import org.fabricscope.model.training.ChannelLink;
import org.fabricscope.model.training.NcclEvent;
import org.fabricscope.model.training.Rank;
import org.fabricscope.model.training.TrainingLog;
import org.fabricscope.model.training.Transport;

/**
 * Reads NCCL {@code NCCL_DEBUG=INFO} output and the PyTorch/torchrun lines around it, as per-rank
 * files, launcher-combined output or {@code kubectl logs} (with or without timestamps). Launcher
 * decorations are stripped first ({@code [N] }, {@code [1,0]<stdout>:}, OpenMPI and Kubernetes
 * timestamps, NCCL 2.26+'s {@code [YYYY-MM-DD HH:MM:SS] } before WARN), then each line is matched
 * by the formats of NCCL 2.7 to 2.30 (see docs/formats.md). Lines it does not know are ignored:
 * logs are mostly other text.
 */
public final class NcclLogParser {
    private static final Pattern DECORATION = Pattern.compile(
            "^(?:\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(?:\\.\\d+)?(?:Z|[+-]\\d\\d:?\\d\\d) )?"   // kubectl --timestamps
                    + "(?:\\w{3} \\w{3} +\\d+ \\d\\d:\\d\\d:\\d\\d \\d{4})?"                        // OpenMPI --timestamp-output
                    + "(?:\\[\\d+,\\d+\\]<std(?:out|err)>:)?"                                     // OpenMPI --tag-output
                    + "(?:\\[\\d+\\] )?"                                                          // rank tag
                    + "(?:\\[\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\] )?");                   // NCCL 2.26+ WARN time
    private static final Pattern VERSION = Pattern.compile("^NCCL version (\\d+\\.\\d+\\.\\d+)\\S*");
    private static final Pattern INIT = Pattern.compile(
            "(?:\\[Rank \\d+\\] )?(?:\\w+ )?comm (0x[0-9a-fA-F]+) rank (\\d+) nranks (\\d+) cudaDev (\\d+)"
                    + "(?: nvmlDev (\\d+))? busId ([0-9a-fA-F]+)(?: commId (0x[0-9a-fA-F]+))?.*? - Init (START|COMPLETE)");
    private static final Pattern NET_IB_USING = Pattern.compile("^NET/IB ?: Using((?: \\[\\d+\\]\\S+?:\\d+/\\w+)*)");
    private static final Pattern NET_DEVICE = Pattern.compile("\\[\\d+\\](\\S+?:\\d+/\\w+)");
    private static final Pattern NET_SOCKET_USING = Pattern.compile("^NET/Socket ?: Using((?: \\[\\d+\\]\\S+)*)");
    private static final Pattern SOCKET_DEVICE = Pattern.compile("\\[\\d+\\](\\S+)");
    private static final Pattern USING_NETWORK = Pattern.compile("^Using network (\\S+)");
    private static final Pattern ENV = Pattern.compile("^(NCCL_\\w+) set (?:by environment )?to (.*?)\\.?$");
    private static final Pattern CHANNEL = Pattern.compile(
            "^Channel (\\d+)(?:/\\d+)? : (\\d+)\\[[0-9a-fA-F]+\\] -> (\\d+)\\[[0-9a-fA-F]+\\](?: \\[(send|receive)\\])? via (\\S+)");
    private static final Pattern NET_VIA = Pattern.compile("^NET/[^/]+/(\\d+)");
    private static final Pattern VERBS = Pattern.compile("Call to (\\w+) failed(?: with error (.*?))?(?: errno (\\d+))?\\s*$");
    private static final Pattern COMPLETION = Pattern.compile(
            "Got completion (?:from peer (\\S+) )?with (?:error (\\d+)|status=(?:(\\w+)\\()?(\\d+)\\)?)"
                    + ".*?vendor[ _]err[ =]?(\\d+)");
    private static final Pattern SOCKET_CLOSED = Pattern.compile("Connection closed by remote peer (\\S+)");
    private static final Pattern WATCHDOG = Pattern.compile(
            "\\[Rank (\\d+)\\] (?:.*?)WorkNCCL\\(SeqNum=(\\d+), OpType=(\\w+)(?:, NumelIn=(\\d+), NumelOut=(\\d+))?, "
                    + "Timeout\\(ms\\)=(\\d+)\\) ran for (\\d+) milliseconds");
    private static final Pattern WATCHDOG_PROGRESS = Pattern.compile(
            "Rank (\\d+)\\].*?(?:at work(?: sequence id)?: (\\d+)).*?last enqueued (?:NCCL )?work: (\\d+), last completed (?:NCCL )?work: (\\d+)");
    private static final Pattern PROCESS_FAILED = Pattern.compile(
            "failed \\(exitcode: (-?\\d+)\\) local_rank: (\\d+) \\(pid: (\\d+)\\)");

    private final TrainingLog log;
    private final List<Diagnostic> diagnostics;
    private String source;
    private int lineNumber;
    /** Per process ({@code host:pid}): its version, network facts, env, and the communicator it is setting up. */
    private final Map<String, ProcessState> processes = new HashMap<>();

    private static final class ProcessState {
        String version;
        List<String> netDevices = new ArrayList<>();
        String network;
        boolean noIbDevice;
        Map<String, String> env = new LinkedHashMap<>();
        String currentComm = "";
    }

    public NcclLogParser(TrainingLog log, List<Diagnostic> diagnostics) {
        this.log = log;
        this.diagnostics = diagnostics;
    }

    public void read(TextLines lines, String source, Cancellation cancel) throws IOException {
        this.source = source;
        String raw;
        while ((raw = lines.next()) != null) {
            lineNumber = lines.lineNumber();
            if ((lineNumber & 0xfff) == 0 && cancel.isCancelled()) {
                throw new ImportCancelledException();
            }
            if (lines.truncated()) {
                diagnostics.add(Diagnostic.warning(source, lineNumber, "line longer than " + TextLines.MAX_LINE
                        + " bytes; ignored"));
                continue;
            }
            line(raw);
        }
    }

    /**
     * Parses one line of a live stream (or any line source): {@code source} and {@code lineNumber}
     * are what the evidence of anything read from it cites.
     */
    public void line(String raw, String source, int lineNumber) {
        this.source = source;
        this.lineNumber = lineNumber;
        line(raw);
    }

    /** Parses one line, citing the source and line number set last. */
    public void line(String raw) {
        String l = stripDecoration(raw);
        int at = l.indexOf(" NCCL ");
        if (at > 0 && prefix(l, at)) {
            ncclLine(host, pid, level, message, raw);
            return;
        }
        if (l.indexOf("ProcessGroupNCCL") >= 0 || l.indexOf("exitcode") >= 0) {
            torchLine(l, raw);
        }
    }

    // The prefix fields of the last line scanned by prefix(): host:pid:tid [dev] [file:line [(func)]] NCCL LEVEL message
    private String host;
    private int pid;
    private String level;
    private String message;

    /** Scans {@code host:pid:tid [dev] } and the level after {@code NCCL} at {@code at}; false when it is not an NCCL line. */
    private boolean prefix(String l, int at) {
        int c1 = l.indexOf(':');
        if (c1 < 0 || c1 > at) {
            return false;
        }
        int c2 = l.indexOf(':', c1 + 1);
        int sp = l.indexOf(' ', c1 + 1);
        if (c2 < 0 || sp < 0 || c2 > sp || sp + 1 >= l.length() || l.charAt(sp + 1) != '[') {
            return false;
        }
        int p = 0;
        for (int i = c1 + 1; i < c2; i++) {
            char ch = l.charAt(i);
            if (ch < '0' || ch > '9' || p > 100_000_000) {
                return false;
            }
            p = p * 10 + (ch - '0');
        }
        if (c2 == c1 + 1) {
            return false;
        }
        for (int i = c2 + 1; i < sp; i++) {
            if (!Character.isDigit(l.charAt(i))) {
                return false;
            }
        }
        int close = l.indexOf(']', sp);
        if (close < 0 || close > at) {
            return false;
        }
        int lvl = at + 6;
        int end = l.indexOf(' ', lvl);
        String lv = end < 0 ? l.substring(lvl) : l.substring(lvl, end);
        if (!(lv.equals("INFO") || lv.equals("WARN") || lv.equals("TRACE") || lv.equals("ERROR"))) {
            return false;
        }
        for (int i = 0; i < c1; i++) {
            if (Character.isWhitespace(l.charAt(i))) {
                return false;
            }
        }
        host = l.substring(0, c1);
        pid = p;
        level = lv;
        message = end < 0 ? "" : l.substring(end + 1);
        return true;
    }

    /**
     * Whether the first lines of a file are a NCCL / PyTorch log: at least one NCCL INFO/WARN line
     * (after launcher decorations), or a ProcessGroupNCCL or torch.distributed (torchrun) line.
     */
    public static boolean looksLikeLog(List<String> head) {
        NcclLogParser probe = new NcclLogParser(new TrainingLog(), new ArrayList<>());
        for (String raw : head) {
            String l = stripDecoration(raw);
            int at = l.indexOf(" NCCL ");
            if (at > 0 && probe.prefix(l, at)) {
                return true;
            }
            if (l.contains("ProcessGroupNCCL.cpp") || l.contains("torch.distributed.") || l.contains("torch/distributed/")) {
                return true;
            }
        }
        return false;
    }

    static String stripDecoration(String raw) {
        if (raw.isEmpty()) {
            return raw;
        }
        char c = raw.charAt(0);
        // Decorations start with '[' (tags, NCCL's WARN time), a digit (kubectl's RFC 3339 time) or a
        // weekday name (OpenMPI): most lines start otherwise, and skip the regular expression.
        boolean maybe = c == '[' || (c >= '0' && c <= '9' && raw.length() > 4 && raw.charAt(4) == '-')
                || (raw.length() > 8 && raw.charAt(3) == ' ' && raw.charAt(7) == ' ' && Character.isUpperCase(c));
        if (!maybe) {
            return raw;
        }
        Matcher d = DECORATION.matcher(raw);
        return d.lookingAt() ? raw.substring(d.end()) : raw;
    }

    private void ncclLine(String host, int pid, String level, String msg, String raw) {
        ProcessState p = process(host, pid);
        if (level.equals("WARN") || level.equals("ERROR")) {
            warn(host, pid, msg, evidence(raw));
            return;
        }
        Matcher m;
        if (msg.startsWith("Channel ")) {
            if ((m = CHANNEL.matcher(msg)).find()) {
                String via = m.group(5);
                Transport t = Transport.ofVia(via);
                if (t != null) {
                    Matcher dev = NET_VIA.matcher(via);
                    log.addChannel(new ChannelLink(p.currentComm, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                            Integer.parseInt(m.group(3)), t, via, dev.find() ? Integer.parseInt(dev.group(1)) : -1, evidence(raw)));
                }
            }
        } else if (msg.startsWith("NCCL version ")) {
            if ((m = VERSION.matcher(msg)).find()) {
                p.version = m.group(1);
            }
        } else if (msg.startsWith("NET/")) {
            if (msg.startsWith("NET/IB") && msg.contains("No device found")) {
                p.noIbDevice = true;
            } else if ((m = NET_IB_USING.matcher(msg)).find()) {
                Matcher d = NET_DEVICE.matcher(m.group(1));
                while (d.find()) {
                    p.netDevices.add(d.group(1));
                }
            } else if ((m = NET_SOCKET_USING.matcher(msg)).find()) {
                if (p.netDevices.isEmpty()) {
                    Matcher d = SOCKET_DEVICE.matcher(m.group(1));
                    while (d.find()) {
                        p.netDevices.add("socket " + d.group(1));
                    }
                }
            }
        } else if (msg.startsWith("Using network ")) {
            if ((m = USING_NETWORK.matcher(msg)).find()) {
                p.network = m.group(1);
            }
        } else if (msg.startsWith("NCCL_") && msg.contains(" set ")) {
            if ((m = ENV.matcher(msg)).find()) {
                p.env.put(m.group(1), m.group(2).strip());
            }
        } else if (msg.contains(" - Init ")) {
            if ((m = INIT.matcher(msg)).find()) {
                String commId = m.group(7) != null ? m.group(7) : m.group(1);
                p.currentComm = commId;
                boolean complete = m.group(8).equals("COMPLETE");
                log.putRank(new Rank(host, pid, Integer.parseInt(m.group(4)), m.group(5) == null ? -1 : Integer.parseInt(m.group(5)),
                        m.group(6), commId, Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)), p.version, true, complete,
                        p.netDevices, p.network, p.noIbDevice, p.env, evidence(raw)));
            }
        }
    }

    /** Evidence is made only for the lines that become part of the model. */
    private Evidence evidence(String raw) {
        return new Evidence(source, lineNumber, raw.strip());
    }

    private String lastHost;
    private int lastPid = -1;
    private ProcessState lastProcess;

    /** Logs are runs of lines from one process: remember the last one instead of hashing host:pid per line. */
    private ProcessState process(String host, int pid) {
        if (pid != lastPid || !host.equals(lastHost)) {
            lastProcess = processes.computeIfAbsent(host + ":" + pid, k -> new ProcessState());
            lastHost = host;
            lastPid = pid;
        }
        return lastProcess;
    }

    private void warn(String host, int pid, String msg, Evidence ev) {
        Map<String, String> f = new LinkedHashMap<>();
        Matcher m;
        NcclEvent.Kind kind = NcclEvent.Kind.WARN;
        if ((m = VERBS.matcher(msg)).find()) {
            kind = NcclEvent.Kind.VERBS_FAILURE;
            f.put("call", m.group(1));
            if (m.group(2) != null) {
                f.put("error", m.group(2));
            }
            if (m.group(3) != null) {
                f.put("errno", m.group(3));
            }
        } else if ((m = COMPLETION.matcher(msg)).find()) {
            kind = NcclEvent.Kind.IB_COMPLETION_ERROR;
            if (m.group(1) != null) {
                f.put("peer", m.group(1));
            }
            String status = m.group(2) != null ? m.group(2) : m.group(4);
            f.put("status", status);
            f.put("statusName", m.group(3) != null ? m.group(3) : wcStatus(Integer.parseInt(status)));
            f.put("vendorErr", m.group(5));
        } else if ((m = SOCKET_CLOSED.matcher(msg)).find()) {
            kind = NcclEvent.Kind.SOCKET_CLOSED;
            f.put("peer", m.group(1));
        }
        log.addEvent(new NcclEvent(kind, host, pid, -1, msg.strip(), f, ev));
    }

    /** ibv_wc_status names for the codes NCCL prints as numbers. */
    static String wcStatus(int s) {
        return switch (s) {
            case 0 -> "IBV_WC_SUCCESS";
            case 1 -> "IBV_WC_LOC_LEN_ERR";
            case 2 -> "IBV_WC_LOC_QP_OP_ERR";
            case 4 -> "IBV_WC_LOC_PROT_ERR";
            case 5 -> "IBV_WC_WR_FLUSH_ERR";
            case 9 -> "IBV_WC_REM_INV_REQ_ERR";
            case 10 -> "IBV_WC_REM_ACCESS_ERR";
            case 11 -> "IBV_WC_REM_OP_ERR";
            case 12 -> "IBV_WC_RETRY_EXC_ERR";
            case 13 -> "IBV_WC_RNR_RETRY_EXC_ERR";
            default -> "status " + s;
        };
    }

    private void torchLine(String l, String raw) {
        Matcher m;
        Evidence ev = new Evidence(source, lineNumber, raw.strip());
        if ((m = WATCHDOG.matcher(l)).find()) {
            Map<String, String> f = new LinkedHashMap<>();
            f.put("seqNum", m.group(2));
            f.put("opType", m.group(3));
            if (m.group(4) != null) {
                f.put("numelIn", m.group(4));
                f.put("numelOut", m.group(5));
            }
            f.put("timeoutMs", m.group(6));
            f.put("ranForMs", m.group(7));
            log.addEvent(new NcclEvent(NcclEvent.Kind.WATCHDOG_TIMEOUT, "", -1, Integer.parseInt(m.group(1)), l.strip(), f, ev));
        } else if ((m = WATCHDOG_PROGRESS.matcher(l)).find()) {
            Map<String, String> f = new LinkedHashMap<>();
            f.put("atWork", m.group(2));
            f.put("lastEnqueued", m.group(3));
            f.put("lastCompleted", m.group(4));
            log.addEvent(new NcclEvent(NcclEvent.Kind.WATCHDOG_PROGRESS, "", -1, Integer.parseInt(m.group(1)), l.strip(), f, ev));
        } else if ((m = PROCESS_FAILED.matcher(l)).find()) {
            Map<String, String> f = new LinkedHashMap<>();
            f.put("exitcode", m.group(1));
            f.put("localRank", m.group(2));
            f.put("pid", m.group(3));
            log.addEvent(new NcclEvent(NcclEvent.Kind.PROCESS_FAILED, "", Integer.parseInt(m.group(3)), -1, l.strip(), f, ev));
        }
    }
}
