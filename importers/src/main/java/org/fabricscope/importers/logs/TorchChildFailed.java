package org.fabricscope.importers.logs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Numbers;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.training.NcclEvent;

/** torchrun's {@code ChildFailedError} summary: one CHILD_FAILED event per {@code [N]:} entry. */
final class TorchChildFailed extends TorchHeld {
    private static final Pattern SUMMARY_FIELD = Pattern.compile("^\\s+(\\w+)\\s*: ?(.*?)\\s*$");
    private static final Pattern SUMMARY_ENTRY = Pattern.compile("^\\[(\\d+)\\]:\\s*$");
    private static final Pattern SUMMARY_RANK = Pattern.compile("^(\\d+) \\(local_rank: (\\d+)\\)");
    private static final Pattern SUMMARY_EXIT = Pattern.compile("^(-?\\d+) \\(pid: (\\d+)\\)");

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

    TorchChildFailed(String source, int rank, int line, String first, List<Diagnostic> problems, LineCitation citation) {
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
            TorchrunWorkers.putSignal(f, Numbers.checkedInt(m.group(1), "exit code"));
        }
        if (e.containsKey("error_file")) {
            f.put("errorFile", e.get("error_file"));
        }
        String tb = e.get("traceback");
        if (tb != null) {
            f.put("traceback", tb);
            if ((m = TorchrunWorkers.SIGNAL_BY_PID.matcher(tb)).find()) {
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
