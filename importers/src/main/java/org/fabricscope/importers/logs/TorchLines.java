package org.fabricscope.importers.logs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Numbers;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.training.NcclEvent;
import org.fabricscope.model.training.TrainingLogBuilder;

/**
 * The PyTorch side of a training log (FORMATS.md §3.6): ProcessGroupNCCL watchdog lines of every
 * era ({@code [Rank N]}, {@code [PG 0 Rank N]}, {@code [PG ID 0 PG GUID 0(default_pg) Rank N]}),
 * flight-recorder notices, NCCL errors with their {@code Last error:} text, aborts, torchrun/elastic
 * failures and the {@code ChildFailedError} summary. Messages that span lines are held per stream
 * (source and {@code [rankN]:} tag) until they end: a line wrapped by a terminal is rejoined with
 * no separator, the lines of a multi-line message with {@code \n}; the event cites the first line.
 * Ordinary lines cost a few {@code indexOf} calls.
 */
final class TorchLines {
    private static final Pattern PG_RANK = Pattern.compile("\\[(PG [^\\]]*?)?\\s*Rank (\\d+)\\]");
    private static final Pattern PG_ID = Pattern.compile("PG (?:ID )?(\\d+)");
    private static final Pattern PG_NAME = Pattern.compile("\\(([^)]*)\\)");
    private static final Pattern WORK = Pattern.compile(
            "WorkNCCL\\(SeqNum=(\\d+), OpType=(\\w+)(.*?)Timeout\\(ms\\)=(\\d+)\\)");
    private static final Pattern RAN_FOR = Pattern.compile("\\) ran for (\\d+) milliseconds");
    private static final Pattern NUMEL = Pattern.compile("NumelIn=(\\d+), NumelOut=(\\d+)");
    private static final Pattern PROGRESS = Pattern.compile(
            "[Ll]ast enqueued (?:NCCL )?work: (\\d+), last completed (?:NCCL )?work: (\\d+)");
    private static final Pattern AT_WORK = Pattern.compile("at work(?: sequence id)?: (\\d+)");
    private static final Pattern DUMP_FROM = Pattern.compile("collective timeout from +(this local rank|rank \\d+)");
    private static final Pattern STUCK = Pattern.compile("watchdog got stuck for (\\d+) seconds");
    private static final Pattern PROCESS_FAILED = Pattern.compile(
            "failed \\(exitcode: (-?\\d+)\\) local_rank: (\\d+) \\(pid: (\\d+)\\)");
    private static final Pattern CLOSING_SIGNAL = Pattern.compile("Sending process (\\d+) closing signal (SIG\\w+)");
    private static final Pattern GOT_SIGNAL = Pattern.compile("(?:Process (\\d+) )?got signal: (\\d+)");
    private static final Pattern SIGNAL_BY_PID = Pattern.compile("Signal (\\d+) \\((SIG\\w+)\\) received by PID (\\d+)");
    private static final Pattern NCCL_RESULT = Pattern.compile("^(nccl\\w+): ?(.*)$");
    private static final Pattern RAISED_FROM = Pattern.compile("^Exception raised from (\\S+) at (\\S+)");
    private static final Pattern NCCL_ERROR_HEAD = Pattern.compile(
            "NCCL error(?: in: (\\S+?),)?:? ?(.*?)(?: \\(run with NCCL_DEBUG=INFO for details\\))?(?:, NCCL version (\\S+?))?\\.?\\s*$");
    private static final Pattern SUMMARY_FIELD = Pattern.compile("^\\s+(\\w+)\\s*: ?(.*?)\\s*$");
    private static final Pattern SUMMARY_ENTRY = Pattern.compile("^\\[(\\d+)\\]:\\s*$");
    private static final Pattern SUMMARY_RANK = Pattern.compile("^(\\d+) \\(local_rank: (\\d+)\\)");
    private static final Pattern SUMMARY_EXIT = Pattern.compile("^(-?\\d+) \\(pid: (\\d+)\\)");
    private static final Pattern COMPLETION = Pattern.compile(
            "Got completion (?:from peer (\\S+) )?with (?:error (\\d+)|status=(?:(\\w+)\\()?(\\d+)\\)?)");
    private static final Pattern SOCKET_CLOSED = Pattern.compile("Connection closed by remote peer (\\S+)");

    /** Longest a held message may grow, in lines, before it is emitted as it is. */
    private static final int MAX_LINES = 12;
    /** A held message no line of its stream extended for this many lines of any stream is emitted. */
    private static final int STALE_AFTER = 500;

    private final TrainingLogBuilder log;
    private final List<Diagnostic> diagnostics;
    private final Map<String, Held> held = new HashMap<>();
    private long seen;
    private final LineCitation citation;

    TorchLines(TrainingLogBuilder log, List<Diagnostic> diagnostics, LineCitation citation) {
        this.log = log;
        this.diagnostics = diagnostics;
        this.citation = citation;
    }

    /**
     * Emits a held message. A number in it past its field's range (a pid, rank or exit code beyond
     * 32 bits, a sequence number beyond 64) skips that message with a diagnostic at its first line.
     */
    private void emit(Held h) {
        try {
            h.emit(this);
        } catch (Numbers.OutOfRange e) {
            diagnostics.add(Diagnostic.warning(h.source, h.line, e.getMessage() + "; record skipped"));
        }
    }

    /** A message held while it may continue on its stream's next lines. */
    private abstract static class Held {
        final String source;
        final int rank;
        final int line;
        final StringBuilder text = new StringBuilder();
        int lines = 1;
        long lastSeen;
        /**
         * Whether its next lines come without the {@code [rankN]:} tag: a terminal's wrap, and a glog
         * message (tag added once, before the severity) whose text has newlines; a Python traceback
         * printed by a torchrun worker tags every line.
         */
        boolean untagged = true;

        Held(String source, int rank, int line, String first) {
            this.source = source;
            this.rank = rank;
            this.line = line;
            text.append(first);
        }

        /** Takes {@code l} as part of this message, or false when it is not (the message then ends). */
        abstract boolean offer(String l);

        /** Longest this message may grow, in lines, before it is emitted as it is. */
        int maxLines() {
            return MAX_LINES;
        }

        /** Whether the message is complete and can be emitted now. */
        abstract boolean done();

        abstract void emit(TorchLines t);

        Evidence evidence(TorchLines t) {
            return t.citation.cite(source, line, text.toString().strip());
        }
    }

    // ---- entry points ----

    void line(String l, String source, int lineNumber) {
        seen++;
        int rank = -1;
        String body = l;
        if (l.startsWith("[rank")) { // torch 2.2+: [rank3]:[E...] or [rank3]: Traceback ...
            int close = l.indexOf("]:", 5);
            if (close > 5 && close < 12 && allDigits(l, 5, close)) {
                rank = Integer.parseInt(l, 5, close, 10);
                body = l.substring(close + 2);
                if (body.startsWith(" ")) {
                    body = body.substring(1);
                }
            }
        }
        if (!held.isEmpty()) {
            // A message whose lines carry the [rankN]: tag continues on that rank's lines; a wrapped
            // line continues on untagged ones (a terminal adds no tag), which a tagged line ends.
            if (rank >= 0 && feed(key(source, rank), body, -1)) {
                return;
            }
            if (feed(key(source, -1), rank >= 0 ? l : body, rank)) {
                return;
            }
            if ((seen & 0xff) == 0) {
                expire();
            }
        }
        if (body.indexOf("NCCL") < 0 && body.indexOf("exitcode") < 0 && body.indexOf("ChildFailedError") < 0
                && body.indexOf("ignal") < 0) {
            return;
        }
        start(body, source, lineNumber, rank);
    }

    /** Offers a line to the message held under {@code key}; true when it took it. */
    private boolean feed(String key, String l, int lineRank) {
        Held h = held.get(key);
        if (h == null) {
            return false;
        }
        if (lineRank >= 0 && h.rank >= 0 && lineRank != h.rank) {
            return false; // another rank's line between a message's lines: neither continues nor ends it
        }
        if (h.lines < h.maxLines() && h.offer(l)) {
            h.lines++;
            h.lastSeen = seen;
            if (h.done()) {
                held.remove(key);
                emit(h);
            }
            return true;
        }
        held.remove(key);
        emit(h);
        return false;
    }

    /** An NCCL line arrived on this source: a held single-line wrap cannot continue across it. */
    void interrupt(String source) {
        if (held.isEmpty()) {
            return;
        }
        Held h = held.remove(key(source, -1));
        if (h != null) {
            emit(h);
        }
    }

    void finish(String source) {
        for (Iterator<Held> it = held.values().iterator(); it.hasNext(); ) {
            Held h = it.next();
            if (source == null ? h.source == null : source.equals(h.source)) {
                it.remove();
                emit(h);
            }
        }
    }

    void finishAll() {
        List<Held> all = new ArrayList<>(held.values());
        held.clear();
        all.forEach(this::emit);
    }

    private void expire() {
        for (Iterator<Held> it = held.values().iterator(); it.hasNext(); ) {
            Held h = it.next();
            if (seen - h.lastSeen > STALE_AFTER) {
                it.remove();
                emit(h);
            }
        }
    }

    private static String key(String source, int rank) {
        return rank < 0 ? String.valueOf(source) : source + "\u0000" + rank;
    }

    private void hold(Held h) {
        h.lastSeen = seen;
        Held old = held.put(key(h.source, h.untagged ? -1 : h.rank), h);
        if (old != null) {
            emit(old);
        }
    }

    // ---- what a line starts ----

    private void start(String l, String source, int lineNumber, int rank) {
        if (l.indexOf("ChildFailedError") >= 0) {
            ChildFailed c = new ChildFailed(source, rank, lineNumber, l, diagnostics, citation);
            c.untagged = rank < 0;
            hold(c);
            return;
        }
        if (l.indexOf("NCCL error") >= 0 || l.indexOf("DistBackendError") >= 0) {
            NcclError e = new NcclError(source, rank, lineNumber, l);
            e.untagged = rank < 0 || glogLevel(l) != null;
            hold(e);
            return;
        }
        if (l.indexOf("WorkNCCL(") >= 0 || l.indexOf("Watchdog caught") >= 0 || l.indexOf("ast enqueued") >= 0
                || l.indexOf("watchdog got stuck") >= 0) {
            Record r = new Record(source, rank, lineNumber, l);
            if (r.done()) {
                emit(r);
            } else {
                hold(r);
            }
            return;
        }
        single(l, citation.cite(source, lineNumber, l.strip()), rank);
    }

    /** One-line records: flight recorder, aborts, torchrun failures and signals. */
    private void single(String l, Evidence ev, int tagRank) {
        Matcher m;
        Map<String, String> f = new LinkedHashMap<>();
        int rank = pgRank(l, f, tagRank);
        if (l.indexOf("ProcessGroupNCCL") >= 0 || l.indexOf("Rank ") >= 0) {
            String fr = flightAction(l);
            if (fr != null) {
                f.put("action", fr);
                add(NcclEvent.Kind.FLIGHT_RECORDER, "", -1, rank, l, f, ev);
                return;
            }
            String abort = abortAction(l);
            if (abort != null) {
                f.put("action", abort);
                String level = glogLevel(l);
                if (level != null) {
                    f.put("level", level);
                }
                add(NcclEvent.Kind.ABORT, "", -1, rank, l, f, ev);
                return;
            }
        }
        if (l.indexOf("exitcode") >= 0 && (m = PROCESS_FAILED.matcher(l)).find()) {
            f.clear();
            f.put("exitcode", m.group(1));
            f.put("localRank", m.group(2));
            f.put("pid", m.group(3));
            int exitcode = Numbers.checkedInt(m.group(1), "exit code");
            int pid = NcclLogParser.num(m.group(3), "pid");
            NcclLogParser.num(m.group(2), "local rank");
            putSignal(f, exitcode);
            add(NcclEvent.Kind.PROCESS_FAILED, "", pid, -1, l, f, ev);
        } else if (l.indexOf("ignal") >= 0) {
            f.clear();
            if ((m = CLOSING_SIGNAL.matcher(l)).find()) {
                f.put("signal", m.group(2));
                f.put("pid", m.group(1));
                f.put("direction", "sent");
                add(NcclEvent.Kind.SIGNAL, "", NcclLogParser.num(m.group(1), "pid"), -1, l, f, ev);
            } else if ((m = SIGNAL_BY_PID.matcher(l)).find()) {
                f.put("signal", m.group(2));
                f.put("signalNumber", m.group(1));
                f.put("pid", m.group(3));
                f.put("direction", "received");
                int pid = NcclLogParser.num(m.group(3), "pid");
                NcclLogParser.num(m.group(1), "signal");
                add(NcclEvent.Kind.SIGNAL, "", pid, -1, l, f, ev);
            } else if ((m = GOT_SIGNAL.matcher(l)).find()) {
                int n = NcclLogParser.num(m.group(2), "signal");
                int pid = m.group(1) == null ? -1 : NcclLogParser.num(m.group(1), "pid");
                f.put("signal", signalName(n));
                f.put("signalNumber", m.group(2));
                if (m.group(1) != null) {
                    f.put("pid", m.group(1));
                }
                f.put("direction", "received");
                add(NcclEvent.Kind.SIGNAL, "", pid, -1, l, f, ev);
            }
        }
    }

    private static String flightAction(String l) {
        if (l.indexOf("dump signal due to a collective timeout") >= 0) {
            return "dump-signal";
        }
        if (l.indexOf("preparing to dump debug info") >= 0) {
            return "preparing-dump";
        }
        if (l.indexOf("Observed flight recorder dump signal") >= 0) {
            return "observed-signal";
        }
        if (l.indexOf("to signal dumping") >= 0 || l.indexOf("to set the dump signal") >= 0) {
            return "first-to-signal";
        }
        if (l.indexOf("Stack trace of the failed collective not found") >= 0) {
            return "trace-not-found";
        }
        if (l.indexOf("Flight Recorder") >= 0 || l.indexOf("flight recorder") >= 0) {
            return "flight-recorder";
        }
        return null;
    }

    private static String abortAction(String l) {
        if (l.indexOf("Aborting communicators") >= 0 || l.indexOf("Aborting comm") >= 0) {
            return "aborting-communicators";
        }
        if (l.indexOf("ncclCommAbort") >= 0) {
            return "ncclCommAbort";
        }
        if (l.indexOf("ProcessGroupNCCL destroyed") >= 0) {
            return "destroyed";
        }
        if (l.indexOf("ProcessGroup abort") >= 0 || l.indexOf("aborts successfully") >= 0) {
            return "pg-abort";
        }
        if (l.indexOf("taking the entire process down") >= 0) {
            return "taking-process-down";
        }
        if (l.indexOf("Terminating the process after attempting to dump debug info") >= 0) {
            return "terminating";
        }
        return null;
    }

    /** The glog severity letter of {@code [E1206 ...}, {@code [E ProcessGroupNCCL...}, {@code I20241209 ...}. */
    private static String glogLevel(String l) {
        int i = l.startsWith("[") ? 1 : 0;
        if (l.length() > i + 1) {
            char c = l.charAt(i);
            char n = l.charAt(i + 1);
            if ((c == 'I' || c == 'W' || c == 'E' || c == 'F') && (n == ' ' || Character.isDigit(n))) {
                return String.valueOf(c);
            }
        }
        return null;
    }

    /** Fills pgId/pgName from a {@code [... Rank N]} prefix and returns N, or {@code fallback} when there is none. */
    private static int pgRank(String l, Map<String, String> f, int fallback) {
        int at = l.indexOf("Rank ");
        if (at < 0) {
            return fallback;
        }
        Matcher m = PG_RANK.matcher(l);
        if (!m.find()) {
            return fallback;
        }
        if (m.group(1) != null) {
            Matcher id = PG_ID.matcher(m.group(1));
            if (id.find()) {
                f.put("pgId", id.group(1));
            }
            Matcher name = PG_NAME.matcher(m.group(1));
            if (name.find()) {
                f.put("pgName", name.group(1));
            }
        }
        return NcclLogParser.num(m.group(2), "rank");
    }

    private void add(NcclEvent.Kind kind, String host, int pid, int rank, String message, Map<String, String> f, Evidence ev) {
        log.addEvent(new NcclEvent(kind, host, pid, rank, message.strip(), f, ev));
    }

    /** A sequence number, count or duration PyTorch prints from a 64-bit unsigned: checked, kept as its text. */
    static String seq(String text, String field) {
        Numbers.unsigned64(text, field);
        return text;
    }

    static void putSignal(Map<String, String> f, int exitcode) {
        if (exitcode < 0 && exitcode > -256) { // -N: killed by signal N
            f.put("signal", signalName(-exitcode));
            f.put("signalNumber", String.valueOf(-exitcode));
        }
    }

    /** Linux signal names for the numbers torchrun prints (exit code -N, {@code got signal: N}). */
    static String signalName(int n) {
        return switch (n) {
            case 1 -> "SIGHUP";
            case 2 -> "SIGINT";
            case 3 -> "SIGQUIT";
            case 4 -> "SIGILL";
            case 6 -> "SIGABRT";
            case 7 -> "SIGBUS";
            case 8 -> "SIGFPE";
            case 9 -> "SIGKILL";
            case 11 -> "SIGSEGV";
            case 13 -> "SIGPIPE";
            case 15 -> "SIGTERM";
            default -> "signal " + n;
        };
    }

    private static boolean allDigits(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return from < to;
    }

    /** A line that starts a new record of its own, so it cannot continue a wrapped one. */
    private static boolean startsRecord(String l) {
        if (l.isEmpty()) {
            return true;
        }
        char c = l.charAt(0);
        return c == '[' || l.startsWith("Traceback") || l.startsWith("torch.") || l.startsWith("ERROR:")
                || l.startsWith("WARNING:") || l.startsWith("INFO:") || glogLevel(l) != null && l.length() > 5
                && Character.isDigit(l.charAt(1)) && l.charAt(5) == ' ';
    }

    // ---- held messages ----

    /**
     * A one-line record (watchdog timeout, progress, heartbeat) that a terminal may have wrapped:
     * held until its pattern matches, then emitted; the next lines are appended with no separator.
     */
    private static final class Record extends Held {
        Record(String source, int rank, int line, String first) {
            super(source, rank, line, first);
        }

        @Override
        boolean offer(String l) {
            if (startsRecord(l)) {
                return false;
            }
            if (PROGRESS.matcher(text).find() && !(Character.isDigit(l.charAt(0)) || l.charAt(0) == '.')) {
                return false; // complete but for a number the wrap may have cut: only digits continue it
            }
            text.append(l);
            return true;
        }

        @Override
        boolean done() {
            String t = text.toString();
            if (t.indexOf("WorkNCCL(") >= 0 || t.indexOf("Watchdog caught") >= 0) {
                return RAN_FOR.matcher(t).find() || t.indexOf("raised the following async exception") >= 0;
            }
            if (t.indexOf("ast enqueued") >= 0) {
                return PROGRESS.matcher(t).find() && (t.endsWith(".") || t.indexOf(" PG status: ") >= 0
                        && !Character.isDigit(t.charAt(t.length() - 1)));
            }
            return STUCK.matcher(t).find();
        }

        @Override
        void emit(TorchLines tl) {
            String t = text.toString();
            Map<String, String> f = new LinkedHashMap<>();
            int r = pgRank(t, f, rank);
            Evidence ev = evidence(tl);
            Matcher m;
            if ((m = WORK.matcher(t)).find() && RAN_FOR.matcher(t).find()) {
                Matcher ran = RAN_FOR.matcher(t);
                ran.find(m.start());
                f.put("seqNum", seq(m.group(1), "sequence number"));
                f.put("opType", m.group(2));
                Matcher n = NUMEL.matcher(m.group(3));
                if (n.find()) {
                    f.put("numelIn", n.group(1));
                    f.put("numelOut", n.group(2));
                }
                f.put("timeoutMs", seq(m.group(4), "timeout"));
                f.put("ranForMs", seq(ran.group(1), "run time"));
                tl.add(NcclEvent.Kind.WATCHDOG_TIMEOUT, "", -1, r, t, f, ev);
            } else if ((m = PROGRESS.matcher(t)).find()) {
                Matcher at = AT_WORK.matcher(t);
                if (at.find()) {
                    f.put("atWork", seq(at.group(1), "sequence number"));
                }
                f.put("lastEnqueued", seq(m.group(1), "sequence number"));
                f.put("lastCompleted", seq(m.group(2), "sequence number"));
                Matcher from = DUMP_FROM.matcher(t);
                if (from.find()) {
                    f.put("action", "dump-signal");
                    f.put("from", from.group(1));
                    tl.add(NcclEvent.Kind.FLIGHT_RECORDER, "", -1, r, t, f, ev);
                } else {
                    tl.add(NcclEvent.Kind.WATCHDOG_PROGRESS, "", -1, r, t, f, ev);
                }
            } else if ((m = STUCK.matcher(t)).find()) {
                f.put("stuckSeconds", seq(m.group(1), "watchdog time"));
                tl.add(NcclEvent.Kind.WATCHDOG_HANG, "", -1, r, t, f, ev);
            } else {
                tl.single(t, ev, rank);
            }
        }
    }

    /**
     * An NCCL error as PyTorch raises it: {@code NCCL error in: file:line, <error>, NCCL version X},
     * then {@code ncclXxxError: ...}, {@code Last error:}, the NCCL text (same or next line), and
     * {@code Exception raised from ...}.
     */
    private static final class NcclError extends Held {
        String result;
        String lastError;
        boolean expectLast;
        String raisedFrom;
        String raisedAt;
        boolean headerOpen;

        NcclError(String source, int rank, int line, String first) {
            super(source, rank, line, first);
            headerOpen = first.indexOf("NCCL error") >= 0 && first.indexOf("NCCL version") < 0;
            int le = first.indexOf("Last error:");
            if (le >= 0) {
                lastOn(first.substring(le + 11));
            }
        }

        private void lastOn(String rest) {
            String t = rest.strip();
            if (t.isEmpty()) {
                expectLast = true;
            } else {
                lastError = t;
            }
        }

        @Override
        boolean offer(String l) {
            String t = l.strip();
            Matcher m;
            if (expectLast) {
                if (t.startsWith("Exception raised from")) {
                    expectLast = false;
                    lastError = "";
                    return raised(l);
                }
                expectLast = false;
                lastError = t;
                text.append('\n').append(l);
                return true;
            }
            if (t.startsWith("Last error:")) {
                headerOpen = false;
                text.append('\n').append(l);
                lastOn(t.substring(11));
                return true;
            }
            if (t.startsWith("Exception raised from")) {
                return raised(l);
            }
            if (result == null && (m = NCCL_RESULT.matcher(t)).find()) {
                headerOpen = false;
                result = m.group(1);
                text.append('\n').append(l);
                return true;
            }
            if (headerOpen && !startsRecord(t)) { // the header wrapped mid-way (e.g. before "NCCL version")
                text.append(l);
                if (text.indexOf("NCCL version") >= 0 && !text.toString().endsWith("NCCL version")) {
                    headerOpen = false;
                }
                return true;
            }
            return false;
        }

        private boolean raised(String l) {
            Matcher m = RAISED_FROM.matcher(l.strip());
            if (m.find()) {
                raisedFrom = m.group(1);
                raisedAt = m.group(2);
            }
            text.append('\n').append(l);
            return true;
        }

        @Override
        boolean done() {
            return raisedFrom != null;
        }

        @Override
        void emit(TorchLines tl) {
            String t = text.toString();
            String head = t.indexOf('\n') < 0 ? t : t.substring(0, t.indexOf('\n'));
            Map<String, String> f = new LinkedHashMap<>();
            int r = pgRank(head, f, rank);
            Matcher m;
            int at = head.indexOf("NCCL error");
            if (at >= 0 && (m = NCCL_ERROR_HEAD.matcher(head)).find(at)) {
                if (m.group(1) != null) {
                    f.put("where", m.group(1));
                }
                f.put("error", m.group(2));
                if (m.group(3) != null) {
                    f.put("ncclVersion", m.group(3));
                }
            } else {
                int c = head.indexOf("DistBackendError:");
                f.put("error", c >= 0 ? head.substring(c + 17).strip() : head.strip());
            }
            if ((m = WORK.matcher(head)).find()) {
                f.put("seqNum", seq(m.group(1), "sequence number"));
                f.put("opType", m.group(2));
            }
            if (result != null) {
                f.put("result", result);
            }
            if (lastError != null) {
                f.put("lastError", lastError);
                if ((m = COMPLETION.matcher(lastError)).find()) {
                    if (m.group(1) != null) {
                        f.put("peer", m.group(1));
                    }
                    String status = m.group(2) != null ? m.group(2) : m.group(4);
                    f.put("status", status);
                    f.put("statusName", m.group(3) != null ? m.group(3) : NcclWarnings.wcStatus(NcclLogParser.num(status, "completion status")));
                } else if ((m = SOCKET_CLOSED.matcher(lastError)).find()) {
                    f.put("peer", m.group(1));
                }
            }
            if (raisedFrom != null) {
                f.put("raisedFrom", raisedFrom + " at " + raisedAt);
            }
            tl.add(NcclEvent.Kind.NCCL_ERROR, "", -1, r, head, f, evidence(tl));
        }
    }

    /** torchrun's {@code ChildFailedError} summary: one CHILD_FAILED event per {@code [N]:} entry. */
    private static final class ChildFailed extends Held {
        String script;
        boolean rootCause;
        boolean sawRootEntry;
        Map<String, String> entry;
        int entryLine;
        int lineNo;
        StringBuilder entryText;
        final List<Runnable> out = new ArrayList<>();
        boolean closed;
        private TorchLines sink;
        private final List<Diagnostic> problems;
        private final LineCitation citation;

        ChildFailed(String source, int rank, int line, String first, List<Diagnostic> problems, LineCitation citation) {
            super(source, rank, line, first);
            lineNo = line;
            this.problems = problems;
            this.citation = citation;
        }

        @Override
        int maxLines() {
            return 20_000; // 8 lines per failed rank
        }

        @Override
        boolean offer(String l) {
            lineNo++;
            String t = l.strip();
            if (t.startsWith("====")) {
                endEntry();
                if (sawRootEntry) {
                    closed = true;
                }
                return true;
            }
            if (t.startsWith("----")) {
                endEntry();
                return true;
            }
            if (t.equals("Failures:") || t.equals("<NO_OTHER_FAILURES>") || t.isEmpty()) {
                return true;
            }
            if (t.startsWith("Root Cause")) {
                endEntry();
                rootCause = true;
                return true;
            }
            if (t.endsWith(" FAILED") && script == null && entry == null) {
                script = t.substring(0, t.length() - 7).strip();
                return true;
            }
            Matcher m = SUMMARY_ENTRY.matcher(t);
            if (m.find()) {
                endEntry();
                entry = new LinkedHashMap<>();
                entryLine = lineNo;
                entryText = new StringBuilder(l);
                if (rootCause) {
                    sawRootEntry = true;
                }
                return true;
            }
            if (entry != null && (m = SUMMARY_FIELD.matcher(l)).find()) {
                entry.put(m.group(1), m.group(2));
                entryText.append('\n').append(l);
                return true;
            }
            return false;
        }

        /** Ends the entry being read; one with a number out of range is skipped with a diagnostic, the others kept. */
        private void endEntry() {
            if (entry == null) {
                return;
            }
            try {
                entryEvent();
            } catch (Numbers.OutOfRange x) {
                problems.add(Diagnostic.warning(source, entryLine, x.getMessage() + "; entry skipped"));
            }
            entry = null;
        }

        private void entryEvent() {
            Map<String, String> e = entry;
            Map<String, String> f = new LinkedHashMap<>();
            if (script != null) {
                f.put("script", script);
            }
            int pid = -1;
            int r = -1;
            String host = e.getOrDefault("host", "");
            if (e.containsKey("time")) {
                f.put("time", e.get("time"));
            }
            if (!host.isEmpty()) {
                f.put("host", host);
            }
            Matcher m;
            if (e.containsKey("rank") && (m = SUMMARY_RANK.matcher(e.get("rank"))).find()) {
                f.put("rank", m.group(1));
                f.put("localRank", m.group(2));
                r = NcclLogParser.num(m.group(1), "rank");
                NcclLogParser.num(m.group(2), "local rank");
            }
            if (e.containsKey("exitcode") && (m = SUMMARY_EXIT.matcher(e.get("exitcode"))).find()) {
                f.put("exitcode", m.group(1));
                f.put("pid", m.group(2));
                pid = NcclLogParser.num(m.group(2), "pid");
                putSignal(f, Numbers.checkedInt(m.group(1), "exit code"));
            }
            if (e.containsKey("error_file")) {
                f.put("errorFile", e.get("error_file"));
            }
            String tb = e.get("traceback");
            if (tb != null) {
                f.put("traceback", tb);
                if ((m = SIGNAL_BY_PID.matcher(tb)).find()) {
                    f.put("signal", m.group(2));
                    f.put("signalNumber", m.group(1));
                }
            }
            f.put("rootCause", String.valueOf(rootCause));
            Evidence ev = citation.cite(source, entryLine, entryText.toString().strip());
            int fp = pid;
            int fr = r;
            out.add(() -> sink.add(NcclEvent.Kind.CHILD_FAILED, host, fp, fr, "ChildFailedError " + ev.text().replace('\n', ' '), f, ev));
        }

        @Override
        boolean done() {
            return closed;
        }

        @Override
        void emit(TorchLines tl) {
            endEntry();
            sink = tl;
            out.forEach(Runnable::run);
            out.clear();
        }
    }
}
